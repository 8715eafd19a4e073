/**
 * JSON that names one key twice in an object means different things to different readers:
 * `JSON.parse` keeps the last value, other parsers the first, a person may read either. A signed
 * document must not be open to that, so its verifiers refuse such text outright (I-JSON, RFC 7493,
 * forbids it too).
 */

export type DuplicateKey = {
  /** The repeated key, unescaped. */
  key: string;
  /** The keys (and array positions) leading to the object that repeats it; empty at the top. */
  path: string[];
};

/**
 * The first key that an object of this JSON text repeats, or undefined. Expects text that
 * `JSON.parse` accepts (call it after parsing); one pass, no recursion, so any accepted text is safe.
 */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  type Frame = { keys: Set<string> | null; name: string; index: number };
  const stack: Frame[] = [];
  let expectKey = false;
  let lastKey = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const top = stack.at(-1);
      if (top?.keys && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return { key, path: stack.slice(1).map((f) => f.name) };
        top.keys.add(key);
        lastKey = key;
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === "{" || c === "[") {
      const parent = stack.at(-1);
      const name = parent ? (parent.keys ? lastKey : String(parent.index)) : "";
      stack.push({ keys: c === "{" ? new Set() : null, name, index: 0 });
      expectKey = c === "{";
    } else if (c === "}" || c === "]") {
      stack.pop();
      expectKey = false;
    } else if (c === ",") {
      const top = stack.at(-1);
      if (top) {
        top.index += 1;
        expectKey = top.keys !== null;
      }
    }
    i += 1;
  }
  return undefined;
}
