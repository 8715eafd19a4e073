/**
 * The crypto worker's operation table: every tool's operations (tools/<tool>/op.ts), keyed by the
 * tool ids of the registry (tools/registry.ts checks that both list the same tools). They take the form's values as typed (text plus its encoding, or a File),
 * call `@/core/crypto`, and return strings ready to show; an input error is a `FieldError` naming
 * the form field it concerns.
 *
 * Only the worker loads this module (and so the crypto libraries): the UI imports its types.
 */
import { ops as agree } from "./tools/agree/op";
import { ops as certs } from "./tools/certificates/op";
import { ops as convert } from "./tools/convert/op";
import { ops as encrypt } from "./tools/encrypt/op";
import { ops as hash } from "./tools/hash/op";
import { ops as hkdf } from "./tools/hkdf/op";
import { ops as hmac } from "./tools/hmac/op";
import { ops as inspect } from "./tools/inspect/op";
import type { ops as joseOps } from "./tools/jose/op";
import { ops as keys } from "./tools/keygen/op";
import type { ops as otpOps } from "./tools/otp/op";
import { ops as pbkdf2 } from "./tools/pbkdf2/op";
import type { ops as pkcs12Ops } from "./tools/pkcs12/op";
import { ops as random } from "./tools/random/op";
import { ops as recipe } from "./tools/recipe/op";
import { ops as rsa } from "./tools/rsa/op";
import { ops as sign } from "./tools/sign/op";
import type { ops as sshOps } from "./tools/ssh/op";

// biome-ignore lint/suspicious/noExplicitAny: an operation's argument type is its own
type Operation = (args: any, ctx?: any) => unknown;

/**
 * A tool whose operations bring a library of their own (jose, otpauth, bcrypt-pbkdf, the PKCS#12
 * code) is loaded on its first operation, as a chunk of its own, so the worker everyone starts stays
 * the size it was. `names` lists its operations; its type makes the list exactly the module's.
 */
function lazy<T extends Record<string, Operation>>(load: () => Promise<T>, names: Record<keyof T, true>): T {
  let loading: Promise<T> | undefined;
  const table: Record<string, Operation> = {};
  for (const name of Object.keys(names)) {
    table[name] = async (args, ctx) => {
      // A chunk that failed to load (offline for a moment) is asked for again next time.
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      const op = (await loading)[name] as Operation;
      return op(args, ctx);
    };
  }
  return table as T;
}

const jose = lazy<typeof joseOps>(() => import("./tools/jose/op").then((m) => m.ops), {
  joseDecode: true,
  joseVerify: true,
  joseSign: true,
  joseEncrypt: true,
  joseDecrypt: true,
});
const otp = lazy<typeof otpOps>(() => import("./tools/otp/op").then((m) => m.ops), { otp: true });
const ssh = lazy<typeof sshOps>(() => import("./tools/ssh/op").then((m) => m.ops), { sshKey: true });
const pkcs12 = lazy<typeof pkcs12Ops>(() => import("./tools/pkcs12/op").then((m) => m.ops), {
  pkcs12Open: true,
  pkcs12Create: true,
});

/** Each tool's operations; the receipt tool verifies on the page and needs none. */
export const opsByTool = {
  hash,
  hmac,
  pbkdf2,
  hkdf,
  random,
  keys,
  convert,
  encrypt,
  rsa,
  sign,
  agree,
  certs,
  inspect,
  jose,
  otp,
  ssh,
  pkcs12,
  recipe,
  receipt: {},
} satisfies Record<string, Record<string, Operation>>;

export type ToolWithOps = keyof typeof opsByTool;

type Merged<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

export type Ops = Merged<(typeof opsByTool)[ToolWithOps]>;
export const ops = Object.assign({}, ...Object.values(opsByTool)) as Ops;

export type OpName = keyof Ops;
export type OpArgs<K extends OpName> = Parameters<Ops[K]>[0];
export type OpResult<K extends OpName> = Awaited<ReturnType<Ops[K]>>;
