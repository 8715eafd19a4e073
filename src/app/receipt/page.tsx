import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { loadReceipt, ReceiptView, sellerDetails } from "@/features/billing";
import { ALL_MEMBER_ROLES, requireOrgRole } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = {
  title: "Receipt",
  description:
    "A receipt signed by Abacus with Ed25519: check its signature in the browser or offline with OpenSSL.",
};

export default async function Page({ searchParams }: { searchParams: Promise<{ number?: string }> }) {
  const { number = "" } = await searchParams;
  const viewer = await requireOrgRole(`/receipt?number=${encodeURIComponent(number)}`, ALL_MEMBER_ROLES);
  const receipt = await loadReceipt(getDb(), viewer.org.id, number);
  if (!receipt) notFound();
  return <ReceiptView receipt={receipt} currentSeller={sellerDetails()} />;
}
