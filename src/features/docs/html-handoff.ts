/**
 * Hands a string of HTML from a server component to the server-side render of a client component
 * without putting it in the RSC payload (docs-html.tsx). Next.js renders the RSC payload and then
 * the HTML from it in one process, one after the other, but in two module graphs: the string is
 * left on `globalThis` under a key made from its content, and only the key travels in the payload.
 * Bounded by the number of distinct strings handed off (the docs' article and contents).
 */
const STORE = Symbol.for("abacus.docs.html-handoff");
type Holder = { [STORE]?: Map<string, string> };

function store(): Map<string, string> {
  const holder = globalThis as Holder;
  holder[STORE] ??= new Map();
  return holder[STORE];
}

/** A short, stable key for `text` (cyrb53: 53 bits, enough to tell a handful of documents apart). */
export function contentKey(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** Leaves `html` for the HTML render; returns its key. */
export function handOff(html: string): string {
  const key = contentKey(html);
  store().set(key, html);
  return key;
}

/** The HTML left under `key`. Throws when there is none: a page must never render an empty article. */
export function takeHtml(key: string): string {
  const html = store().get(key);
  if (html === undefined) throw new Error(`No HTML was handed off under ${key}`);
  return html;
}
