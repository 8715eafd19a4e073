import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Administration" };

export default function Page() {
  return (
    <ComingSoon
      title="Administration"
      description="Instance statistics, error reports, the contact inbox and traffic will be shown here to platform administrators."
    />
  );
}
