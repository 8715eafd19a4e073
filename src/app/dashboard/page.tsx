import type { Metadata } from "next";
import { ComingSoon } from "@/components/shell/coming-soon";

export const metadata: Metadata = { title: "Dashboard" };

export default function Page() {
  return (
    <ComingSoon
      title="Dashboard"
      description="Your organization's usage, calculation history, billing, receipts and API keys will live here once accounts are available."
    />
  );
}
