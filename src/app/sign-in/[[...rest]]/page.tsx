import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Sign in" };

export default function Page() {
  return (
    <ComingSoon
      title="Sign in"
      description="Accounts are not open yet. Sign-in with email and password arrives shortly; nothing is asked of you until then."
    />
  );
}
