import type { Metadata } from "next";
import { loadUsersScreen, UsersScreen } from "@/features/admin/server";
import { requireAdmin } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Users" };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await requireAdmin("/admin/users");
  const params = await searchParams;
  const data = await loadUsersScreen(getDb(), params);
  return <UsersScreen viewerId={viewer.user.id} params={params} data={data} />;
}
