import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Checkout" };

export default function Page() {
  return (
    <ComingSoon
      title="Checkout"
      description="Checkout opens with accounts and billing. Until then no plan can be bought and no card is taken."
    />
  );
}
