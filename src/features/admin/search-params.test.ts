import { describe, expect, it } from "vitest";
import { parseAuditQuery, parseUserQuery, USERS_PAGE_SIZE, withParams } from "./search-params";

describe("admin URL state", () => {
  it("reads search, filters, sort and page, falling back on anything unknown", () => {
    expect(
      parseUserQuery({
        q: "  ada ",
        role: "admin",
        banned: "yes",
        org: "o1",
        sort: "email",
        dir: "asc",
        page: "3",
      }),
    ).toEqual({
      q: "ada",
      role: "admin",
      banned: true,
      org: "o1",
      sort: "email",
      dir: "asc",
      page: 3,
      pageSize: USERS_PAGE_SIZE,
    });
    expect(
      parseUserQuery({ role: "root", banned: "maybe", sort: "password", dir: "up", page: "-1" }),
    ).toMatchObject({
      role: undefined,
      banned: undefined,
      sort: "created",
      dir: "desc",
      page: 1,
    });
    expect(parseUserQuery({ q: ["a", "b"], page: "1e9" })).toMatchObject({ q: "a", page: 1 });
    expect(parseAuditQuery({ action: "user.ban", aq: "x", apage: "2" })).toMatchObject({
      action: "user.ban",
      q: "x",
      page: 2,
    });
    expect(parseAuditQuery({ action: "drop table" }).action).toBeUndefined();
  });

  it("changes some keys of the query and keeps the rest", () => {
    expect(withParams({ q: "ada", page: "2", role: "" }, { page: undefined, sort: "name" })).toBe(
      "?q=ada&sort=name",
    );
    expect(withParams({}, {})).toBe("?");
  });
});
