// The account feature's server-only public surface (queries, services, server components).
export { currentMeSummary, loadMeSummary } from "../queries";
export { activeSessions, describeDevice } from "../sessions";
