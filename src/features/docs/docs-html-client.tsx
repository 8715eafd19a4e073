"use client";

import { useEffect, useRef } from "react";
import { takeHtml } from "./html-handoff";

const pages = new Map<string, Promise<Document>>();
/** The page's server HTML, parsed (once per path while this document lives). */
function pageDocument(path: string): Promise<Document> {
  let page = pages.get(path);
  if (!page) {
    page = fetch(path, { credentials: "same-origin", headers: { accept: "text/html" } })
      .then((response) => {
        if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
        return response.text();
      })
      .then((text) => new DOMParser().parseFromString(text, "text/html"));
    pages.set(path, page);
    page.catch(() => pages.delete(path));
  }
  return page;
}

/**
 * The server renders the HTML into the element (it reads it from html-handoff.ts, not from its
 * props, so the RSC payload carries only a key). In the browser the element renders empty: on a
 * first load React hydrates it as it is (it never compares `dangerouslySetInnerHTML` while
 * hydrating, and keeps the server's nodes), so the text is on screen before any script runs. When
 * the page is reached by a client-side navigation (only the RSC payload is fetched), the element
 * starts empty, and the page's HTML is fetched (a cached static page) to fill it; if that fails,
 * the page is loaded the ordinary way.
 */
export function DocsHtmlClient({ htmlKey, name, page, className }: DocsHtmlProps & { htmlKey: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || element.hasChildNodes()) return;
    let live = true;
    pageDocument(page).then(
      (document_) => {
        const source = document_.querySelector(`[data-docs-html="${name}"]`);
        if (!live) return;
        if (!source) {
          window.location.assign(page);
          return;
        }
        element.innerHTML = source.innerHTML;
        const target =
          window.location.hash && document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
        if (target) target.scrollIntoView();
      },
      () => {
        if (live) window.location.assign(page);
      },
    );
    return () => {
      live = false;
    };
  }, [name, page]);
  return (
    <div
      ref={ref}
      data-docs-html={name}
      className={className}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: built from our own Markdown (markdown.ts drops raw HTML)
      dangerouslySetInnerHTML={{ __html: typeof window === "undefined" ? takeHtml(htmlKey) : "" }}
    />
  );
}

export type DocsHtmlProps = {
  /** Which part of the page this is ("article", "contents"): found again by it after a navigation. */
  name: string;
  /** The page's path, fetched for its HTML when the page is reached by a client-side navigation. */
  page: string;
  className?: string;
};
