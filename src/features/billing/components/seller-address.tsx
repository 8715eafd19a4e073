import type { ReceiptSeller } from "@/core/receipts/receipt";

/** The seller block of a financial document (receipt, invoice): name, address, contact, VAT id. */
export function SellerAddress({ seller, testId }: { seller: ReceiptSeller; testId: string }) {
  return (
    <address className="mt-2 text-sm not-italic" data-testid={testId}>
      <span className="block font-medium">{seller.name}</span>
      {seller.address.map((line) => (
        <span key={line} className="block text-muted-foreground break-words">
          {line}
        </span>
      ))}
      <span className="block text-muted-foreground break-all">{seller.contact}</span>
      {seller.vatId ? <span className="block text-muted-foreground">VAT id {seller.vatId}</span> : null}
    </address>
  );
}
