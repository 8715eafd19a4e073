import "server-only";
import { eq } from "drizzle-orm";
import type { RoundingMode } from "@/core/rounding";
import type { Db } from "@/server/db/client";
import { organization } from "@/server/db/schema";

/** An organization's calculator defaults: what its members start from (a link's parameters win). */
export type OrgPreferences = { defaultCurrency: string; roundingMode: RoundingMode; precision: number };

export async function organizationPreferences(
  db: Db,
  organizationId: string,
): Promise<OrgPreferences | null> {
  const [row] = await db
    .select({
      defaultCurrency: organization.defaultCurrency,
      roundingMode: organization.roundingMode,
      precision: organization.precision,
    })
    .from(organization)
    .where(eq(organization.id, organizationId));
  return row ?? null;
}

export async function savePreferences(db: Db, organizationId: string, prefs: OrgPreferences) {
  await db
    .update(organization)
    .set({
      defaultCurrency: prefs.defaultCurrency,
      roundingMode: prefs.roundingMode,
      precision: prefs.precision,
    })
    .where(eq(organization.id, organizationId));
}
