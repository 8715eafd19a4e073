// The docs feature's public surface for pages and other features: what is safe in the
// browser and on the server. Server-only queries and services: ./server/index.ts.
export { DocsCopy } from "./docs-copy";
export { DocsSearch } from "./docs-search";
