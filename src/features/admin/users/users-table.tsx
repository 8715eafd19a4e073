"use client";

import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { type DataColumn, DataTable } from "@/components/ui/data-table";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { EmailText } from "@/components/ui/email-text";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { SubmitButton } from "@/components/ui/submit-button";
import { PLATFORM_ROLES, type PlatformRole, platformRoleOf } from "@/core/auth/roles";
import { plural } from "@/core/plural";
import type { Result } from "@/core/result";
import {
  banUserAction,
  deleteUserAction,
  impersonateAction,
  revokeSessionsAction,
  setRoleAction,
  unbanUserAction,
} from "../actions";

export type UserRow = {
  id: string;
  name: string;
  email: string;
  role: string;
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
  createdAt: string;
  organizations: string[];
  sessions: number;
};

export type SortLinks = Record<
  "name" | "email" | "created" | "role",
  { href: string; dir: "asc" | "desc" | null }
>;

type Outcome = Result<unknown>;

function useRun() {
  const router = useRouter();
  const [pending, start] = useTransition();
  const run = (call: () => Promise<Outcome>, after?: (r: Outcome) => void) =>
    start(async () => {
      const r = await callAction(call);
      if (!r) return;
      if (r.ok) {
        notify.success(r.message ?? "Done.");
        router.refresh();
      } else notify.error(r.error);
      after?.(r);
    });
  return { pending, run };
}

function SortHeader({ label, link }: { label: string; link: SortLinks[keyof SortLinks] }) {
  const Icon = link.dir === "asc" ? ArrowUp : link.dir === "desc" ? ArrowDown : ArrowUpDown;
  return (
    <Link
      href={link.href}
      className="inline-flex items-center gap-1 hover:text-foreground"
      aria-label={`${label}: sort${link.dir ? ` (now ${link.dir === "asc" ? "ascending" : "descending"})` : ""}`}
    >
      {label}
      <Icon className="size-3.5" aria-hidden />
    </Link>
  );
}

const date = (iso: string) => iso.slice(0, 10);

const PLATFORM_ROLE_OPTIONS = PLATFORM_ROLES.map((r) => ({
  value: r,
  label: r === "admin" ? "Admin" : "User",
}));

function ManageUser({ row, selfId }: { row: UserRow; selfId: string }) {
  const { pending, run } = useRun();
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<PlatformRole>(platformRoleOf(row.role));
  const [reason, setReason] = useState("");
  const [until, setUntil] = useState("");
  const [confirm, setConfirm] = useState("");
  const [revokeArmed, setRevokeArmed] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const self = row.id === selfId;
  const fail = (r: Outcome) => setErrors(r.ok ? {} : (r.fieldErrors ?? {}));

  const submitBan = (e: FormEvent) => {
    e.preventDefault();
    run(() => banUserAction({ userId: row.id, reason, until }), fail);
  };
  const submitDelete = (e: FormEvent) => {
    e.preventDefault();
    run(
      () => deleteUserAction({ userId: row.id, confirm }),
      (r) => {
        fail(r);
        if (r.ok) setOpen(false);
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="-my-1.5" aria-label={`Manage ${row.email}`}>
          Manage
        </Button>
      </DialogTrigger>
      <DialogContent title={row.name} description={row.email} className="sm:max-w-2xl">
        {self ? (
          <p className="rounded-md bg-muted p-3 text-sm">
            This is your own account: you cannot change its role, ban or delete it here.
          </p>
        ) : null}
        {/* Two columns from 640 px: the dialog stays short enough that Delete is in view. */}
        <div className="grid gap-6 sm:grid-cols-2">
          <div className="grid content-start gap-6">
            <section className="grid gap-2" aria-labelledby={`role-${row.id}`}>
              <h3 id={`role-${row.id}`} className="text-sm font-semibold">
                Platform role
              </h3>
              <div className="flex gap-2">
                <SimpleSelect
                  id={`platform-role-${row.id}`}
                  aria-label="Role"
                  value={role}
                  onValueChange={setRole}
                  options={PLATFORM_ROLE_OPTIONS}
                  disabled={self}
                  className="w-40"
                />
                <Button
                  type="button"
                  variant="secondary"
                  disabled={self || pending || role === row.role}
                  onClick={() => run(() => setRoleAction({ userId: row.id, role }))}
                >
                  Save role
                </Button>
              </div>
            </section>

            <section className="grid gap-2">
              <h3 className="text-sm font-semibold">Sessions</h3>
              <p className="text-sm text-muted-foreground">{plural(row.sessions, "active session")}.</p>
              <div className="flex flex-wrap gap-2">
                {revokeArmed ? (
                  <>
                    <Button
                      type="button"
                      variant="destructive"
                      disabled={pending}
                      onClick={() =>
                        run(
                          () => revokeSessionsAction({ userId: row.id }),
                          () => setRevokeArmed(false),
                        )
                      }
                    >
                      Confirm: end all sessions
                    </Button>
                    <Button type="button" variant="ghost" onClick={() => setRevokeArmed(false)}>
                      Keep them
                    </Button>
                  </>
                ) : (
                  <Button type="button" variant="secondary" onClick={() => setRevokeArmed(true)}>
                    Revoke all sessions
                  </Button>
                )}
                <Button
                  type="button"
                  variant="secondary"
                  disabled={pending || self || row.role === "admin" || row.banned}
                  onClick={() =>
                    run(
                      () => impersonateAction({ userId: row.id }),
                      (r) => {
                        if (r.ok) window.location.assign("/dashboard");
                      },
                    )
                  }
                >
                  Impersonate
                </Button>
              </div>
            </section>
          </div>
          <div className="grid content-start gap-6">
            {row.banned ? (
              <section className="grid gap-2">
                <h3 className="text-sm font-semibold">Banned</h3>
                <p className="text-sm text-muted-foreground">
                  {row.banReason ?? "No reason given"}
                  {row.banExpires ? ` · until ${date(row.banExpires)}` : " · no end date"}
                </p>
                <div>
                  <Button
                    type="button"
                    variant="secondary"
                    disabled={pending || self}
                    onClick={() => run(() => unbanUserAction({ userId: row.id }))}
                  >
                    Unban
                  </Button>
                </div>
              </section>
            ) : (
              <form className="grid gap-1" onSubmit={submitBan} noValidate>
                <h3 className="text-sm font-semibold">Ban</h3>
                <Field id={`reason-${row.id}`} label="Reason" error={errors.reason}>
                  {(p) => (
                    <Input
                      {...p}
                      value={reason}
                      onChange={(e) => setReason(e.target.value)}
                      disabled={self}
                    />
                  )}
                </Field>
                <Field id={`until-${row.id}`} label="Until (optional, last day)" error={errors.until}>
                  {(p) => (
                    <Input
                      {...p}
                      type="date"
                      value={until}
                      onChange={(e) => setUntil(e.target.value)}
                      disabled={self}
                    />
                  )}
                </Field>
                <div>
                  <SubmitButton variant="destructive" pending={pending} disabled={self}>
                    Ban and sign out
                  </SubmitButton>
                </div>
              </form>
            )}
          </div>
        </div>

        <form className="grid gap-1 border-t border-border pt-4" onSubmit={submitDelete} noValidate>
          <h3 className="text-sm font-semibold text-destructive">Delete account</h3>
          <p className="text-sm text-muted-foreground">
            Deletes the user, their sessions and memberships. It cannot be undone.
          </p>
          <Field id={`confirm-${row.id}`} label={`Type ${row.email} to confirm`} error={errors.confirm}>
            {(p) => (
              <Input
                {...p}
                autoComplete="off"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                disabled={self}
              />
            )}
          </Field>
          <div>
            <SubmitButton
              variant="destructive"
              pending={pending}
              disabled={self || confirm.trim().toLowerCase() !== row.email.toLowerCase()}
            >
              Delete account
            </SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function UsersTable({ rows, sort, selfId }: { rows: UserRow[]; sort: SortLinks; selfId: string }) {
  const columns: DataColumn<UserRow>[] = [
    {
      id: "name",
      header: () => <SortHeader label="Name" link={sort.name} />,
      meta: { label: "Name" },
      cell: ({ row }) => (
        <div className="grid min-w-0 gap-0.5">
          <span className="font-medium break-words">{row.original.name}</span>
          <EmailText email={row.original.email} className="text-xs text-muted-foreground" />
          {row.original.organizations.length ? (
            <span className="text-xs text-muted-foreground sm:hidden">
              {row.original.organizations.join(", ")}
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: "role",
      header: () => <SortHeader label="Role" link={sort.role} />,
      meta: { label: "Role" },
      cell: ({ row }) => (
        <div className="grid gap-1">
          <span>{row.original.role}</span>
          {row.original.banned ? (
            <span className="w-fit rounded bg-destructive/10 px-1.5 text-xs font-medium text-destructive">
              banned
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: "orgs",
      header: "Organizations",
      meta: { className: "hidden sm:table-cell" },
      cell: ({ row }) => row.original.organizations.join(", ") || "—",
    },
    {
      id: "created",
      header: () => <SortHeader label="Joined" link={sort.created} />,
      meta: { className: "hidden md:table-cell whitespace-nowrap", label: "Joined" },
      cell: ({ row }) => date(row.original.createdAt),
    },
    {
      id: "manage",
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: "text-right" },
      cell: ({ row }) => <ManageUser row={row.original} selfId={selfId} />,
    },
  ];
  return (
    <DataTable
      columns={columns}
      data={rows}
      caption="Users"
      getRowId={(r) => r.id}
      empty="No user matches. Clear the search or the filters to see everyone."
    />
  );
}
