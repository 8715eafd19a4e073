import "server-only";
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Result } from "@/core/result";
import type { Db } from "@/server/db/client";
import { apiKeys } from "@/server/db/schema";
import { MAX_ACTIVE_KEYS } from "../schemas";
import { newApiKeySecret } from "./keys";

export type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export async function listApiKeys(db: Db, organizationId: string): Promise<ApiKeyRow[]> {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
}

/** Creates a key; the secret is returned this once and only its hash is stored. */
export async function createApiKey(
  db: Db,
  organizationId: string,
  userId: string,
  name: string,
): Promise<Result<{ secret: string; prefix: string }>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`api-keys:${organizationId}`}, 0))`);
    const [row] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)));
    if ((row?.n ?? 0) >= MAX_ACTIVE_KEYS) {
      return {
        ok: false,
        error: `An organization holds at most ${MAX_ACTIVE_KEYS} keys. Revoke one you no longer use.`,
      };
    }
    const key = newApiKeySecret();
    await tx
      .insert(apiKeys)
      .values({ organizationId, createdBy: userId, name, prefix: key.prefix, hash: key.hash });
    return { ok: true, data: { secret: key.secret, prefix: key.prefix } };
  });
}

/** Revokes a key of this organization: the next call with it is refused. */
export async function revokeApiKey(db: Db, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length === 1;
}
