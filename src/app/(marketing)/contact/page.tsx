import type { Metadata } from "next";
import { ContactForm } from "@/features/contact/contact-form";

export const metadata: Metadata = {
  title: "Contact",
  description: "Questions about Abacus, plans or billing? Write to us.",
};

export default function ContactPage() {
  return (
    <div className="mx-auto grid max-w-5xl gap-12 px-4 py-16 sm:px-6 md:grid-cols-[1fr_1.6fr]">
      <div>
        <h1 className="text-4xl font-semibold tracking-tight">Contact us</h1>
        <p className="mt-4 text-muted-foreground">
          Questions about plans, billing or a number that looks wrong? Write to us and a person will reply by
          email, usually within one working day.
        </p>
        <p className="mt-4 text-sm text-muted-foreground">
          We use what you send only to answer you. Please do not include card numbers or private keys.
        </p>
      </div>
      <ContactForm />
    </div>
  );
}
