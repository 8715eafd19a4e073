"use client";
import { useActionForm } from "@/components/hooks/use-action-form";
import { setFlash } from "@/components/shell/flash";
import { refreshViewer } from "@/components/shell/viewer-store";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormActions } from "@/components/ui/submit-button";
import { deleteOrganizationAction } from "./actions";

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
      <FormActions form={form} errorId="delete-org-error" variant="destructive">
        Delete organization
      </FormActions>
    </form>
  );
}
