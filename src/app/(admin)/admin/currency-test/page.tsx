import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";
import { requireAdmin } from "@/server/authz";

export const metadata: Metadata = { title: "Currency test" };

export default async function Page() {
  await requireAdmin("/admin/currency-test");
  return (
    <ComingSoon
      title="Currency test"
      description="The live currency conformance suite, FX rate management and the formatting playground arrive with the money engine."
    />
  );
}
