import { z } from "zod";
import { AUDIT_ACTIONS } from "@/server/audit";
import { USER_SORTS, type UserQuery } from "./server/users";

/** The state of the users page (search, filters, sort, page) as it is kept in the URL. */
export type SearchParams = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const page = z.coerce.number().int().min(1).max(100_000).catch(1);

export const USERS_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 15;

export function parseUserQuery(params: SearchParams): UserQuery {
  const q = one(params.q)?.trim().slice(0, 200);
  const role = z.enum(["user", "admin"]).optional().catch(undefined).parse(one(params.role));
  const banned = z.enum(["yes", "no"]).optional().catch(undefined).parse(one(params.banned));
  const org = one(params.org)?.slice(0, 100);
  return {
    q: q || undefined,
    role,
    banned: banned === undefined ? undefined : banned === "yes",
    org: org || undefined,
    sort: z.enum(USER_SORTS).catch("created").parse(one(params.sort)),
    dir: z.enum(["asc", "desc"]).catch("desc").parse(one(params.dir)),
    page: page.parse(one(params.page)),
    pageSize: USERS_PAGE_SIZE,
  };
}

export function parseAuditQuery(params: SearchParams) {
  const q = one(params.aq)?.trim().slice(0, 200);
  return {
    action: z.enum(AUDIT_ACTIONS).optional().catch(undefined).parse(one(params.action)),
    q: q || undefined,
    page: page.parse(one(params.apage)),
    pageSize: AUDIT_PAGE_SIZE,
  };
}

/** The current URL's query with some keys changed (undefined removes a key). */
export function withParams(params: SearchParams, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    const value = one(v);
    if (value !== undefined && value !== "") next.set(k, value);
  }
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === "") next.delete(k);
    else next.set(k, v);
  }
  const text = next.toString();
  return text ? `?${text}` : "?";
}
