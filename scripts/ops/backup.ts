// Backup, restore and verification of an Abacus instance (database + instance secrets).
//
//   npm run backup -- --out FILE              (BACKUP_PASSPHRASE or --passphrase-file seals the secrets)
//   npm run restore -- FILE [--force] [--secrets-out FILE] [--expect-kid KID] [--passphrase-file F]
//   npm run backup:verify -- FILE [--expect-kid KID] [--passphrase-file F]
//
// backup and restore run through scripts/db/run-with-db.mjs: on the embedded default they use (or
// share, while the app runs) the PostgreSQL server on ./.data, otherwise the server DATABASE_URL names.
// verify needs no database.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import postgres from "postgres";
import packageJson from "../../package.json";
import { openArchive } from "../../src/server/backup/archive";
import { createBackup } from "../../src/server/backup/backup";
import { BackupError } from "../../src/server/backup/errors";
import type { InstanceSecrets } from "../../src/server/backup/manifest";
import { archiveMigration, restoreBackup } from "../../src/server/backup/restore";
import { checkPassphrase } from "../../src/server/backup/seal";

const USAGE = `usage:
  backup --out FILE [--passphrase-file FILE]
  restore FILE [--force] [--secrets-out FILE] [--expect-kid KID] [--passphrase-file FILE] [--without-secrets]
  verify FILE [--expect-kid KID] [--passphrase-file FILE]
The passphrase may also come from BACKUP_PASSPHRASE (never from the command line, where ps shows it).`;

function parse(argv: string[]) {
  const [command, ...rest] = argv;
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  const valued = new Set(["--out", "--passphrase-file", "--expect-kid", "--secrets-out"]);
  const bare = new Set(["--force", "--without-secrets"]);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (valued.has(arg)) {
      const value = rest[++i];
      if (!value) throw new BackupError(`${arg} needs a value.\n${USAGE}`);
      flags[arg] = value;
    } else if (bare.has(arg)) flags[arg] = true;
    else if (arg.startsWith("--")) throw new BackupError(`Unknown option ${arg}.\n${USAGE}`);
    else positional.push(arg);
  }
  return { command, flags, positional };
}

function passphrase(flags: Record<string, string | true>): string | undefined {
  const file = flags["--passphrase-file"];
  const value =
    typeof file === "string"
      ? readFileSync(file, "utf8").replace(/\r?\n$/, "")
      : process.env.BACKUP_PASSPHRASE;
  return value === "" ? undefined : value;
}

const pemFromEnv = (value: string) => (value.includes("\\n") ? value.replace(/\\n/g, "\n") : value);

/** The instance's secrets by the app's own rules (src/server/secrets.ts, billing/receipt-keys.ts). */
function instanceSecrets(): InstanceSecrets {
  const dataDir = process.env.ABACUS_DATA_DIR;
  let authSecret = process.env.AUTH_SECRET || undefined;
  let receiptSigningKey = process.env.RECEIPT_SIGNING_KEY
    ? pemFromEnv(process.env.RECEIPT_SIGNING_KEY)
    : undefined;
  if (dataDir) {
    const secretsFile = path.join(dataDir, "secrets.json");
    const keyFile = path.join(dataDir, "receipt-key.pem");
    // Made here exactly as the app makes them on first use, so the archive always carries them.
    if (!authSecret && !existsSync(secretsFile))
      writeFileSync(
        secretsFile,
        `${JSON.stringify({ authSecret: randomBytes(32).toString("base64url") }, null, 2)}\n`,
        {
          mode: 0o600,
          flag: "wx",
        },
      );
    if (!receiptSigningKey && !existsSync(keyFile)) {
      const pem = generateKeyPairSync("ed25519")
        .privateKey.export({ format: "pem", type: "pkcs8" })
        .toString();
      writeFileSync(keyFile, pem, { mode: 0o600, flag: "wx" });
    }
    authSecret ??= (JSON.parse(readFileSync(secretsFile, "utf8")) as { authSecret: string }).authSecret;
    receiptSigningKey ??= readFileSync(keyFile, "utf8");
  }
  if (!authSecret)
    throw new BackupError("AUTH_SECRET is not set: the backup must carry the instance secret.");
  if (!receiptSigningKey)
    throw new BackupError(
      "RECEIPT_SIGNING_KEY is not set: the backup is signed with the instance's receipt key.",
    );
  return { authSecret, receiptSigningKey };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const seconds = (start: bigint) => `${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(2)} s`;

async function backup(flags: Record<string, string | true>) {
  const out = flags["--out"];
  if (typeof out !== "string") throw new BackupError(`backup needs --out FILE.\n${USAGE}`);
  const url = process.env.DATABASE_URL;
  if (!url) throw new BackupError("DATABASE_URL is not set: run it as `npm run backup -- --out FILE`.");
  const secret = passphrase(flags);
  if (secret !== undefined) checkPassphrase(secret);
  const start = process.hrtime.bigint();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const result = await createBackup(sql, {
      out,
      secrets: instanceSecrets(),
      passphrase: secret,
      appVersion: packageJson.version,
    });
    const rows = result.manifest.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `backup: ${result.file}: ${result.manifest.tables.length} tables, ${rows} rows, schema ${result.manifest.schema.tag}, ${mib(result.bytes)} in ${seconds(start)}; signed by ${result.manifest.signer.kid}`,
    );
    if (!result.manifest.secrets.encrypted)
      console.log(
        "backup: the instance secrets are in the archive unencrypted (set BACKUP_PASSPHRASE to seal them): keep the file as safe as the instance itself.",
      );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function verify(flags: Record<string, string | true>, file: string | undefined) {
  if (!file) throw new BackupError(`verify needs the archive.\n${USAGE}`);
  const start = process.hrtime.bigint();
  const archive = await openArchive(file, {
    passphrase: passphrase(flags),
    expectKid: typeof flags["--expect-kid"] === "string" ? flags["--expect-kid"] : undefined,
  });
  try {
    const { manifest } = archive;
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `verify: ${file}: signature and ${manifest.tables.length} table hashes good (${rows} rows), made ${manifest.createdAt} by Abacus ${manifest.app.version} on PostgreSQL ${manifest.database.serverVersion}; signed by ${manifest.signer.kid}`,
    );
    console.log(
      `verify: secrets ${manifest.secrets.encrypted ? (archive.secrets ? "sealed, passphrase good" : "sealed (no passphrase given: not opened)") : "unencrypted"}`,
    );
    try {
      const at = archiveMigration(manifest);
      console.log(`verify: schema ${at.tag}: this code can restore it (${seconds(start)})`);
    } catch (error) {
      console.log(`verify: ${error instanceof Error ? error.message : error}`);
    }
  } finally {
    await archive.close();
  }
}

/** On the embedded default the secrets live in the data folder: put the archive's there. */
function dataDirSecrets(dataDir: string, secrets: InstanceSecrets, force: boolean) {
  const files = [
    {
      file: path.join(dataDir, "secrets.json"),
      text: `${JSON.stringify({ authSecret: secrets.authSecret }, null, 2)}\n`,
    },
    { file: path.join(dataDir, "receipt-key.pem"), text: secrets.receiptSigningKey },
  ];
  const check = () => {
    for (const { file, text } of files)
      if (existsSync(file) && readFileSync(file, "utf8") !== text && !force)
        throw new BackupError(
          `${file} holds other secrets than the archive: restore refuses to replace them (pass --force; the old file is kept beside it).`,
        );
  };
  const write = () => {
    for (const { file, text } of files) {
      if (existsSync(file) && readFileSync(file, "utf8") === text) continue;
      if (existsSync(file)) renameSync(file, `${file}.replaced-${Date.now()}`);
      writeFileSync(file, text, { mode: 0o600, flag: "wx" });
    }
  };
  return { check, write };
}

async function restore(flags: Record<string, string | true>, file: string | undefined) {
  if (!file) throw new BackupError(`restore needs the archive.\n${USAGE}`);
  const url = process.env.DATABASE_URL;
  if (!url) throw new BackupError("DATABASE_URL is not set: run it as `npm run restore -- FILE`.");
  const force = flags["--force"] === true;
  const withoutSecrets = flags["--without-secrets"] === true;
  const secretsOut = typeof flags["--secrets-out"] === "string" ? flags["--secrets-out"] : undefined;
  const dataDir = process.env.DATABASE_MODE === "embedded" ? process.env.ABACUS_DATA_DIR : undefined;
  let write: (() => void) | undefined;
  const start = process.hrtime.bigint();
  const result = await restoreBackup(url, path.resolve(file), {
    force,
    passphrase: passphrase(flags),
    expectKid: typeof flags["--expect-kid"] === "string" ? flags["--expect-kid"] : undefined,
    log: (message) => console.log(`restore: ${message}`),
    preflight: (_manifest, secrets) => {
      if (withoutSecrets) return;
      if (!secrets)
        throw new BackupError(
          "The archive's secrets are sealed: give the passphrase (BACKUP_PASSPHRASE or --passphrase-file), or pass --without-secrets.",
        );
      if (secretsOut && existsSync(secretsOut)) throw new BackupError(`${secretsOut} already exists.`);
      if (dataDir) {
        const plan = dataDirSecrets(dataDir, secrets, force);
        plan.check();
        write = plan.write;
      }
    },
  });
  if (!withoutSecrets && result.secrets) {
    if (write) {
      write();
      console.log(`restore: instance secret and receipt key written to ${dataDir}`);
    }
    if (secretsOut) {
      const pem = result.secrets.receiptSigningKey.trim().replaceAll("\n", "\\n");
      writeFileSync(secretsOut, `AUTH_SECRET=${result.secrets.authSecret}\nRECEIPT_SIGNING_KEY="${pem}"\n`, {
        mode: 0o600,
        flag: "wx",
      });
      console.log(
        `restore: AUTH_SECRET and RECEIPT_SIGNING_KEY written to ${secretsOut} (an env file; keep it secret)`,
      );
    } else if (!dataDir) {
      console.log(
        "restore: the instance's AUTH_SECRET and RECEIPT_SIGNING_KEY were not written anywhere (pass --secrets-out FILE to get them). Receipts issued before still verify against the restored published keys whatever key signs now; sessions need the same AUTH_SECRET.",
      );
    }
  }
  const rows = result.manifest.tables.reduce((n, t) => n + t.rows, 0);
  console.log(
    `restore: ${result.manifest.tables.length} tables, ${rows} rows restored at ${result.from}${result.to !== result.from ? `, migrated to ${result.to}` : ""} in ${seconds(start)}`,
  );
}

async function main() {
  const { command, flags, positional } = parse(process.argv.slice(2));
  if (command === "backup") await backup(flags);
  else if (command === "verify") await verify(flags, positional[0]);
  else if (command === "restore") await restore(flags, positional[0]);
  else throw new BackupError(USAGE);
}

main().catch((error: unknown) => {
  if (error instanceof BackupError) console.error(`${process.argv[2] ?? "backup"}: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
