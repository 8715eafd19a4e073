import { Calculator, Coins, KeyRound, ReceiptText } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { evaluate } from "@/core/decimal";
import { toMiniResult } from "@/features/home";
import { MiniCalculator } from "@/features/home/mini-calculator";
import { ProductShot } from "@/features/home/product-shot";

export const metadata: Metadata = {
  description:
    "A decimal and currency calculator that never loses a cent, signed receipts anyone can verify, and a crypto workbench that runs in your browser.",
};

const features = [
  {
    Icon: Calculator,
    title: "Exact decimals",
    body: "Arbitrary precision up to 1,000 significant digits and all nine rounding modes. 0.1 + 0.2 is 0.3, always.",
  },
  {
    Icon: Coins,
    title: "Every currency",
    body: "All ISO 4217 currencies with their true minor units: no cents for yen, three decimals for dinars. Splits that always add up.",
  },
  {
    Icon: ReceiptText,
    title: "Verifiable receipts",
    body: "Every payment gets a receipt signed with Ed25519. Anyone can check it offline with OpenSSL.",
  },
  {
    Icon: KeyRound,
    title: "Private crypto",
    body: "Hashes, HMAC, keys, signatures and certificate inspection that run in your browser. Nothing you type leaves it.",
  },
];

export default function HomePage() {
  return (
    <div>
      <section className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-[1.2fr_1fr] md:py-24">
        <div>
          <p className="text-sm font-medium text-primary">Exact money math for small teams</p>
          <h1 className="mt-3 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            Numbers you can trust to the last cent.
          </h1>
          <p className="mt-5 max-w-xl text-lg text-muted-foreground">
            Abacus is a decimal and currency calculator, a private crypto workbench and signed receipts, in
            one place your whole team can use.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link href="/calculator">Open the calculator</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link href="/sign-up">Get started free</Link>
            </Button>
          </div>
        </div>
        <MiniCalculator initial="0.1 + 0.2" initialResult={toMiniResult(evaluate("0.1 + 0.2"))} />
      </section>
      <section aria-labelledby="features-heading" className="border-t border-border bg-muted/40">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="features-heading" className="sr-only">
            What Abacus does
          </h2>
          <div className="grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
            {features.map(({ Icon, title, body }) => (
              <div key={title}>
                <Icon className="size-6 text-primary" aria-hidden />
                <h3 className="mt-4 font-semibold">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-muted-foreground">{body}</p>
              </div>
            ))}
          </div>
        </div>
      </section>
      <section aria-labelledby="product-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="product-heading" className="text-2xl font-semibold tracking-tight">
          What it looks like
        </h2>
        <p className="mt-3 max-w-2xl text-muted-foreground">
          The real screens, not a mock-up: the calculator keeps every digit you ask for, and every payment
          gets a receipt anyone can verify.
        </p>
        <div className="mt-8 grid items-start gap-8 lg:grid-cols-[3fr_2fr]">
          <ProductShot
            name="calculator"
            caption="The calculator: exact decimals up to 1,000 digits, nine rounding modes, every currency."
          />
          <ProductShot
            name="receipt"
            caption="A receipt signed with Ed25519: check it here, in the workbench, or offline with OpenSSL."
          />
        </div>
      </section>
      <section className="mx-auto max-w-6xl border-t border-border px-4 py-16 text-center sm:px-6">
        <h2 className="text-2xl font-semibold tracking-tight">Start with the free plan</h2>
        <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
          No card needed. Upgrade when your team needs more history, more API calls and signed receipts.
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <Button asChild>
            <Link href="/sign-up">Create an account</Link>
          </Button>
          <Button asChild variant="ghost">
            <Link href="/pricing">See pricing</Link>
          </Button>
        </div>
      </section>
    </div>
  );
}
