import type { Metadata } from "next";
import { UsersScreen } from "@/features/admin/server";
import { requireAdmin } from "@/server/authz";

export const metadata: Metadata = { title: "Users" };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await requireAdmin("/admin/users");
  return <UsersScreen viewerId={viewer.user.id} params={await searchParams} />;
}
