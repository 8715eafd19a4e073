"use client";
import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { SimpleSelect } from "@/components/ui/select";
import { assignableRoles } from "@/core/auth/roles";
import type { Result } from "@/core/result";
import { removeMemberAction, updateMemberRoleAction } from "./actions";
import { ROLE_CHANGE_EFFECT, type Role, roleLabels, useRefresh, withArticle } from "./member-roles";

export type MemberRow = {
  id: string;
  name: string;
  email: string;
  role: Role;
  joined: string;
  isYou: boolean;
};

type Confirmation =
  | { kind: "role"; member: MemberRow; role: Role }
  | { kind: "remove"; member: MemberRow }
  | null;

/**
 * The members of the organization. A table where its box is wide enough; else (a phone, the
 * settings card on a laptop) each member is a block (name, joined date, then role and Remove on
 * one line), so nothing sticks out of the card. Changing a
 * role and removing a member both ask first.
 */
export function MembersTable({ members, viewerRole }: { members: MemberRow[]; viewerRole: Role }) {
  const refresh = useRefresh();
  const [pending, startTransition] = useTransition();
  const [confirmation, setConfirmation] = useState<Confirmation>(null);
  const canManage = viewerRole !== "member";
  const assignable = assignableRoles(viewerRole);

  function run(fn: () => Promise<Result<unknown>>, success: string) {
    startTransition(async () => {
      const result = await callAction(fn);
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success(success);
      refresh();
    });
  }

  function confirm() {
    if (!confirmation) return;
    const { member: m } = confirmation;
    if (confirmation.kind === "role") {
      const role = confirmation.role;
      run(
        () => updateMemberRoleAction({ memberId: m.id, role }),
        `${m.name} is now ${roleLabels[role].toLowerCase()}.`,
      );
    } else {
      run(() => removeMemberAction({ id: m.id }), `${m.name} was removed.`);
    }
    setConfirmation(null);
  }

  return (
    <div className="@container relative">
      <table className="w-full text-sm @max-xl:block">
        <caption className="sr-only">Members</caption>
        <thead className="@max-xl:hidden">
          <tr className="border-b border-border text-left text-muted-foreground">
            <th scope="col" className="py-2 pr-3 font-medium">
              Member
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Role
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Joined
            </th>
            <th scope="col" className="py-2 pl-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="@max-xl:block">
          {members.map((m) => {
            const editable = canManage && !m.isYou && (viewerRole === "owner" || m.role !== "owner");
            return (
              <tr
                key={m.id}
                data-testid="member-row"
                className="border-b border-border @max-xl:grid @max-xl:grid-cols-[1fr_auto] @max-xl:items-center @max-xl:gap-x-3 @max-xl:gap-y-2 @max-xl:py-3"
              >
                <td className="min-w-0 py-3 pr-3 @max-xl:col-span-2 @max-xl:row-start-1 @max-xl:block @max-xl:p-0">
                  <p className="font-medium break-words">
                    {m.name}
                    {m.isYou ? <span className="ml-1 text-muted-foreground">(you)</span> : null}
                  </p>
                  <p className="text-muted-foreground @max-xl:break-all">{m.email}</p>
                </td>
                <td className="px-3 py-3 @max-xl:block @max-xl:p-0">
                  {editable ? (
                    <SimpleSelect
                      id={`member-role-${m.id}`}
                      aria-label={`Role of ${m.name}`}
                      value={m.role}
                      disabled={pending}
                      className="h-8 w-32"
                      options={assignable.map((r) => ({ value: r, label: roleLabels[r] }))}
                      onValueChange={(role) => {
                        // The control keeps showing the current role until the change is confirmed.
                        if (role !== m.role) setConfirmation({ kind: "role", member: m, role });
                      }}
                    />
                  ) : (
                    roleLabels[m.role]
                  )}
                </td>
                <td className="tabular whitespace-nowrap px-3 py-3 text-muted-foreground @max-xl:col-span-2 @max-xl:row-start-2 @max-xl:block @max-xl:p-0">
                  <span className="@xl:hidden">Joined </span>
                  {m.joined}
                </td>
                <td className="py-3 pl-3 text-right @max-xl:block @max-xl:p-0">
                  {editable ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={pending}
                      aria-label={`Remove ${m.name}`}
                      onClick={() => setConfirmation({ kind: "remove", member: m })}
                    >
                      Remove
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ConfirmDialog
        open={confirmation !== null}
        onOpenChange={(open) => {
          if (!open) setConfirmation(null);
        }}
        title={
          confirmation?.kind === "role"
            ? `Make ${confirmation.member.name} ${withArticle(confirmation.role)}?`
            : `Remove ${confirmation?.member.name ?? ""}?`
        }
        description={
          confirmation?.kind === "role"
            ? `${confirmation.member.name} is ${withArticle(confirmation.member.role)} now. ${ROLE_CHANGE_EFFECT[confirmation.role]}`
            : `${confirmation?.member.name ?? ""} loses access to this organization's history, billing and keys at once. You can invite them again later.`
        }
        confirmLabel={confirmation?.kind === "role" ? "Change role" : "Remove member"}
        destructive={confirmation?.kind === "remove"}
        onConfirm={confirm}
      />
    </div>
  );
}
