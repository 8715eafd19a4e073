/**
 * Recipes: a list of steps, each turning bytes into bytes, and what each one is on the command line.
 * Pure and dependency-free: the form (for the link and "copy as shell"), the worker (to run them) and
 * the tests share it.
 */

export const RECIPE_HASHES = ["SHA-1", "SHA-256", "SHA-384", "SHA-512", "MD5", "SHA3-256"] as const;
export type RecipeHash = (typeof RECIPE_HASHES)[number];
export const RECIPE_CIPHERS = ["AES-256-CBC", "AES-128-CBC", "AES-256-CTR"] as const;
export type RecipeCipher = (typeof RECIPE_CIPHERS)[number];

export type Step =
  | { op: "hash"; alg: RecipeHash }
  | { op: "hmac"; alg: RecipeHash; key: string }
  | { op: "toBase64" }
  | { op: "fromBase64" }
  | { op: "toHex" }
  | { op: "fromHex" }
  | { op: "encrypt"; cipher: RecipeCipher; password: string; iter: number; salt: string }
  | { op: "decrypt"; cipher: RecipeCipher; password: string; iter: number }
  | { op: "pbkdf2"; alg: RecipeHash; salt: string; iter: number; length: number };

export type StepOp = Step["op"];

export const STEP_LABELS: Record<StepOp, string> = {
  hash: "Hash",
  hmac: "HMAC (hex key)",
  toBase64: "To Base64",
  fromBase64: "From Base64",
  toHex: "To hex",
  fromHex: "From hex",
  encrypt: "Encrypt (openssl enc -pbkdf2)",
  decrypt: "Decrypt (openssl enc -d -pbkdf2)",
  pbkdf2: "PBKDF2 (the input is the password)",
};

/** A recipe is short: this many steps at the most. */
export const RECIPE_MAX_STEPS = 20;
/** Iterations above this would make a recipe a denial of service on the page. */
export const RECIPE_MAX_ITER = 1_000_000;

export function defaultStep(op: StepOp): Step {
  switch (op) {
    case "hash":
      return { op, alg: "SHA-256" };
    case "hmac":
      return { op, alg: "SHA-256", key: "" };
    case "encrypt":
      return { op, cipher: "AES-256-CBC", password: "", iter: 10_000, salt: "" };
    case "decrypt":
      return { op, cipher: "AES-256-CBC", password: "", iter: 10_000 };
    case "pbkdf2":
      return { op, alg: "SHA-256", salt: "", iter: 10_000, length: 32 };
    default:
      return { op };
  }
}

const OPENSSL_MD: Record<RecipeHash, string> = {
  "SHA-1": "sha1",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
  MD5: "md5",
  "SHA3-256": "sha3-256",
};

/** A word for the shell, in single quotes when it needs them. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const HEX_OUT = "basenc --base16 -w0 | tr A-F a-f";

/** The command that does what `step` does, reading stdin and writing stdout (bytes). */
export function stepCommand(step: Step): string {
  switch (step.op) {
    case "hash":
      return `openssl dgst -${OPENSSL_MD[step.alg]} -binary`;
    case "hmac":
      return `openssl dgst -${OPENSSL_MD[step.alg]} -mac HMAC -macopt hexkey:${shellQuote(step.key || "00")} -binary`;
    case "toBase64":
      return "basenc --base64 -w0";
    case "fromBase64":
      return "basenc --base64 -d -i";
    case "toHex":
      return HEX_OUT;
    case "fromHex":
      return "tr -d ' \\n' | tr a-f A-F | basenc --base16 -d";
    case "encrypt": {
      // With a fixed salt (-S) OpenSSL 3 leaves out the Salted__ header that -d looks for: it is printed first.
      const salt = (step.salt.match(/[0-9a-fA-F]{2}/g) ?? []).map((b) => `\\x${b}`).join("");
      return `{ printf 'Salted__${salt}'; openssl enc -${step.cipher.toLowerCase()} -pbkdf2 -iter ${step.iter} -md sha256 -S ${shellQuote(step.salt)} -pass pass:${shellQuote(step.password)}; }`;
    }
    case "decrypt":
      return `openssl enc -d -${step.cipher.toLowerCase()} -pbkdf2 -iter ${step.iter} -md sha256 -pass pass:${shellQuote(step.password)}`;
    case "pbkdf2":
      // openssl kdf takes the password as an argument: the input is passed to it in hex.
      return `${HEX_OUT} | xargs -I{} openssl kdf -binary -keylen ${step.length} -kdfopt digest:${OPENSSL_MD[step.alg].toUpperCase()} -kdfopt hexpass:{} -kdfopt hexsalt:${shellQuote(step.salt || "00")} -kdfopt iter:${step.iter} PBKDF2`;
  }
}

/** The whole recipe as one shell pipeline; the input is printed with printf (as bytes, in hex escapes). */
export function recipeShell(steps: readonly Step[], input?: Uint8Array): string {
  const head = input
    ? `printf '${Array.from(input, (b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}'`
    : "cat input.bin";
  return [head, ...steps.map(stepCommand)].join(" \\\n  | ");
}

// ---- the link: #recipe=<base64url JSON> (a fragment never reaches the server) ----

export interface SharedRecipe {
  steps: Step[];
  input?: { kind: "utf8" | "hex" | "base64"; text: string };
}

const toB64Url = (s: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(s)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromB64Url = (s: string) =>
  new TextDecoder().decode(
    Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
  );

export function recipeFragment(r: SharedRecipe): string {
  return `recipe=${toB64Url(JSON.stringify(r))}`;
}

/** The recipe in a fragment, or null when there is none or it is not one (never throws). */
export function recipeFromFragment(hash: string): SharedRecipe | null {
  const value = new URLSearchParams(hash.replace(/^#/, "")).get("recipe");
  if (!value || value.length > 64 * 1024) return null;
  try {
    const r = JSON.parse(fromB64Url(value)) as SharedRecipe;
    if (!Array.isArray(r.steps) || r.steps.length > RECIPE_MAX_STEPS) return null;
    if (
      !r.steps.every((s) => s && typeof s === "object" && typeof s.op === "string" && s.op in STEP_LABELS)
    ) {
      return null;
    }
    return r;
  } catch {
    return null;
  }
}

/** Typed input as bytes, for the shell line (the worker decodes it again, with field errors). */
export function inputBytes(kind: "utf8" | "hex" | "base64", text: string): Uint8Array | null {
  try {
    if (kind === "utf8") return new TextEncoder().encode(text);
    if (kind === "hex") {
      const clean = text.replace(/\s+/g, "");
      if (!/^([0-9a-fA-F]{2})*$/.test(clean)) return null;
      return Uint8Array.from(clean.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
    }
    return Uint8Array.from(atob(text.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
