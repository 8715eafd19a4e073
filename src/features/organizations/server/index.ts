// The organizations feature's server-only public surface (queries and services).
export { type OrgPreferences, organizationPreferences, savePreferences } from "./preferences";
export { organizationMembers, pendingInvitations } from "./queries";
