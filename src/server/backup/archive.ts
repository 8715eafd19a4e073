import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { extract } from "tar";
import { BackupError } from "./errors";
import {
  ENTRY_NAME,
  type InstanceSecrets,
  MANIFEST,
  MAX_ENTRIES,
  MAX_MANIFEST_BYTES,
  MAX_SECRETS_BYTES,
  type Manifest,
  readSignedManifest,
  SECRETS_SEALED,
  SIGNATURE,
  signerOf,
} from "./manifest";
import { open, type SealedBox } from "./seal";

export interface OpenedArchive {
  dir: string;
  manifest: Manifest;
  /** Null when they are sealed and no passphrase was given. */
  secrets: InstanceSecrets | null;
  close(): Promise<void>;
}

export interface OpenOptions {
  passphrase?: string;
  /** Refuse an archive not signed by this key id. */
  expectKid?: string;
  /** Where to unpack (default: the system's temporary folder). */
  workDir?: string;
}

async function digest(file: string) {
  const hash = createHash("sha256");
  let bytes = 0;
  let rows = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows += 1;
  }
  return { bytes, rows, sha256: hash.digest("hex") };
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, name)));
    else out.push(name);
  }
  return out;
}

function parseSecrets(bytes: Buffer): InstanceSecrets {
  let value: Partial<InstanceSecrets>;
  try {
    value = JSON.parse(bytes.toString("utf8")) as Partial<InstanceSecrets>;
  } catch {
    throw new BackupError("The archive's secrets are not valid JSON.");
  }
  if (typeof value.authSecret !== "string" || typeof value.receiptSigningKey !== "string")
    throw new BackupError("The archive's secrets lack the auth secret or the receipt key.");
  return { authSecret: value.authSecret, receiptSigningKey: value.receiptSigningKey };
}

/**
 * Unpacks an archive into a private folder and checks everything before anything is used: only the
 * expected entries (regular files with the names this format uses, each once), the manifest's
 * Ed25519 signature, then every file's size, SHA-256 and row count against the signed manifest.
 * Needs no database. Throws a BackupError naming the first problem.
 */
export async function openArchive(file: string, options: OpenOptions = {}): Promise<OpenedArchive> {
  const dir = await mkdtemp(path.join(options.workDir ?? tmpdir(), "abacus-restore-"));
  // maxRetries: after a failed extraction the unpacker may still be closing files in the folder.
  const close = () => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  try {
    return { ...(await unpackAndVerify(file, dir, options)), dir, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

async function unpackAndVerify(file: string, dir: string, options: OpenOptions) {
  try {
    await stat(file);
  } catch {
    throw new BackupError(`No archive at ${file}.`);
  }
  const seen = new Set<string>();
  let problem: string | null = null;
  try {
    await extract({
      file,
      cwd: dir,
      strict: true,
      preserveOwner: false,
      filter: (entryPath, entry) => {
        const type = "type" in entry ? entry.type : "File";
        const ok = type === "File" && ENTRY_NAME.test(entryPath) && !seen.has(entryPath);
        if (!ok) problem ??= `unexpected entry ${JSON.stringify(entryPath.slice(0, 100))}`;
        if (seen.size >= MAX_ENTRIES) problem ??= "too many entries";
        seen.add(entryPath);
        return ok && problem === null;
      },
    });
  } catch (error) {
    throw new BackupError(
      `The archive is damaged or not a backup (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (problem) throw new BackupError(`The archive is not an Abacus backup: ${problem}.`);
  if (!seen.has(MANIFEST) || !seen.has(SIGNATURE))
    throw new BackupError("The archive has no signed manifest.");
  if ((await stat(path.join(dir, MANIFEST))).size > MAX_MANIFEST_BYTES)
    throw new BackupError("The archive's manifest is too large.");
  const manifest = readSignedManifest(
    await readFile(path.join(dir, MANIFEST)),
    (await readFile(path.join(dir, SIGNATURE), "utf8")).slice(0, 200),
    options.expectKid,
  );

  // The signed manifest names every file; nothing more, nothing less.
  const expected = new Set([
    MANIFEST,
    SIGNATURE,
    manifest.secrets.file,
    ...manifest.tables.map((t) => t.file),
  ]);
  const present = await listFiles(dir);
  for (const name of present)
    if (!expected.has(name))
      throw new BackupError(`The archive holds ${name}, which its manifest does not list.`);
  for (const name of expected)
    if (!present.includes(name))
      throw new BackupError(`The archive lacks ${name}, which its manifest lists.`);

  for (const table of manifest.tables) {
    if (!ENTRY_NAME.test(table.file)) throw new BackupError(`Bad table file name ${table.file}.`);
    const actual = await digest(path.join(dir, table.file));
    if (actual.sha256 !== table.sha256 || actual.bytes !== table.bytes || actual.rows !== table.rows)
      throw new BackupError(
        `Table ${table.schema}.${table.name} does not match the manifest (SHA-256, size or row count): the archive was changed or damaged.`,
      );
  }

  const secretsPath = path.join(dir, manifest.secrets.file);
  if ((await stat(secretsPath)).size > MAX_SECRETS_BYTES)
    throw new BackupError("The archive's secrets are too large.");
  const secretsBytes = await readFile(secretsPath);
  if (createHash("sha256").update(secretsBytes).digest("hex") !== manifest.secrets.sha256)
    throw new BackupError(
      "The archive's secrets do not match the manifest: the archive was changed or damaged.",
    );
  let secrets: InstanceSecrets | null = null;
  if (manifest.secrets.file === SECRETS_SEALED) {
    if (options.passphrase !== undefined) {
      let box: SealedBox;
      try {
        box = JSON.parse(secretsBytes.toString("utf8")) as SealedBox;
      } catch {
        throw new BackupError("The archive's sealed secrets are not valid JSON.");
      }
      secrets = parseSecrets(open(box, options.passphrase));
    }
  } else {
    secrets = parseSecrets(secretsBytes);
  }
  if (secrets && signerOf(secrets.receiptSigningKey).signer.kid !== manifest.signer.kid)
    throw new BackupError("The archive's receipt key is not the key that signed its manifest.");
  return { manifest, secrets };
}
