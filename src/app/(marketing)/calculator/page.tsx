import { ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { parseCurrencyLink } from "@/features/calculator/currency-link";
import { ModeTabs, parseMode } from "@/features/calculator/mode-tabs";
import { CurrencyMode, DecimalMode, FragmentNotebook, SavedNotebook } from "@/features/calculator/modes";
import { CryptoWorkbenchLoader } from "@/features/crypto/workbench-loader";
import { SignedOutForSure } from "@/features/history";
import { type OrgPreferences, organizationPreferences } from "@/features/organizations/server";
import { getSheet, listSheets } from "@/features/sheets/server";
import { hasSessionCookie } from "@/server/auth/session-cookie";
import { getViewer, loadMembership } from "@/server/authz";
import { getDb } from "@/server/db/client";
import { loadRatesOrNull } from "@/server/fx";

export const metadata: Metadata = {
  title: "Calculator",
  description: "Exact decimal arithmetic, currency conversion and a private crypto workbench.",
};

const HEADINGS = {
  notebook: {
    title: "Calculator",
    lead: "A sheet of calculations, each line exact to the last digit you ask for.",
  },
  decimal: { title: "Calculator", lead: "Exact to the last digit you ask for." },
  currency: { title: "Calculator", lead: "Exact to the last digit you ask for." },
  crypto: {
    title: "Crypto workbench",
    lead: "Hashes, keys, signatures and encryption, worked out in your browser.",
  },
} as const;

type Search = {
  mode?: string;
  expr?: string;
  sheet?: string;
  amount?: string;
  from?: string;
  to?: string;
  rounding?: string;
};

export default async function CalculatorPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const mode = parseMode(search.mode, search.expr);
  // The FX table goes to the decimal and currency modes as props, so converting needs no request.
  // (After `await searchParams`: the page is dynamic, so nothing reads the database at build time.)
  const rates = mode === "crypto" ? null : await loadRatesOrNull(getDb());
  // No session cookie: signed out for sure, so "Sign in to save" is drawn with the page.
  const signedOut = mode !== "crypto" && !(await hasSessionCookie());
  // A member starts from the active organization's defaults (a link's own parameters still win).
  const member = mode === "crypto" || signedOut ? null : await activeMembership();
  const defaults = member ? await organizationPreferences(getDb(), member.org.id) : null;
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
            {mode === "notebook" ? (
              member ? (
                <MemberNotebook member={member} rates={rates} defaults={defaults} sheetId={search.sheet} />
              ) : (
                <FragmentNotebook rates={rates} defaults={defaults} />
              )
            ) : mode === "currency" ? (
              <CurrencyMode rates={rates} defaults={defaults} link={parseCurrencyLink(search)} />
            ) : (
              <DecimalMode rates={rates} defaults={defaults} />
            )}
          </SignedOut>
        )}
      </div>
    </div>
  );
}

function SignedOut({ when, children }: { when: boolean; children: ReactNode }) {
  return when ? <SignedOutForSure>{children}</SignedOutForSure> : children;
}

type Member = NonNullable<Awaited<ReturnType<typeof loadMembership>>> & { userName: string };

/** The viewer's membership of the active organization, when signed in with one. */
async function activeMembership(): Promise<Member | null> {
  const viewer = await getViewer();
  if (!viewer) return null;
  const membership = await loadMembership(getDb(), viewer.user.id, viewer.activeOrganizationId);
  return membership ? { ...membership, userName: viewer.user.name } : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A member's notebook: the organization's sheets, and the one the link names (else the last edited). */
async function MemberNotebook({
  member,
  rates,
  defaults,
  sheetId,
}: {
  member: Member;
  rates: Awaited<ReturnType<typeof loadRatesOrNull>>;
  defaults: OrgPreferences | null;
  sheetId: string | undefined;
}) {
  const db = getDb();
  const sheets = await listSheets(db, member.org.id);
  const id = sheetId && UUID.test(sheetId) ? sheetId : sheets[0]?.id;
  const initial = id ? await getSheet(db, member.org.id, id) : null;
  return (
    <SavedNotebook
      key={initial?.id ?? "new"}
      rates={rates}
      defaults={defaults}
      initial={initial}
      sheets={sheets}
      organization={member.org.name}
      userName={member.userName}
    />
  );
}
