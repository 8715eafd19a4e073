"use client";

import { Copy } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { useActionForm } from "@/components/hooks/use-action-form";
import { CurrencyCombobox } from "@/components/money/currency-combobox";
import { RoundingSelect } from "@/components/money/rounding-select";
import { setFlash } from "@/components/shell/flash";
import { refreshViewer } from "@/components/shell/viewer-store";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogFooter,
  AlertDialogTrigger,
  ConfirmDialog,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import {
  assignableRoles,
  isMemberRole,
  MEMBER_ROLE_LABELS,
  type MemberRole,
  memberRoleOf,
} from "@/core/auth/roles";
import { CURRENCIES } from "@/core/money/currencies";
import { isRoundingMode } from "@/core/rounding";
import {
  cancelInvitationAction,
  createOrganizationAction,
  deleteOrganizationAction,
  inviteMemberAction,
  leaveOrganizationAction,
  removeMemberAction,
  updateMemberRoleAction,
  updateOrganizationAction,
  updatePreferencesAction,
} from "./actions";
import { NameSlugFields } from "./name-slug-fields";

type Role = MemberRole;
const roleLabels = MEMBER_ROLE_LABELS;

function useRefresh() {
  const router = useRouter();
  return () => {
    void refreshViewer();
    router.refresh();
  };
}

function copy(text: string) {
  void navigator.clipboard?.writeText(text).then(
    () => notify.success("Link copied."),
    () => notify.error("Could not copy. Select the link and copy it yourself."),
  );
}

export function CreateOrganizationForm() {
  const router = useRouter();
  const form = useActionForm({ name: "", slug: "" }, createOrganizationAction, {
    idPrefix: "create-org",
    success: "Organization created. It is now your active organization.",
    onSuccess: () => {
      void refreshViewer();
      router.replace("/organization-profile");
      router.refresh();
    },
  });
  return (
    <form noValidate onSubmit={form.submit} className="grid max-w-md gap-1">
      <NameSlugFields
        idPrefix="create-org"
        values={form.values}
        setValues={form.setValues}
        errors={form.fieldErrors}
      />
      <FormError id="create-org-error" message={form.formError} />
      <div>
        <SubmitButton pending={form.pending}>Create organization</SubmitButton>
      </div>
    </form>
  );
}

export function OrganizationDetailsForm({
  name,
  slug,
  canEdit,
}: {
  name: string;
  slug: string;
  canEdit: boolean;
}) {
  const refresh = useRefresh();
  const form = useActionForm({ name, slug }, updateOrganizationAction, {
    idPrefix: "org",
    success: "Organization saved.",
    onSuccess: refresh,
  });
  return (
    <form noValidate onSubmit={form.submit} className="grid max-w-md gap-1">
      <Field id="org-name" label="Name" error={form.fieldErrors.name}>
        {(props) => <Input {...props} {...form.field("name")} disabled={!canEdit} />}
      </Field>
      <Field id="org-slug" label="Slug" error={form.fieldErrors.slug}>
        {(props) => <Input {...props} {...form.field("slug")} disabled={!canEdit} />}
      </Field>
      <FormError id="org-error" message={form.formError} />
      {canEdit ? (
        <div>
          <SubmitButton pending={form.pending} variant="outline">
            Save
          </SubmitButton>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Only owners and admins can change these.</p>
      )}
    </form>
  );
}

const CURRENCY_CODES = CURRENCIES.map((c) => c.code);

/**
 * The organization's calculator defaults (set first during onboarding): every member's calculator
 * starts from them. Owners and admins change them; members see them.
 */
export function PreferencesForm({
  defaultCurrency,
  roundingMode,
  precision,
  canEdit,
}: {
  defaultCurrency: string;
  roundingMode: string;
  precision: number;
  canEdit: boolean;
}) {
  const refresh = useRefresh();
  const form = useActionForm(
    { defaultCurrency, roundingMode, precision: String(precision) },
    updatePreferencesAction,
    { idPrefix: "org-prefs", success: "Preferences saved.", onSuccess: refresh },
  );
  return (
    // One column that may shrink below its content: the rounding mode's long labels truncate instead
    // of pushing the fields out of a phone's card.
    <form noValidate onSubmit={form.submit} className="grid max-w-md grid-cols-[minmax(0,1fr)] gap-1">
      <Field id="org-prefs-defaultCurrency" label="Default currency" error={form.fieldErrors.defaultCurrency}>
        {(props) => (
          <CurrencyCombobox
            {...props}
            codes={CURRENCY_CODES}
            value={form.values.defaultCurrency}
            onValueChange={(code) => form.setValues((v) => ({ ...v, defaultCurrency: code }))}
            disabled={!canEdit}
            className="min-w-0"
          />
        )}
      </Field>
      <Field id="org-prefs-roundingMode" label="Rounding mode" error={form.fieldErrors.roundingMode}>
        {(props) => (
          <RoundingSelect
            {...props}
            value={isRoundingMode(form.values.roundingMode) ? form.values.roundingMode : ""}
            onValueChange={(mode) => form.setValues((v) => ({ ...v, roundingMode: mode }))}
            disabled={!canEdit}
            className="min-w-0"
          />
        )}
      </Field>
      <Field
        id="org-prefs-precision"
        label="Precision (significant digits)"
        hint="1 to 1,000. 20 is plenty for money."
        error={form.fieldErrors.precision}
      >
        {(props) => <Input {...props} {...form.field("precision")} inputMode="numeric" disabled={!canEdit} />}
      </Field>
      <FormError id="org-prefs-error" message={form.formError} />
      {canEdit ? (
        <div>
          <SubmitButton pending={form.pending} variant="outline">
            Save preferences
          </SubmitButton>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Only owners and admins can change these.</p>
      )}
    </form>
  );
}

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

  function run(fn: () => Promise<{ ok: true } | { ok: false; error: string }>, success: string) {
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

/** "a member", "an admin", "an owner". */
function withArticle(role: Role) {
  const label = roleLabels[role].toLowerCase();
  return `${/^[aeiou]/.test(label) ? "an" : "a"} ${label}`;
}

const ROLE_CHANGE_EFFECT: Record<Role, string> = {
  owner: "Owners can do everything, including deleting the organization.",
  admin: "Admins manage members, invitations, billing and settings.",
  member: "Members use the organization's tools but manage nothing.",
};

export function InviteForm({ viewerRole }: { viewerRole: Role }) {
  const refresh = useRefresh();
  const [link, setLink] = useState<string | null>(null);
  const form = useActionForm({ email: "", role: "member" }, inviteMemberAction, {
    idPrefix: "invite",
    success: "Invitation created. Send the link to your teammate.",
    resetOnSuccess: true,
    onSuccess: (result) => {
      setLink(result.data.link);
      refresh();
    },
  });
  // Least powerful first: the default choice is a plain member.
  const roles = assignableRoles(viewerRole).reverse();
  return (
    <div className="grid gap-4">
      <form
        noValidate
        onSubmit={form.submit}
        className="grid gap-1 sm:grid-cols-[1fr_10rem_auto] sm:items-start sm:gap-3"
      >
        <Field id="invite-email" label="Email" error={form.fieldErrors.email}>
          {(props) => <Input {...props} {...form.field("email")} type="email" autoComplete="off" />}
        </Field>
        <Field id="invite-role" label="Role" error={form.fieldErrors.role}>
          {(props) => (
            <SimpleSelect
              {...props}
              value={isMemberRole(form.values.role) ? form.values.role : ""}
              onValueChange={(role) => form.setValues((v) => ({ ...v, role }))}
              options={roles.map((r) => ({ value: r, label: roleLabels[r] }))}
            />
          )}
        </Field>
        <div className="sm:pt-6">
          <SubmitButton pending={form.pending}>Invite</SubmitButton>
        </div>
        <div className="sm:col-span-3">
          <FormError id="invite-error" message={form.formError} />
        </div>
      </form>
      {link ? (
        <div className="grid gap-2 rounded-md border border-border bg-muted/50 p-3">
          <label htmlFor="invite-link" className="text-sm font-medium">
            Invitation link (valid for 7 days)
          </label>
          <div className="flex gap-2">
            <Input
              id="invite-link"
              readOnly
              value={link}
              className="font-mono text-xs"
              onFocus={(e) => e.target.select()}
            />
            <Button
              type="button"
              variant="outline"
              onClick={() => copy(link)}
              aria-label="Copy invitation link"
            >
              <Copy aria-hidden />
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

export function PendingInvitations({
  invitations,
  canManage,
}: {
  invitations: { id: string; email: string; role: string; expires: string; link: string }[];
  canManage: boolean;
}) {
  const refresh = useRefresh();
  const [pending, startTransition] = useTransition();
  const [cancelling, setCancelling] = useState<{ id: string; email: string } | null>(null);
  if (invitations.length === 0)
    return <p className="text-sm text-muted-foreground">No pending invitations.</p>;
  const cancel = (inv: { id: string; email: string }) =>
    startTransition(async () => {
      const result = await callAction(() => cancelInvitationAction({ id: inv.id }));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      notify.success(`Invitation to ${inv.email} cancelled.`);
      refresh();
    });
  return (
    <>
      <ul className="grid gap-2" aria-label="Pending invitations">
        {invitations.map((inv) => (
          <li
            key={inv.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-border p-3 text-sm"
          >
            <div className="min-w-0">
              <p className="font-medium break-all">{inv.email}</p>
              <p className="text-muted-foreground">
                {roleLabels[memberRoleOf(inv.role)]} · expires {inv.expires}
              </p>
            </div>
            {canManage ? (
              <div className="flex gap-2">
                <Button size="sm" variant="outline" onClick={() => copy(inv.link)}>
                  Copy link
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={pending}
                  aria-label={`Cancel the invitation to ${inv.email}`}
                  onClick={() => setCancelling({ id: inv.id, email: inv.email })}
                >
                  Cancel
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => {
          if (!open) setCancelling(null);
        }}
        title={`Cancel the invitation to ${cancelling?.email ?? ""}?`}
        description="The invitation link stops working at once. You can invite this address again later."
        confirmLabel="Cancel invitation"
        cancelLabel="Keep it"
        destructive
        onConfirm={() => {
          if (cancelling) cancel(cancelling);
          setCancelling(null);
        }}
      />
    </>
  );
}

/**
 * Leaving asks first. A sole owner cannot leave (the server refuses too): the button is disabled
 * up front and says why, instead of refusing after the confirmation.
 */
export function LeaveOrganization({ name, soleOwner = false }: { name: string; soleOwner?: boolean }) {
  const [pending, startTransition] = useTransition();
  function leave() {
    startTransition(async () => {
      const result = await callAction(() => leaveOrganizationAction({}));
      if (!result) return;
      if (!result.ok) return notify.error(result.error);
      setFlash("org-left");
      await refreshViewer();
      window.location.assign("/organization-profile");
    });
  }
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        You will lose access to {name}'s history, billing and keys.
      </p>
      {soleOwner ? (
        <p id="leave-blocked" className="text-sm">
          You are the only owner of {name}. Make another member an owner first, or delete the organization.
        </p>
      ) : null}
      <div>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button
              variant="outline"
              disabled={pending || soleOwner}
              aria-describedby={soleOwner ? "leave-blocked" : undefined}
            >
              Leave organization
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent
            title={`Leave ${name}?`}
            description={`You lose access to ${name}'s history, billing and keys at once. To come back, someone must invite you again.`}
          >
            <AlertDialogFooter>
              <AlertDialogCancel />
              <AlertDialogAction destructive onClick={leave}>
                Leave organization
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </div>
  );
}

export function DeleteOrganizationForm({ slug }: { slug: string }) {
  const form = useActionForm({ confirm: "" }, deleteOrganizationAction, {
    idPrefix: "delete-org",
    onSuccess: () => {
      // Announced after the full load below (a toast now would be lost to it).
      setFlash("org-deleted");
      void refreshViewer();
      window.location.assign("/organization-profile");
    },
  });
  return (
    <form noValidate onSubmit={form.submit} className="grid max-w-md gap-1">
      <p className="mb-3 text-sm text-muted-foreground">
        Deletes the organization, its members' access, history and keys. This cannot be undone.
      </p>
      <Field id="delete-org-confirm" label={`Type ${slug} to confirm`} error={form.fieldErrors.confirm}>
        {(props) => <Input {...props} {...form.field("confirm")} autoComplete="off" />}
      </Field>
      <FormError id="delete-org-error" message={form.formError} />
      <div>
        <SubmitButton pending={form.pending} variant="destructive">
          Delete organization
        </SubmitButton>
      </div>
    </form>
  );
}
