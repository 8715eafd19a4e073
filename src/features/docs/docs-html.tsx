import { DocsHtmlClient, type DocsHtmlProps } from "./docs-html-client";
import { handOff } from "./html-handoff";

/**
 * Static HTML (rendered at build time from our own Markdown) that the page carries once: in its
 * HTML, not again in the RSC payload, and that React does not hydrate node by node. See
 * docs-html-client.tsx for how it gets there and what a client-side navigation does.
 */
export function DocsHtml({ html, name, page, className }: DocsHtmlProps & { html: string }) {
  return <DocsHtmlClient htmlKey={handOff(html)} name={name} page={page} className={className} />;
}
