"use client";
import { useActionForm } from "@/components/hooks/use-action-form";
import { FormInput } from "@/components/ui/form-input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { updateOrganizationAction } from "./actions";
import { useRefresh } from "./member-roles";

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
      <FormInput form={form} name="name" id="org-name" label="Name" disabled={!canEdit} />
      <FormInput form={form} name="slug" id="org-slug" label="Slug" disabled={!canEdit} />
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
