"use client";

import {
  VIEWER_HINT_ATTRIBUTE,
  VIEWER_HINT_COOKIE,
  VIEWER_INITIALS_VAR,
  VIEWER_ORG_VAR,
} from "./viewer-hint";

/** Initials shown in the account button: first and last word of the name. */
export function initials(name: string) {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "?";
}

/** Remembers (or forgets) what the header shows, for the next static page's first paint. */
export function rememberViewer(hint: { organization: string; initials: string } | null) {
  const root = document.documentElement;
  if (!hint) {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve
    document.cookie = `${VIEWER_HINT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
    root.removeAttribute(VIEWER_HINT_ATTRIBUTE);
    return;
  }
  const value = encodeURIComponent(JSON.stringify({ o: hint.organization, i: hint.initials }));
  const secure = location.protocol === "https:" ? "; Secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: as above; the value is URI-encoded JSON
  document.cookie = `${VIEWER_HINT_COOKIE}=${value}; Path=/; Max-Age=2592000; SameSite=Lax${secure}`;
  root.setAttribute(VIEWER_HINT_ATTRIBUTE, "in");
  root.style.setProperty(VIEWER_ORG_VAR, JSON.stringify(hint.organization));
  root.style.setProperty(VIEWER_INITIALS_VAR, JSON.stringify(hint.initials));
}
