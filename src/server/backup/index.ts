// Backup and restore of an Abacus instance: its database and the secrets beside it.
export { type OpenedArchive, openArchive } from "./archive";
export { type BackupResult, createBackup } from "./backup";
export { BackupError } from "./errors";
export type { InstanceSecrets, Manifest } from "./manifest";
export { archiveMigration, type RestoreResult, restoreBackup, tablesWithData } from "./restore";
export { describeSchemaVersion, latestCodeMigration, schemaVersionLabel } from "./schema-version";
