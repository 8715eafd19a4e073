/**
 * The one list of roles. The database columns, the guards, the forms and the pages derive from
 * these: adding a role is a one-line change here.
 */

/** A user's role inside an organization, most powerful first. */
export const MEMBER_ROLES = ["owner", "admin", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_ROLE_LABELS: Record<MemberRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
};

/** Roles that may manage an organization (settings, members, invitations). */
export const MANAGER_ROLES: readonly MemberRole[] = MEMBER_ROLES.filter((role) => role !== "member");

/** A user's role on the whole instance. */
export const PLATFORM_ROLES = ["user", "admin"] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

export function isMemberRole(value: unknown): value is MemberRole {
  return (MEMBER_ROLES as readonly unknown[]).includes(value);
}

/** A stored member role, read defensively: anything unknown is the least powerful role. */
export function memberRoleOf(value: unknown): MemberRole {
  return isMemberRole(value) ? value : "member";
}

/** A stored platform role, read defensively: only an exact "admin" is an administrator. */
export function platformRoleOf(value: unknown): PlatformRole {
  return value === "admin" ? "admin" : "user";
}

/** Roles a member of role `viewer` may give to others: only an owner makes owners. */
export function assignableRoles(viewer: MemberRole): MemberRole[] {
  if (viewer === "member") return [];
  return MEMBER_ROLES.filter((role) => viewer === "owner" || role !== "owner");
}
