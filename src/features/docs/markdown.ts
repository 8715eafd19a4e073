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
 * Code blocks scroll sideways on narrow screens; a scrollable region must be reachable by keyboard
 * (WCAG 2.1.1, axe "scrollable-region-focusable"), so each `<pre>` is focusable.
 */
function focusableCodeBlocks() {
  return () => (tree: Root) => {
    const visit = (node: Root | Element) => {
      for (const child of node.children) {
        if (child.type !== "element") continue;
        if (child.tagName === "pre") child.properties.tabIndex = 0;
        visit(child);
      }
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
    .use(focusableCodeBlocks())
    .use(sectionsByH2())
    .use(rehypeStringify)
    .process(source);
  return { html: String(file), toc };
}
