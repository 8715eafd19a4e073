// The admin feature's public surface for pages and other features: what is safe in the
// browser and on the server. Server-only queries and services: ./server/index.ts.
export { stopImpersonatingAction } from "./stop-impersonating";
