import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";
import { requireAdmin } from "@/server/authz";

export const metadata: Metadata = { title: "Users" };

export default async function Page() {
  await requireAdmin("/admin/users");
  return (
    <ComingSoon
      title="Users"
      description="User management for platform administrators arrives with accounts."
    />
  );
}
