import "server-only";
import { type SchemaVersion, schemaVersionLabel } from "@/server/backup/schema-version";

/** The database's schema version (last applied migration), as the system facts show it. */
export function SchemaVersionFact({ version }: { version: SchemaVersion | null }) {
  return (
    <span data-testid="schema-version" className={version?.newerThanCode ? "text-destructive" : undefined}>
      {schemaVersionLabel(version)}
    </span>
  );
}
