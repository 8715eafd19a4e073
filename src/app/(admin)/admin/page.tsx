import type { Metadata } from "next";
import { OverviewScreen } from "@/features/admin/server";
import { requireAdmin } from "@/server/authz";

export const metadata: Metadata = { title: "Administration" };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireAdmin("/admin");
  return <OverviewScreen params={await searchParams} />;
}
