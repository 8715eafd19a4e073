import type { Metadata } from "next";
import { routeLabel } from "@/core/routes";
import { CurrencyScreen, loadCurrencyScreen } from "@/features/admin/server";
import { requireAdmin } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: routeLabel("/admin/currency-test") };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireAdmin("/admin/currency-test");
  return <CurrencyScreen data={await loadCurrencyScreen(getDb(), await searchParams)} />;
}
