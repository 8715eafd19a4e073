"use client";

import { CircleCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useActionForm } from "@/components/hooks/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormInput } from "@/components/ui/form-input";
import { Textarea } from "@/components/ui/input";
import { SimpleSelect } from "@/components/ui/select";
import { FormActions } from "@/components/ui/submit-button";
import { sendContactMessage } from "./actions";
import { contactTopicOptions, MESSAGE_MAX } from "./constants";

export function ContactForm() {
  // Where the last message said to reply: shown until the person chooses to write another.
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submitted = useRef("");
  const form = useActionForm(
    { name: "", email: "", topic: "", message: "", website: "" },
    sendContactMessage,
    {
      idPrefix: "contact",
      // No toast: the form gives way to the "Message sent" panel, which takes focus and says it.
      resetOnSuccess: true,
      onSuccess: () => setSentTo(submitted.current),
    },
  );
  const length = form.values.message.trim().length.toLocaleString("en-US");

  if (sentTo !== null) {
    return (
      <Sent
        email={sentTo}
        onAnother={() => {
          setSentTo(null);
          requestAnimationFrame(() => document.getElementById("contact-name")?.focus());
        }}
      />
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        submitted.current = form.values.email.trim();
        form.submit(event);
      }}
      className="grid gap-2"
      aria-describedby="contact-form-error"
    >
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
        <FormInput
          form={form}
          name="name"
          id="contact-name"
          label="Name"
          errorLines={2}
          autoComplete="name"
        />
        <FormInput
          form={form}
          name="email"
          id="contact-email"
          label="Email"
          errorLines={2}
          type="email"
          autoComplete="email"
        />
      </div>
      <Field id="contact-topic" label="Topic" error={form.fieldErrors.topic}>
        {(props) => (
          <SimpleSelect
            {...props}
            value={form.values.topic}
            onValueChange={(topic) => form.setValues((v) => ({ ...v, topic }))}
            options={contactTopicOptions}
            placeholder="Choose a topic…"
          />
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
      <FormActions form={form} errorId="contact-form-error" pendingLabel="Sending…" className="min-w-36">
        Send message
      </FormActions>
    </form>
  );
}

/** What stays on screen after sending, once the toast has gone: the message went, and where the reply goes. */
function Sent({ email, onAnother }: { email: string; onAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby="contact-sent-title"
      className="grid content-start justify-items-start gap-4 rounded-lg border border-border bg-card p-6"
      data-testid="contact-sent"
    >
      <CircleCheck className="size-8 text-success" aria-hidden />
      <h2 id="contact-sent-title" ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
        Message sent
      </h2>
      <p className="text-muted-foreground">
        We&apos;ll reply to <strong className="font-medium text-foreground break-all">{email}</strong>,
        usually within one working day.
      </p>
      <Button type="button" variant="outline" onClick={onAnother}>
        Send another message
      </Button>
    </section>
  );
}
