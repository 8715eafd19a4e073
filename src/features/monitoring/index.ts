// The monitoring feature's public surface for pages and other features: what is safe in the
// browser and on the server.
export { captureError, onNavigationStart, startMonitoring } from "./boot";
