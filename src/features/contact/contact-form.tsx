"use client";

import { Loader2 } from "lucide-react";
import { useState, useTransition } from "react";
import { callAction } from "@/components/hooks/call-action";
import { notify } from "@/components/hooks/notify";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import { sendContactMessage } from "./actions";
import { type ContactField, contactTopicOptions, MESSAGE_MAX } from "./constants";

const empty = { name: "", email: "", topic: "", message: "", website: "" };

export function ContactForm() {
  const [values, setValues] = useState(empty);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<ContactField, string>>>({});
  const [formError, setFormError] = useState<string>("");
  const [pending, startTransition] = useTransition();

  const set = (field: keyof typeof empty) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    startTransition(async () => {
      const result = await callAction(() => sendContactMessage(values));
      if (!result) return;
      if (result.ok) {
        setValues(empty);
        setFieldErrors({});
        setFormError("");
        notify.success("Message sent. We will reply by email.");
        return;
      }
      setFieldErrors(result.fieldErrors ?? {});
      setFormError(result.error);
      notify.error(result.error);
      const first = Object.keys(result.fieldErrors ?? {})[0];
      if (first) document.getElementById(`contact-${first}`)?.focus();
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-2" aria-describedby="contact-form-error">
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
        <Field id="contact-name" label="Name" error={fieldErrors.name}>
          {(props) => (
            <Input {...props} name="name" autoComplete="name" value={values.name} onChange={set("name")} />
          )}
        </Field>
        <Field id="contact-email" label="Email" error={fieldErrors.email}>
          {(props) => (
            <Input
              {...props}
              name="email"
              type="email"
              autoComplete="email"
              value={values.email}
              onChange={set("email")}
            />
          )}
        </Field>
      </div>
      <Field id="contact-topic" label="Topic" error={fieldErrors.topic}>
        {(props) => (
          <NativeSelect {...props} name="topic" value={values.topic} onChange={set("topic")}>
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
        hint={`10 to ${MESSAGE_MAX.toLocaleString("en-US")} characters · ${values.message.trim().length.toLocaleString("en-US")} so far`}
        error={fieldErrors.message}
      >
        {(props) => (
          <Textarea {...props} name="message" rows={7} value={values.message} onChange={set("message")} />
        )}
      </Field>
      {/* Honeypot: off-screen and skipped by keyboard and screen readers; people never fill it in. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Website</label>
        <input
          id="contact-website"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={set("website")}
        />
      </div>
      <p id="contact-form-error" role="status" className="min-h-5 text-sm text-destructive">
        {formError}
      </p>
      <div>
        <Button type="submit" disabled={pending} className="min-w-36">
          {pending ? <Loader2 className="animate-spin" aria-hidden /> : null}
          {pending ? "Sending…" : "Send message"}
        </Button>
      </div>
    </form>
  );
}
