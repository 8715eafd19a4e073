import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Welcome to Abacus" };

export default function Page() {
  return (
    <ComingSoon
      title="Welcome to Abacus"
      description="The first-run flow (profile, organization, preferences and plan) arrives with accounts."
    />
  );
}
