export const BODY_CAPS: Readonly<{
  auth: number;
  calculate: number;
  receiptVerify: number;
  pageView: number;
  stripeWebhook: number;
  monitoringEvent: number;
  monitoringReplay: number;
}>;
export const MAX_REQUEST_BYTES: number;
export function bodyCapFor(pathname: string): number;
export const EDGE_REFUSAL_HEADER: string;
export const EDGE_REFUSAL_VERBATIM_HEADER: string;
export const EDGE_REFUSAL_MAX_HOLD_MS: number;
export const EDGE_ANONYMOUS_HEADER: string;
export const EDGE_ANONYMOUS_TTL_MS: number;
