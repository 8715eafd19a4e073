import "server-only";
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, asc, count, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { base64ToBytes } from "@/core/crypto/encoding";
import { ed25519KeyId, type ReceiptKey } from "@/core/receipts/receipt";
import type { Db } from "@/server/db/client";
import { receiptKeys, receipts } from "@/server/db/schema";
import { getEnv, pemFromEnv } from "@/server/env";

/**
 * The instance's Ed25519 receipt key. From `RECEIPT_SIGNING_KEY` (PKCS#8 PEM) when set; otherwise it is
 * generated once into the data folder (`receipt-key.pem`, like the auth secret in `secrets.ts`), so
 * every process on that folder signs with the same key. Its public half is registered in
 * `receipt_keys` the first time it signs; a rotation retires the older keys there but keeps them
 * published, so receipts they signed still verify.
 */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKeyPem: string;
  /** Raw 32-byte public key, base64url (the JWK `x`). */
  x: string;
}

const KEY_FILE = "receipt-key.pem";
let cached: SigningKey | undefined;
let registered: string | undefined;

export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey({ key: pem, format: "pem" });
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("The receipt key must be Ed25519");
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: "jwk" });
  const x = String(jwk.x);
  return {
    kid: ed25519KeyId(base64ToBytes(x)),
    privateKey,
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    x,
  };
}

function freshPem(): string {
  const { privateKey } = generateKeyPairSync("ed25519");
  return privateKey.export({ format: "pem", type: "pkcs8" }).toString();
}

function keyFile(): string | undefined {
  const dir = getEnv().ABACUS_DATA_DIR;
  return dir ? path.join(dir, KEY_FILE) : undefined;
}

/** The current signing key (not yet registered: `currentSigningKey` does that). */
export function loadSigningKey(): SigningKey {
  if (cached) return cached;
  const env = getEnv();
  if (env.RECEIPT_SIGNING_KEY) {
    cached = signingKeyFromPem(pemFromEnv(env.RECEIPT_SIGNING_KEY));
    return cached;
  }
  const file = keyFile();
  if (file) {
    if (!existsSync(file)) {
      try {
        writeFileSync(file, freshPem(), { mode: 0o600, flag: "wx" });
      } catch {
        // Another process won the race; read what it wrote.
      }
    }
    cached = signingKeyFromPem(readFileSync(file, "utf8"));
    return cached;
  }
  // Tests, or development on an external server without a key: one key per process, still published.
  cached = signingKeyFromPem(freshPem());
  return cached;
}

/** Publishes a key's public half (idempotent) and retires every other key that is still current. */
async function register(db: Db, key: SigningKey): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('abacus:receipt-keys', 0))`);
    const inserted = await tx
      .insert(receiptKeys)
      .values({ kid: key.kid, publicKeyPem: key.publicKeyPem })
      .onConflictDoNothing()
      .returning({ kid: receiptKeys.kid });
    if (inserted.length > 0) {
      await tx
        .update(receiptKeys)
        .set({ retiredAt: sql`now()` })
        .where(and(ne(receiptKeys.kid, key.kid), isNull(receiptKeys.retiredAt)));
    }
  });
}

/** The key to sign with now, published in `receipt_keys`. */
export async function currentSigningKey(db: Db): Promise<SigningKey> {
  const key = loadSigningKey();
  if (registered !== key.kid) {
    await register(db, key);
    registered = key.kid;
  }
  return key;
}

/**
 * Replaces the signing key with a new one (written to the data folder when there is one) and publishes
 * it; the old keys stay published as retired. With RECEIPT_SIGNING_KEY set, rotate by changing it.
 */
export async function rotateReceiptKey(db: Db, pem: string = freshPem()): Promise<SigningKey> {
  const next = signingKeyFromPem(pem);
  const file = keyFile();
  if (file && !getEnv().RECEIPT_SIGNING_KEY) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, pem, { mode: 0o600 });
    renameSync(tmp, file);
  }
  cached = next;
  await register(db, next);
  registered = next.kid;
  return next;
}

export function signBytes(key: SigningKey, bytes: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, bytes, key.privateKey));
}

export interface PublishedKey {
  kid: string;
  publicKeyPem: string;
  x: string;
  createdAt: Date;
  retiredAt: Date | null;
}

/** Every receipt key this instance has used, oldest first. */
export async function publishedKeys(db: Db): Promise<PublishedKey[]> {
  await currentSigningKey(db);
  const rows = await db.select().from(receiptKeys).orderBy(asc(receiptKeys.createdAt));
  return rows.map((row) => {
    const jwk = createPublicKey({ key: row.publicKeyPem, format: "pem" }).export({ format: "jwk" });
    return { ...row, x: String(jwk.x) };
  });
}

export function toReceiptKeys(keys: readonly PublishedKey[]): ReceiptKey[] {
  return keys.map((k) => ({
    kid: k.kid,
    publicKey: base64ToBytes(k.x),
    retiredAt: k.retiredAt?.toISOString() ?? null,
  }));
}

/** The JWK set served at /api/v1/receipt-keys. */
export function jwks(keys: readonly PublishedKey[]) {
  return {
    keys: keys.map((k) => ({
      kty: "OKP",
      crv: "Ed25519",
      x: k.x,
      kid: k.kid,
      use: "sig",
      alg: "EdDSA",
      status: k.retiredAt ? "retired" : "current",
      created_at: k.createdAt.toISOString(),
      retired_at: k.retiredAt?.toISOString() ?? null,
      pem: k.publicKeyPem,
    })),
  };
}

/**
 * Every published receipt key for the admin overview: the current one first, then the retired ones,
 * newest first, each with how many receipts it signed. Reads only (never generates a key).
 */
export async function receiptKeyOverview(db: Db) {
  const rows = await db
    .select({
      kid: receiptKeys.kid,
      createdAt: receiptKeys.createdAt,
      retiredAt: receiptKeys.retiredAt,
      receipts: count(receipts.orderId),
    })
    .from(receiptKeys)
    .leftJoin(receipts, eq(receipts.kid, receiptKeys.kid))
    .groupBy(receiptKeys.kid)
    .orderBy(sql`${receiptKeys.retiredAt} is not null`, desc(receiptKeys.createdAt));
  return rows.map((row) => ({ ...row, current: row.retiredAt === null }));
}
