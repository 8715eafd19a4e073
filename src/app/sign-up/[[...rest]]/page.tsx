import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Create your account" };

export default function Page() {
  return (
    <ComingSoon
      title="Create your account"
      description="Accounts are not open yet. Sign-up with email and password arrives shortly."
    />
  );
}
