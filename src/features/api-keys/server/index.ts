// The API-keys feature's server-only public surface: the keyed API's gate, the key list, and
// how a key secret is made (for tests and seeds that need a real key).
export { guardApi, INVALID_KEY_LIMIT } from "./gate";
export { newApiKeySecret } from "./keys";
export { type ApiKeyRow, listApiKeys } from "./service";
