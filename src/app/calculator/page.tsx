import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Calculator" };

export default function Page() {
  return (
    <ComingSoon
      title="Calculator"
      description="The exact decimal, currency and crypto calculator is being built. It will evaluate expressions to 20 significant digits by default, convert between every ISO 4217 currency, and run the crypto workbench entirely in your browser."
    />
  );
}
