import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";
import { requireAdmin } from "@/server/authz";

export const metadata: Metadata = { title: "Administration" };

export default async function Page() {
  await requireAdmin("/admin");
  return (
    <ComingSoon
      title="Administration"
      description="Instance statistics, error reports, the contact inbox and traffic will be shown here to platform administrators."
    />
  );
}
