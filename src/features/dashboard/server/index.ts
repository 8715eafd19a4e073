// The dashboard feature's server-only public surface (queries, services, server components).
export { dashboardUsage, memberSummary } from "../queries";
