import "server-only";
import { getDb } from "../db/client";
import { getEnv } from "../env";
import { getMailer } from "../mail";
import { getSecrets } from "../secrets";
import { type Auth, createAuth } from "./auth";

/** The instance's public origin: APP_URL, or this server on localhost. */
export function appOrigin(): string {
  const env = getEnv();
  return env.APP_URL ? new URL(env.APP_URL).origin : `http://localhost:${env.PORT}`;
}

function isLoopbackHttp(origin: string) {
  const url = new URL(origin);
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

const holder = globalThis as typeof globalThis & { __abacusAuth?: Auth };

export function getAuth(): Auth {
  if (holder.__abacusAuth) return holder.__abacusAuth;
  const env = getEnv();
  const origin = appOrigin();
  const local = new URL(origin);
  const trustedOrigins = [origin];
  if (isLoopbackHttp(origin)) {
    // The same local server reached as localhost or 127.0.0.1.
    for (const host of ["localhost", "127.0.0.1"])
      trustedOrigins.push(`http://${host}:${local.port || "80"}`);
  }
  holder.__abacusAuth = createAuth(getDb(), {
    baseURL: origin,
    trustedOrigins: [...new Set(trustedOrigins)],
    secret: getSecrets().authSecret,
    // Secure cookies everywhere but plain-http loopback (Safari drops Secure cookies there).
    secureCookies: env.NODE_ENV === "production" && !isLoopbackHttp(origin),
    signInLimit: env.AUTH_SIGN_IN_LIMIT,
    signUpLimit: env.AUTH_SIGN_UP_LIMIT,
    organizationsPerUser: env.ORGANIZATIONS_PER_USER,
    hashQueuePerClient: env.AUTH_HASH_QUEUE_PER_CLIENT,
    mailLimits: { perRecipient: env.MAIL_PER_RECIPIENT_LIMIT, perClient: env.MAIL_PER_CLIENT_LIMIT },
    mailer: getMailer(),
  });
  return holder.__abacusAuth;
}
