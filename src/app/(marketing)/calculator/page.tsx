import { ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ModeTabs, parseMode } from "@/features/calculator/mode-tabs";
import { CurrencyMode, DecimalMode } from "@/features/calculator/modes";
import { CryptoWorkbenchLoader } from "@/features/crypto/workbench-loader";
import { SignedOutForSure } from "@/features/history";
import { hasSessionCookie } from "@/server/auth/session-cookie";
import { getDb } from "@/server/db/client";
import { loadRatesOrNull } from "@/server/fx";

export const metadata: Metadata = {
  title: "Calculator",
  description: "Exact decimal arithmetic, currency conversion and a private crypto workbench.",
};

const HEADINGS = {
  decimal: { title: "Calculator", lead: "Exact to the last digit you ask for." },
  currency: { title: "Calculator", lead: "Exact to the last digit you ask for." },
  crypto: {
    title: "Crypto workbench",
    lead: "Hashes, keys, signatures and encryption, worked out in your browser.",
  },
} as const;

export default async function CalculatorPage({ searchParams }: { searchParams: Promise<{ mode?: string }> }) {
  const mode = parseMode((await searchParams).mode);
  // The FX table goes to the decimal and currency modes as props, so converting needs no request.
  // (After `await searchParams`: the page is dynamic, so nothing reads the database at build time.)
  const rates = mode === "crypto" ? null : await loadRatesOrNull(getDb());
  // No session cookie: signed out for sure, so "Sign in to save" is drawn with the page.
  const signedOut = mode !== "crypto" && !(await hasSessionCookie());
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          {/* One heading per mode: the workbench is not the calculator's "exact digits". */}
          <h1 className="text-3xl font-semibold tracking-tight">{HEADINGS[mode].title}</h1>
          <p className="mt-2 text-muted-foreground">{HEADINGS[mode].lead}</p>
        </div>
        <ModeTabs mode={mode} />
      </div>
      <div className="mt-8">
        {mode === "crypto" ? (
          <section aria-label="Workbench">
            <p className="mb-6 flex items-start gap-2 rounded-md border border-border bg-muted/50 p-3 text-sm">
              <ShieldCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
              Everything here runs in your browser. Nothing you type, paste or open is sent to a server.
            </p>
            <CryptoWorkbenchLoader />
          </section>
        ) : (
          <SignedOut when={signedOut}>
            {mode === "currency" ? <CurrencyMode rates={rates} /> : <DecimalMode rates={rates} />}
          </SignedOut>
        )}
      </div>
    </div>
  );
}

function SignedOut({ when, children }: { when: boolean; children: ReactNode }) {
  return when ? <SignedOutForSure>{children}</SignedOutForSure> : children;
}
