// The monitoring feature's public surface for pages and other features: what is safe in the
// browser and on the server. Server-only queries and services: ./server/index.ts.
export { Analytics } from "./analytics";
export { captureError, onNavigationStart, startMonitoring } from "./boot";
