import "server-only";
import { appliedSchemaVersion } from "@/server/backup/applied";
import { schemaVersionLabel } from "@/server/backup/schema-version";
import { getDb } from "@/server/db/client";

/** The database's schema version (last applied migration), as the system facts show it. */
export async function SchemaVersionFact() {
  const version = await appliedSchemaVersion(getDb());
  return (
    <span data-testid="schema-version" className={version?.newerThanCode ? "text-destructive" : undefined}>
      {schemaVersionLabel(version)}
    </span>
  );
}
