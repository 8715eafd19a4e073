import "server-only";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { SearchForm } from "@/components/ui/search-form";
import { FormSelect } from "@/components/ui/select";
import { AUDIT_ACTIONS, listAuditLog } from "@/server/audit";
import type { Db } from "@/server/db/client";
import { AdminPage } from "../admin-nav";
import { Pager } from "../pager";
import { parseAuditQuery, parseUserQuery, type SearchParams, withParams } from "../search-params";
import { listOrganizationChoices, listUsers } from "../server/users";
import { AuditTable } from "./audit-table";
import { type SortLinks, UsersTable } from "./users-table";

/** What /admin/users shows, loaded by its page: the filtered users, the organizations, the audit log. */
export async function loadUsersScreen(db: Db, params: SearchParams) {
  const query = parseUserQuery(params);
  const audit = parseAuditQuery(params);
  const [users, orgs, log] = await Promise.all([
    listUsers(db, query),
    listOrganizationChoices(db),
    listAuditLog(db, audit),
  ]);
  return { query, audit, users, orgs, log };
}

/** /admin/users: the user list (search, filters, sort and page in the URL) and the audit log. */
export function UsersScreen({
  viewerId,
  params,
  data: { query, audit, users, orgs, log },
}: {
  viewerId: string;
  params: SearchParams;
  data: Awaited<ReturnType<typeof loadUsersScreen>>;
}) {
  const sortLink = (key: keyof SortLinks) => ({
    href: withParams(params, {
      sort: key,
      dir: query.sort === key && query.dir === "asc" ? "desc" : "asc",
      page: undefined,
    }),
    dir: query.sort === key ? query.dir : null,
  });
  const sort: SortLinks = {
    name: sortLink("name"),
    email: sortLink("email"),
    created: sortLink("created"),
    role: sortLink("role"),
  };
  const keep = (names: string[]) =>
    names.flatMap((n) => {
      const v = params[n];
      const value = Array.isArray(v) ? v[0] : v;
      return value ? [<input key={n} type="hidden" name={n} value={value} />] : [];
    });
  return (
    <AdminPage title="Users">
      <section aria-labelledby="users-heading" className="grid gap-4">
        <h2 id="users-heading" className="sr-only">
          All users
        </h2>
        <SearchForm
          aria-label="Search users"
          className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_1fr_auto] sm:items-end"
        >
          {keep(["sort", "dir", "action", "aq"])}
          <div className="grid gap-1.5">
            <Label htmlFor="q">Search name or email</Label>
            <Input id="q" name="q" type="search" defaultValue={query.q ?? ""} placeholder="ada@example.com" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="role">Role</Label>
            <FormSelect
              id="role"
              name="role"
              defaultValue={query.role ?? ""}
              options={[
                { value: "", label: "Any" },
                { value: "user", label: "User" },
                { value: "admin", label: "Admin" },
              ]}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="banned">Status</Label>
            <FormSelect
              id="banned"
              name="banned"
              defaultValue={query.banned === undefined ? "" : query.banned ? "yes" : "no"}
              options={[
                { value: "", label: "Any" },
                { value: "no", label: "Active" },
                { value: "yes", label: "Banned" },
              ]}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="org">Organization</Label>
            <FormSelect
              id="org"
              name="org"
              defaultValue={query.org ?? ""}
              options={[{ value: "", label: "Any" }, ...orgs.map((o) => ({ value: o.id, label: o.name }))]}
            />
          </div>
          <Button type="submit">Apply</Button>
        </SearchForm>
        <UsersTable rows={users.rows} sort={sort} selfId={viewerId} />
        <Pager
          label="Users pages"
          page={query.page}
          total={users.total}
          pageSize={query.pageSize}
          href={(p) => withParams(params, { page: String(p) })}
        />
      </section>

      <section aria-labelledby="audit-heading" className="grid gap-4">
        <div className="grid gap-1">
          <h2 id="audit-heading" className="text-xl font-semibold">
            Audit log
          </h2>
          <p className="text-sm text-muted-foreground">
            Every admin action: who, what, whom, when, before and after.
          </p>
        </div>
        <SearchForm
          aria-label="Filter the audit log"
          className="grid gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
        >
          {keep(["q", "role", "banned", "org", "sort", "dir", "page"])}
          <div className="grid gap-1.5">
            <Label htmlFor="action">Action</Label>
            <FormSelect
              id="action"
              name="action"
              defaultValue={audit.action ?? ""}
              options={[{ value: "", label: "Any" }, ...AUDIT_ACTIONS.map((a) => ({ value: a, label: a }))]}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="aq">Admin or target</Label>
            <Input id="aq" name="aq" type="search" defaultValue={audit.q ?? ""} />
          </div>
          <Button type="submit" variant="secondary">
            Filter
          </Button>
        </SearchForm>
        <AuditTable rows={log.rows} />
        <Pager
          label="Audit log pages"
          page={audit.page}
          total={log.total}
          pageSize={audit.pageSize}
          href={(p) => withParams(params, { apage: String(p) })}
        />
      </section>
    </AdminPage>
  );
}
