import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";
import { ALL_MEMBER_ROLES, requireOrgRole } from "@/server/authz";

export const metadata: Metadata = { title: "Dashboard" };

export default async function Page() {
  await requireOrgRole("/dashboard", ALL_MEMBER_ROLES);
  return (
    <ComingSoon
      title="Dashboard"
      description="Your organization's usage, calculation history, billing, receipts and API keys will live here once accounts are available."
    />
  );
}
