// The home feature's public surface for pages and other features: what is safe in the
// browser and on the server.
export { toMiniResult } from "./mini-compute";
