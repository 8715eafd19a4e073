"use client";

import { useActionForm } from "@/components/hooks/use-action-form";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import { FormError, SubmitButton } from "@/components/ui/submit-button";
import { sendContactMessage } from "./actions";
import { contactTopicOptions, MESSAGE_MAX } from "./constants";

export function ContactForm() {
  const form = useActionForm(
    { name: "", email: "", topic: "", message: "", website: "" },
    sendContactMessage,
    {
      idPrefix: "contact",
      success: "Message sent. We will reply by email.",
      resetOnSuccess: true,
    },
  );
  const length = form.values.message.trim().length.toLocaleString("en-US");

  return (
    <form noValidate onSubmit={form.submit} className="grid gap-2" aria-describedby="contact-form-error">
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
        <Field id="contact-name" label="Name" error={form.fieldErrors.name}>
          {(props) => <Input {...props} {...form.field("name")} autoComplete="name" />}
        </Field>
        <Field id="contact-email" label="Email" error={form.fieldErrors.email}>
          {(props) => <Input {...props} {...form.field("email")} type="email" autoComplete="email" />}
        </Field>
      </div>
      <Field id="contact-topic" label="Topic" error={form.fieldErrors.topic}>
        {(props) => (
          <NativeSelect {...props} {...form.field("topic")}>
            <option value="" disabled>
              Choose a topic…
            </option>
            {contactTopicOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field
        id="contact-message"
        label="Message"
        hint={`10 to ${MESSAGE_MAX.toLocaleString("en-US")} characters · ${length} so far`}
        error={form.fieldErrors.message}
      >
        {(props) => <Textarea {...props} {...form.field("message")} rows={7} />}
      </Field>
      {/* Honeypot: off-screen and skipped by keyboard and screen readers; people never fill it in. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Website</label>
        <input id="contact-website" {...form.field("website")} tabIndex={-1} autoComplete="off" />
      </div>
      <FormError id="contact-form-error" message={form.formError} />
      <div>
        <SubmitButton pending={form.pending} pendingLabel="Sending…" className="min-w-36">
          Send message
        </SubmitButton>
      </div>
    </form>
  );
}
