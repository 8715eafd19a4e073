import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Your profile" };

export default function Page() {
  return (
    <ComingSoon
      title="Your profile"
      description="Profile, password, sessions and account deletion arrive with accounts."
    />
  );
}
