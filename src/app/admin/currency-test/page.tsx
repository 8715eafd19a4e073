import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Currency test" };

export default function Page() {
  return (
    <ComingSoon
      title="Currency test"
      description="The live currency conformance suite, FX rate management and the formatting playground arrive with the money engine."
    />
  );
}
