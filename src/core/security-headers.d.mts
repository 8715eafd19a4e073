export function contentSecurityPolicy(isDev: boolean): string;
export function securityHeaders(isDev: boolean): { key: string; value: string }[];
