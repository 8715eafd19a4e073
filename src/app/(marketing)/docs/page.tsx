import { ChevronDown } from "lucide-react";
import type { Metadata } from "next";
import { DocsCopy } from "@/features/docs/docs-copy";
import { DocsSearch } from "@/features/docs/docs-search";
import { loadDocs } from "@/features/docs/server";

export const metadata: Metadata = {
  title: "Documentation",
  description:
    "How to use Abacus: the calculator, currencies and rounding, receipts, the API and self-hosting.",
};

export const dynamic = "force-static";

export default async function DocsPage() {
  const { html, toc } = await loadDocs();
  // One element for both copies of the list: the RSC payload carries it once and refers to it the
  // second time (the HTML still has both).
  const tocList = tocListOf(toc);
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
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered at build time from our own Markdown; remark-rehype drops raw HTML */}
        <div className="prose-docs" dangerouslySetInnerHTML={{ __html: html }} />
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

function tocListOf(toc: Awaited<ReturnType<typeof loadDocs>>["toc"]) {
  return (
    <ol className="docs-toc">
      {toc.map((entry) => (
        <li key={entry.id} className={entry.depth === 3 ? "sub" : undefined}>
          <a href={`#${entry.id}`}>{entry.text}</a>
        </li>
      ))}
    </ol>
  );
}
