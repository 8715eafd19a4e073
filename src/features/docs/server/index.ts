// The docs feature's server-only public surface (queries, services, server components).
export { loadDocs } from "../load-docs";
