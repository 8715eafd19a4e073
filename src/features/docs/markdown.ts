import type { Element, Root } from "hast";
import rehypeSlug from "rehype-slug";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

export type TocEntry = { id: string; text: string; depth: 2 | 3 };
export type RenderedDoc = { html: string; toc: TocEntry[] };

function textOf(node: Element | Root): string {
  let out = "";
  for (const child of node.children) {
    if (child.type === "text") out += child.value;
    else if (child.type === "element") out += textOf(child);
  }
  return out;
}

/**
 * Code blocks and tables scroll sideways on narrow screens; a scrollable region must be reachable by
 * keyboard (WCAG 2.1.1, axe "scrollable-region-focusable"), so each `<pre>` and `<table>` is
 * focusable. Each `<pre>` also gets a Copy button beside it, plain markup: one delegated click
 * handler on the page (docs-copy.tsx) serves them all.
 */
function codeBlocksAndTables() {
  return () => (tree: Root) => {
    const visit = (node: Root | Element) => {
      node.children = node.children.map((child) => {
        if (child.type !== "element") return child;
        if (child.tagName === "table") child.properties.tabIndex = 0;
        if (child.tagName !== "pre") {
          visit(child);
          return child;
        }
        child.properties.tabIndex = 0;
        const copy: Element = {
          type: "element",
          tagName: "button",
          properties: { type: "button", className: ["docs-copy"], dataCopy: "" },
          children: [{ type: "text", value: "Copy" }],
        };
        return {
          type: "element",
          tagName: "div",
          properties: { className: ["docs-code"] },
          children: [child, copy],
        };
      }) as typeof node.children;
    };
    visit(tree);
  };
}

/**
 * Wraps each h2 and what follows it, up to the next h2, in a `<section>`: the page's CSS gives
 * sections `content-visibility: auto`, so the browser lays out and paints only the sections near the
 * viewport (the docs are one long page of ~85 headings). Anchors, find-in-page and screen readers
 * still reach every section.
 */
function sectionsByH2() {
  return () => (tree: Root) => {
    const children: Root["children"] = [];
    let section: Element | undefined;
    for (const child of tree.children) {
      if (child.type === "element" && child.tagName === "h2") {
        section = { type: "element", tagName: "section", properties: {}, children: [] };
        children.push(section);
      }
      if (section) section.children.push(child as Element["children"][number]);
      else children.push(child);
    }
    tree.children = children;
  };
}

/** Collects h2/h3 headings (after rehype-slug gave them ids) into a table of contents. */
function collectToc(toc: TocEntry[]) {
  return () => (tree: Root) => {
    const visit = (node: Root | Element) => {
      for (const child of node.children) {
        if (child.type !== "element") continue;
        if ((child.tagName === "h2" || child.tagName === "h3") && typeof child.properties.id === "string") {
          toc.push({ id: child.properties.id, text: textOf(child), depth: child.tagName === "h2" ? 2 : 3 });
        }
        visit(child);
      }
    };
    visit(tree);
  };
}

/**
 * Markdown (GitHub flavoured) to HTML with anchored headings. Raw HTML in the source is dropped
 * (remark-rehype's default), so the output is safe to inject.
 */
export async function renderMarkdown(source: string): Promise<RenderedDoc> {
  const toc: TocEntry[] = [];
  const file = await unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype)
    .use(rehypeSlug)
    .use(collectToc(toc))
    .use(codeBlocksAndTables())
    .use(sectionsByH2())
    .use(rehypeStringify)
    .process(source);
  return { html: String(file), toc };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

/** The table of contents as HTML: an ordered list of links to the headings, h3 entries indented. */
export function renderToc(toc: readonly TocEntry[]): string {
  const items = toc.map(
    (entry) =>
      `<li${entry.depth === 3 ? ' class="sub"' : ""}><a href="#${escapeHtml(entry.id)}">${escapeHtml(entry.text)}</a></li>`,
  );
  return `<ol class="docs-toc">${items.join("")}</ol>`;
}
