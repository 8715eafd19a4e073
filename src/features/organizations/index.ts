// The organizations feature's public surface for pages and other features (client components and
// their types). Server-only queries and services: ./server/index.ts.
export { CreateOrganizationForm } from "./create-organization-form";
export { DeleteOrganizationForm } from "./delete-organization-form";
export { InviteForm } from "./invite-form";
export { LeaveOrganization } from "./leave-organization";
export { type MemberRow, MembersTable } from "./members-table";
export { NameSlugFields } from "./name-slug-fields";
export { OrganizationDetailsForm } from "./organization-details-form";
export { PendingInvitations } from "./pending-invitations";
export { PreferencesForm } from "./preferences-form";
