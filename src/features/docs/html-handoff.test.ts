import { describe, expect, it } from "vitest";
import { contentKey, handOff, takeHtml } from "./html-handoff";

describe("html handoff", () => {
  it("keys a string by its content, the same in every module graph", () => {
    expect(contentKey("<p>a</p>")).toBe(contentKey("<p>a</p>"));
    expect(contentKey("<p>a</p>")).not.toBe(contentKey("<p>b</p>"));
    expect(contentKey("<p>a</p>")).toMatch(/^[0-9a-z]+$/);
  });

  it("gives the render what the server component left, by key", () => {
    const html = `<section><h2 id="x">X</h2><p>${"text ".repeat(1000)}</p></section>`;
    const key = handOff(html);
    expect(key).toBe(contentKey(html));
    expect(takeHtml(key)).toBe(html);
  });

  it("refuses a key nothing was left under, rather than render an empty article", () => {
    expect(() => takeHtml("nothing-here")).toThrow(/No HTML was handed off under nothing-here/);
  });
});
