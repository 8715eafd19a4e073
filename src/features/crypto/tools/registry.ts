/**
 * Every tool of the crypto workbench, in menu order: the one place a tool is declared. The workbench
 * reads it for its menu and loads each form from here, as a chunk of its own fetched when the tool is
 * first opened. The worker's operation table (ops.ts) is checked against these ids, so a tool declared
 * here without its operations, or operations without a tool here, does not compile.
 */
import {
  ArrowLeftRight,
  Braces,
  FileBadge,
  FileKey,
  FileSearch,
  Fingerprint,
  Hash,
  KeyRound,
  KeySquare,
  ListOrdered,
  Lock,
  LockKeyhole,
  type LucideIcon,
  Package,
  ReceiptText,
  Shuffle,
  Signature,
  Split,
  Terminal,
  TimerReset,
} from "lucide-react";
import type { ComponentType } from "react";
import type { ToolWithOps } from "../ops";

export interface ToolEntry {
  id: ToolWithOps;
  label: string;
  icon: LucideIcon;
  /** The form, loaded on first open; its operations run in the worker (tools/<id>/op.ts). */
  form: () => Promise<{ default: ComponentType }>;
}

export const TOOLS = [
  { id: "hash", label: "Hash", icon: Hash, form: () => import("./hash/form") },
  { id: "hmac", label: "HMAC", icon: Fingerprint, form: () => import("./hmac/form") },
  { id: "pbkdf2", label: "PBKDF2", icon: KeySquare, form: () => import("./pbkdf2/form") },
  { id: "hkdf", label: "HKDF", icon: Split, form: () => import("./hkdf/form") },
  { id: "random", label: "Random bytes", icon: Shuffle, form: () => import("./random/form") },
  { id: "keys", label: "Key generation", icon: KeyRound, form: () => import("./keygen/form") },
  { id: "convert", label: "Key conversion", icon: FileKey, form: () => import("./convert/form") },
  { id: "encrypt", label: "Symmetric encryption", icon: LockKeyhole, form: () => import("./encrypt/form") },
  { id: "rsa", label: "RSA encryption", icon: Lock, form: () => import("./rsa/form") },
  { id: "sign", label: "Sign and verify", icon: Signature, form: () => import("./sign/form") },
  { id: "agree", label: "Key agreement", icon: ArrowLeftRight, form: () => import("./agree/form") },
  { id: "certs", label: "Certificates", icon: FileBadge, form: () => import("./certificates/form") },
  { id: "inspect", label: "PEM/ASN.1 inspector", icon: FileSearch, form: () => import("./inspect/form") },
  { id: "jose", label: "JWT and JOSE", icon: Braces, form: () => import("./jose/form") },
  { id: "ssh", label: "OpenSSH keys", icon: Terminal, form: () => import("./ssh/form") },
  { id: "pkcs12", label: "PKCS#12 / PFX", icon: Package, form: () => import("./pkcs12/form") },
  { id: "otp", label: "One-time passwords", icon: TimerReset, form: () => import("./otp/form") },
  { id: "recipe", label: "Recipes", icon: ListOrdered, form: () => import("./recipe/form") },
  { id: "receipt", label: "Verify receipt", icon: ReceiptText, form: () => import("./receipt/form") },
] as const satisfies readonly ToolEntry[];

export type ToolId = (typeof TOOLS)[number]["id"];

// Fails to compile when ops.ts has operations for a tool this list lacks.
const _everyToolListed: readonly ToolId[] = [] as ToolWithOps[];
void _everyToolListed;
