// The onboarding feature's server-only public surface (queries, services, server components).
export { invitationIdIn, previewInvitation } from "../invitation-preview";
export { organizationPreferences, pendingInvitationsFor } from "../service";
