// The organizations feature's public surface: what other features may use.
export { NameSlugFields } from "./name-slug-fields";
