import "server-only";
import { publicOrigin } from "./env";

/**
 * The instance's public origin for absolute links in page metadata (Open Graph images): APP_URL, or
 * this server on localhost. Static pages take it at build time, so build with the APP_URL the
 * instance serves.
 */
export function siteOrigin(): URL {
  return new URL(publicOrigin());
}
