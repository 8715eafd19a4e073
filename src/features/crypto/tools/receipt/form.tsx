import { BadgeCheck, ShieldAlert } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FileInput } from "@/components/ui/file-input";
import { Input, Textarea } from "@/components/ui/input";
import { planLabel } from "@/core/billing/plan-names";
import { base64ToBytes, bytesToBase64, bytesToUtf8 } from "@/core/crypto/encoding";
import { type ReceiptKey, type VerifyOutcome, verifyReceipt } from "@/core/receipts/receipt";
import { ToolHeading } from "../../ui/layout";

type Jwk = { kid: string; x: string; status?: string };

async function loadKeys(): Promise<ReceiptKey[]> {
  // Fetching the instance's public keys sends nothing you typed.
  const response = await fetch("/api/v1/receipt-keys", { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`The receipt keys could not be loaded (HTTP ${response.status}).`);
  const body = (await response.json()) as { keys?: Jwk[] };
  return (body.keys ?? []).map((k) => ({
    kid: k.kid,
    publicKey: base64ToBytes(k.x),
    retiredAt: k.status === "retired" ? "retired" : null,
  }));
}

/** Reads `#receipt=<base64url>&signature=<base64url>` (the receipt page's link); the fragment never leaves the browser. */
function fromFragment(): { receipt: string; signature: string } | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const r = params.get("receipt");
  const s = params.get("signature");
  if (!r || !s) return null;
  try {
    return { receipt: bytesToUtf8(base64ToBytes(r)), signature: bytesToBase64(base64ToBytes(s)) };
  } catch {
    return null;
  }
}

/**
 * Verifies an Abacus receipt in the browser: its Ed25519 signature is checked over the exact text given
 * (as OpenSSL checks receipt.json) against the keys this instance publishes at /api/v1/receipt-keys.
 */
export default function ReceiptTool() {
  const [receipt, setReceipt] = useState("");
  const [signature, setSignature] = useState("");
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);
  const [pending, setPending] = useState(false);
  const [fileNames, setFileNames] = useState<{ receipt?: string; signature?: string }>({});

  useEffect(() => {
    const prefill = fromFragment();
    if (prefill) {
      setReceipt(prefill.receipt);
      setSignature(prefill.signature);
    }
  }, []);

  async function readFile(file: File | undefined, kind: "receipt" | "signature") {
    if (!file) return;
    if (file.size > 64 * 1024) return notify.error("That file is too large to be a receipt or signature.");
    setFileNames((n) => ({ ...n, [kind]: file.name }));
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (kind === "receipt") setReceipt(bytesToUtf8(bytes, false));
    else setSignature(bytes.length === 64 ? bytesToBase64(bytes) : bytesToUtf8(bytes, false).trim());
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    try {
      const result = verifyReceipt(receipt, signature, await loadKeys());
      setOutcome(result);
      if (result.valid) notify.success("The receipt is genuine.");
      else notify.error(result.message);
    } catch (error) {
      notify.error(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <section aria-labelledby="tool-receipt">
      <ToolHeading id="tool-receipt" title="Verify receipt">
        Check that an Abacus receipt was signed by this instance, against its published receipt keys. The
        receipt stays in your browser.
      </ToolHeading>
      <form className="grid gap-2" onSubmit={verify} noValidate>
        <Field
          id="receipt-json"
          label="Receipt (receipt.json)"
          hint="Paste the JSON, or choose the downloaded file below."
        >
          {(props) => (
            <Textarea
              {...props}
              value={receipt}
              onChange={(e) => setReceipt(e.target.value)}
              className="font-mono text-xs"
              spellCheck={false}
            />
          )}
        </Field>
        <Field id="receipt-signature" label="Signature (base64, or choose receipt.sig)">
          {(props) => (
            <Input
              {...props}
              value={signature}
              onChange={(e) => setSignature(e.target.value)}
              className="font-mono text-xs"
              spellCheck={false}
            />
          )}
        </Field>
        <div className="grid gap-x-4 sm:grid-cols-2">
          <Field id="receipt-json-file" label="receipt.json file">
            {(props) => (
              <FileInput
                {...props}
                accept=".json,application/json"
                fileName={fileNames.receipt}
                onFiles={(f) => readFile(f[0], "receipt")}
              />
            )}
          </Field>
          <Field id="receipt-sig-file" label="receipt.sig file">
            {(props) => (
              <FileInput
                {...props}
                fileName={fileNames.signature}
                onFiles={(f) => readFile(f[0], "signature")}
              />
            )}
          </Field>
        </div>
        <div className="mt-2">
          <Button type="submit" disabled={pending || !receipt || !signature}>
            Verify receipt
          </Button>
        </div>
      </form>
      <div className="mt-4 min-h-16" aria-live="polite">
        {outcome?.valid ? (
          <div
            className="flex items-start gap-3 rounded-lg border border-success/50 p-4 text-sm"
            data-testid="receipt-valid"
          >
            <BadgeCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
            <div>
              <p className="font-medium">
                Valid: receipt {outcome.receipt.receiptNumber} was signed by this instance.
              </p>
              <p className="text-muted-foreground">
                {outcome.receipt.organization.name} paid {outcome.receipt.total} {outcome.receipt.currency}{" "}
                for {planLabel(outcome.receipt.plan, outcome.receipt.interval)}. Key{" "}
                <span className="font-mono break-all">{outcome.kid}</span>.
              </p>
            </div>
          </div>
        ) : outcome ? (
          <div
            className="flex items-start gap-3 rounded-lg border border-destructive/50 p-4 text-sm"
            data-testid="receipt-invalid"
          >
            <ShieldAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
            <p>
              <span className="font-medium">Not valid.</span> {outcome.message}
            </p>
          </div>
        ) : null}
      </div>
    </section>
  );
}
