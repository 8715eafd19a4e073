import "server-only";
import { createHmac } from "node:crypto";
import { headers } from "next/headers";
import { CLIENT_ADDRESS_HEADER, pinnedClientAddress } from "@/core/http/edge-contract";
import { getSecrets } from "./secrets";

/**
 * The client's address as the server in src/edge determined it (from the socket, or from the trusted part of
 * X-Forwarded-For when TRUST_PROXY is set). That server overwrites any X-Forwarded-For the client
 * sent, so the value here cannot be chosen by the client.
 */
export async function clientAddress(): Promise<string> {
  return pinnedClientAddress((await headers()).get(CLIENT_ADDRESS_HEADER));
}

/** A keyed hash of the client's address, so rate limits never store the address itself. */
export function hashClient(address: string): string {
  return createHmac("sha256", getSecrets().authSecret)
    .update(`client:${address}`)
    .digest("base64url")
    .slice(0, 32);
}

export async function clientSubject(): Promise<string> {
  return hashClient(await clientAddress());
}
