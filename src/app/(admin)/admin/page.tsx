import type { Metadata } from "next";
import { loadOverview, OverviewScreen } from "@/features/admin/server";
import { requireAdmin } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Administration" };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireAdmin("/admin");
  const params = await searchParams;
  const data = await loadOverview(getDb(), params);
  return <OverviewScreen params={params} data={data} />;
}
