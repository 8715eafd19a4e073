"use client";

import { useState } from "react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { slugify } from "@/core/organizations/fields";

type Values = { name: string; slug: string };

/**
 * The name and slug of a new organization. The slug follows the name until the user edits it.
 */
export function NameSlugFields({
  idPrefix,
  values,
  setValues,
  errors,
}: {
  idPrefix: string;
  values: Values;
  setValues: (update: (current: Values) => Values) => void;
  errors: Record<string, string>;
}) {
  const [slugEdited, setSlugEdited] = useState(false);
  return (
    <>
      <Field id={`${idPrefix}-name`} label="Organization name" error={errors.name}>
        {(props) => (
          <Input
            {...props}
            name="name"
            value={values.name}
            autoComplete="organization"
            onChange={(event) => {
              const name = event.target.value;
              setValues((current) => ({ name, slug: slugEdited ? current.slug : slugify(name) }));
            }}
          />
        )}
      </Field>
      <Field
        id={`${idPrefix}-slug`}
        label="Slug"
        hint="Used in links; lowercase letters, digits and hyphens."
        error={errors.slug}
      >
        {(props) => (
          <Input
            {...props}
            name="slug"
            value={values.slug}
            onChange={(event) => {
              const slug = event.target.value;
              setSlugEdited(true);
              setValues((current) => ({ ...current, slug }));
            }}
          />
        )}
      </Field>
    </>
  );
}
