// The onboarding feature's public surface for pages and other features: what is safe in the
// browser and on the server. Server-only queries and services: ./server/index.ts.
export { AcceptInvitation } from "./accept-invitation";
export { InvalidInvitation, InvitationBanner } from "./invitation-notice";
export { OnboardingFlow } from "./onboarding-flow";
