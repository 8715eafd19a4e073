"use client";

import { Copy } from "lucide-react";
import { useState } from "react";
import { copyWithToast } from "@/components/hooks/copy-text";
import { useActionForm } from "@/components/hooks/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormInput } from "@/components/ui/form-input";
import { Input } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { assignableRoles, isMemberRole } from "@/core/auth/roles";
import { inviteMemberAction } from "./actions";
import { type Role, roleLabels, useRefresh } from "./member-roles";

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
        <FormInput form={form} name="email" id="invite-email" label="Email" type="email" autoComplete="off" />
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
              onClick={() => void copyWithToast(link, "link")}
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
