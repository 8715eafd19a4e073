import { describe, expect, it } from "vitest";
import { renderMarkdown, renderToc } from "./markdown";

describe("renderMarkdown", () => {
  it("anchors headings and builds a table of contents from h2 and h3", async () => {
    const { html, toc } = await renderMarkdown(
      "## Getting started\n\nText.\n\n### Run it `locally`\n\n#### Deep\n",
    );
    expect(html).toContain('<h2 id="getting-started">Getting started</h2>');
    expect(html).toContain('<h3 id="run-it-locally">');
    expect(toc).toEqual([
      { id: "getting-started", text: "Getting started", depth: 2 },
      { id: "run-it-locally", text: "Run it locally", depth: 3 },
    ]);
  });

  it("renders GFM tables and drops raw HTML", async () => {
    const { html } = await renderMarkdown("| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script>\n");
    expect(html).toContain('<table tabindex="0">');
    expect(html).not.toContain("<script>");
  });

  it("gives repeated headings distinct ids", async () => {
    const { toc } = await renderMarkdown("## Limits\n\n## Limits\n");
    expect(toc.map((entry) => entry.id)).toEqual(["limits", "limits-1"]);
  });

  it("puts each h2 and what follows it in its own section", async () => {
    const { html } = await renderMarkdown("Intro.\n\n## One\n\nA.\n\n### Sub\n\nB.\n\n## Two\n\nC.\n");
    const compact = html.replace(/\n/g, "");
    expect(compact).toBe(
      '<p>Intro.</p><section><h2 id="one">One</h2><p>A.</p><h3 id="sub">Sub</h3><p>B.</p></section>' +
        '<section><h2 id="two">Two</h2><p>C.</p></section>',
    );
  });

  it("gives each code block a Copy button and makes code and tables reachable by keyboard", async () => {
    const { html } = await renderMarkdown("```sh\nnpm start\n```\n\n| a |\n|---|\n| 1 |\n");
    const compact = html.replace(/\n/g, "");
    expect(compact).toContain(
      '<div class="docs-code"><pre tabindex="0"><code class="language-sh">npm start</code></pre>' +
        '<button type="button" class="docs-copy" data-copy="">Copy</button></div>',
    );
    expect(compact).toContain('<table tabindex="0">');
  });

  it("renders the table of contents as one escaped list, h3 entries indented", () => {
    expect(
      renderToc([
        { id: "a-b", text: "Fees & <limits>", depth: 2 },
        { id: 'quote-"x"', text: "Sub", depth: 3 },
      ]),
    ).toBe(
      '<ol class="docs-toc"><li><a href="#a-b">Fees &amp; &lt;limits&gt;</a></li>' +
        '<li class="sub"><a href="#quote-&quot;x&quot;">Sub</a></li></ol>',
    );
  });
});
