"use client";

import { useRouter } from "next/navigation";
import { useActionForm } from "@/components/hooks/use-action-form";
import { refreshViewer } from "@/components/shell/viewer-store";
import { FormActions } from "@/components/ui/submit-button";
import { createOrganizationAction } from "./actions";
import { NameSlugFields } from "./name-slug-fields";

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
      <FormActions form={form} errorId="create-org-error">
        Create organization
      </FormActions>
    </form>
  );
}
