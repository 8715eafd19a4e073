import { ReceiptText } from "lucide-react";
import { ToolHeading } from "../ui";

/** Receipts arrive with checkout (another issue); until then this says so rather than pretend. */
export function ReceiptTool() {
  return (
    <section aria-labelledby="tool-receipt">
      <ToolHeading id="tool-receipt" title="Verify receipt">
        Check that an Abacus receipt was signed by this instance, against its published receipt keys.
      </ToolHeading>
      <div className="flex items-start gap-3 rounded-lg border border-dashed border-border p-6 text-sm">
        <ReceiptText className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
        <div className="grid gap-2">
          <p className="font-medium">This arrives with checkout.</p>
          <p className="text-muted-foreground">
            Abacus does not issue receipts yet, so there is nothing to verify. When paid plans open, every
            receipt will carry a signature you can check here, or with OpenSSL as the docs will describe.
            Meanwhile, the Sign and verify tool checks any Ed25519, ECDSA or RSA signature.
          </p>
        </div>
      </div>
    </section>
  );
}
