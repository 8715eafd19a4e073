import "server-only";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type RenderedDoc, renderMarkdown, renderToc } from "./markdown";

const DOCS_DIR = path.join(process.cwd(), "content", "docs");

/**
 * Reads every `content/docs/*.md` in file-name order and renders them as one page, with its table
 * of contents as HTML too. The docs page is static, so this runs at build time, not per request.
 */
export async function loadDocs(): Promise<RenderedDoc & { tocHtml: string }> {
  const files = (await readdir(DOCS_DIR)).filter((name) => name.endsWith(".md")).sort();
  const parts = await Promise.all(files.map((name) => readFile(path.join(DOCS_DIR, name), "utf8")));
  const doc = await renderMarkdown(parts.join("\n\n"));
  return { ...doc, tocHtml: renderToc(doc.toc) };
}
