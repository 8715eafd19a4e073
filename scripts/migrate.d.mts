export function migrateDatabase(url: string, folder?: string): Promise<void>;
