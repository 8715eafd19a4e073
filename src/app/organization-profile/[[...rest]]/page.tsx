import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Organization" };

export default function Page() {
  return (
    <ComingSoon
      title="Organization"
      description="Organization name, members, invitations and roles arrive with accounts."
    />
  );
}
