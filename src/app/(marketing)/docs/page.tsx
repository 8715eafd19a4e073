import { ChevronDown } from "lucide-react";
import type { Metadata } from "next";
import { DocsCopy } from "@/features/docs/docs-copy";
import { DocsHtml } from "@/features/docs/docs-html";
import { DocsSearch } from "@/features/docs/docs-search";
import { loadDocs } from "@/features/docs/server";

export const metadata: Metadata = {
  title: "Documentation",
  description:
    "How to use Abacus: the calculator, currencies and rounding, receipts, the API and self-hosting.",
};

export const dynamic = "force-static";

export default async function DocsPage() {
  const { html, tocHtml } = await loadDocs();
  // The article and the contents are static HTML that the page carries once (not again in its RSC
  // payload) and that React does not hydrate link by link (features/docs/docs-html.tsx).
  const tocList = <DocsHtml html={tocHtml} name="contents" page="/docs" />;
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[14rem_minmax(0,1fr)] lg:py-16">
      {/* Phones: a collapsed "On this page" disclosure above the content. Desktop: a sticky sidebar.
          Two copies of the list, each hidden by CSS at the other width: no client JavaScript. */}
      <details className="group rounded-lg border border-border lg:hidden">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-4 py-3 text-sm font-semibold [&::-webkit-details-marker]:hidden">
          On this page
          <ChevronDown className="size-4 transition-transform group-open:rotate-180" aria-hidden />
        </summary>
        <nav
          aria-label="Table of contents"
          className="max-h-[60dvh] overflow-y-auto border-t border-border p-2"
        >
          {tocList}
        </nav>
      </details>
      {/* The article comes before the desktop contents in the page (the grid draws that column on
          the left), so a phone's first paint is the text, before the page's scripts run. */}
      <article className="min-w-0 max-w-3xl lg:col-start-2 lg:row-start-1">
        <h1 className="text-4xl font-semibold tracking-tight">Documentation</h1>
        <DocsSearch />
        <DocsCopy />
        <DocsHtml html={html} name="article" page="/docs" className="prose-docs" />
      </article>
      <aside className="hidden lg:col-start-1 lg:row-start-1 lg:sticky lg:top-24 lg:block lg:max-h-[calc(100dvh-7rem)] lg:self-start lg:overflow-y-auto">
        <nav aria-label="Table of contents">
          <p className="mb-3 text-sm font-semibold">On this page</p>
          {tocList}
        </nav>
      </aside>
    </div>
  );
}
