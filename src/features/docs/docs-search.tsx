"use client";

import { Search } from "lucide-react";
import { useId, useRef, useState } from "react";

type Entry = { id: string; title: string; text: string };
type Hit = { id: string; title: string; snippet: string };

const MAX_HITS = 8;

/**
 * The docs' search: every h2/h3 of the article and the text under it, read from the page itself the
 * first time the box is used (no index to download; the whole manual is already in the HTML).
 * Every word typed must appear in a section; a match in its heading ranks first.
 */
function indexOf(article: Element): Entry[] {
  const entries: Entry[] = [];
  let current: Entry | null = null;
  const walk = (node: Element) => {
    for (const child of node.children) {
      if ((child.tagName === "H2" || child.tagName === "H3") && child.id) {
        current = { id: child.id, title: child.textContent ?? "", text: "" };
        entries.push(current);
      } else if (child.tagName === "SECTION" || child.tagName === "DIV") {
        walk(child);
      } else if (current && child.tagName !== "BUTTON") {
        current.text += ` ${child.textContent ?? ""}`;
      }
    }
  };
  walk(article);
  return entries;
}

function search(entries: Entry[], query: string): Hit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const scored: { hit: Hit; score: number }[] = [];
  for (const entry of entries) {
    const title = entry.title.toLowerCase();
    const text = entry.text.toLowerCase();
    if (!words.every((w) => title.includes(w) || text.includes(w))) continue;
    const inTitle = words.filter((w) => title.includes(w)).length;
    const at = text.indexOf(words[0] ?? "");
    const start = Math.max(0, at - 40);
    const snippet =
      at < 0
        ? entry.text.trim().slice(0, 110)
        : `${start > 0 ? "…" : ""}${entry.text.slice(start, start + 110).trim()}…`;
    scored.push({
      hit: { id: entry.id, title: entry.title, snippet: snippet.replace(/\s+/g, " ") },
      score: inTitle,
    });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_HITS)
    .map((s) => s.hit);
}

export function DocsSearch() {
  const id = useId();
  const entries = useRef<Entry[] | null>(null);
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<Hit[]>([]);
  const run = (value: string) => {
    setQuery(value);
    if (!entries.current) {
      const article = document.querySelector(".prose-docs");
      entries.current = article ? indexOf(article) : [];
    }
    setHits(search(entries.current, value));
  };
  const go = (hit: Hit | undefined) => {
    if (!hit) return;
    window.location.hash = hit.id;
    setQuery("");
    setHits([]);
  };
  return (
    <search className="relative mt-6">
      <label htmlFor={`${id}-q`} className="sr-only">
        Search the documentation
      </label>
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden
        />
        <input
          id={`${id}-q`}
          type="search"
          value={query}
          autoComplete="off"
          placeholder="Search the docs (e.g. rounding, webhook)"
          aria-controls={`${id}-hits`}
          onChange={(event) => run(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              go(hits[0]);
            } else if (event.key === "Escape") run("");
          }}
          className="h-10 w-full rounded-md border border-input bg-background pr-3 pl-9 text-base shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring sm:text-sm"
        />
      </div>
      <div id={`${id}-hits`} aria-live="polite">
        {query.trim() ? (
          hits.length ? (
            <ul
              aria-label="Search results"
              className="mt-2 grid gap-1 rounded-lg border border-border bg-card p-1"
            >
              {hits.map((hit) => (
                <li key={hit.id}>
                  <a
                    href={`#${hit.id}`}
                    onClick={() => {
                      setQuery("");
                      setHits([]);
                    }}
                    className="block rounded-md px-3 py-2 hover:bg-muted focus-visible:bg-muted"
                  >
                    <span className="block text-sm font-medium">{hit.title}</span>
                    <span className="block text-xs text-muted-foreground">{hit.snippet}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-muted-foreground">No section mentions “{query.trim()}”.</p>
          )
        ) : null}
      </div>
    </search>
  );
}
