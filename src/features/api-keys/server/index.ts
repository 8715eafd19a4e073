// The API-keys feature's server-only public surface: the keyed API's gate and the key list.
export { guardApi, INVALID_KEY_LIMIT } from "./gate";
export { type ApiKeyRow, listApiKeys } from "./service";
export { newApiKeySecret } from "./keys";
