"use client";

import { useRouter } from "next/navigation";
import { refreshViewer } from "@/components/shell/viewer-store";
import { MEMBER_ROLE_LABELS, type MemberRole } from "@/core/auth/roles";

export type Role = MemberRole;
export const roleLabels = MEMBER_ROLE_LABELS;

/** Reloads the viewer (header, switcher) and the page's server data after a change. */
export function useRefresh() {
  const router = useRouter();
  return () => {
    void refreshViewer();
    router.refresh();
  };
}

/** "a member", "an admin", "an owner". */
export function withArticle(role: Role) {
  const label = roleLabels[role].toLowerCase();
  return `${/^[aeiou]/.test(label) ? "an" : "a"} ${label}`;
}

export const ROLE_CHANGE_EFFECT: Record<Role, string> = {
  owner: "Owners can do everything, including deleting the organization.",
  admin: "Admins manage members, invitations, billing and settings.",
  member: "Members use the organization's tools but manage nothing.",
};
