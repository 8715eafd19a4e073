import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";
import { MANAGER_ROLES, requireOrgRole, requireVerifiedEmail } from "@/server/authz";

export const metadata: Metadata = { title: "Checkout" };

export default async function Page() {
  // Buying needs a confirmed email address.
  await requireVerifiedEmail("/checkout");
  await requireOrgRole("/checkout", MANAGER_ROLES);
  return (
    <ComingSoon
      title="Checkout"
      description="Checkout arrives with billing. Until then no plan can be bought and no card is taken; every organization is on the Free plan."
    />
  );
}
