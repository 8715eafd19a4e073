// The auth feature's server-only public surface (queries, services, server components).
export { currentAttempt, linkTarget, mailHint } from "../confirmation";
