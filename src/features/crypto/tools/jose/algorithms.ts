/** The algorithms the JOSE tool offers: read by the form (its choices) and the operation (its checks). */
export const JWS_ALGORITHMS = [
  "HS256",
  "HS384",
  "HS512",
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;
export type JwsAlgorithm = (typeof JWS_ALGORITHMS)[number];

export const JWE_ALGORITHMS = [
  "RSA-OAEP-256",
  "RSA-OAEP",
  "ECDH-ES",
  "ECDH-ES+A128KW",
  "ECDH-ES+A256KW",
  "A128KW",
  "A256KW",
  "dir",
] as const;
export type JweAlgorithm = (typeof JWE_ALGORITHMS)[number];

export const JWE_ENCRYPTIONS = ["A256GCM", "A128GCM", "A128CBC-HS256", "A256CBC-HS512"] as const;
export type JweEncryption = (typeof JWE_ENCRYPTIONS)[number];
