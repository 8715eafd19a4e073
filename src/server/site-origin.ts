import "server-only";
import { getEnv } from "./env";

/**
 * The instance's public origin for absolute links in page metadata (Open Graph images, canonical
 * URLs): APP_URL, or this server on localhost. Static pages take it at build time, so build with the
 * same APP_URL the instance serves.
 */
export function siteOrigin(): URL {
  const env = getEnv();
  return new URL(env.APP_URL ? new URL(env.APP_URL).origin : `http://localhost:${env.PORT}`);
}
