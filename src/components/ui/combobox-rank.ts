export type ComboboxOption = {
  /** What is chosen (a currency code). Searched first: typing it exactly puts it on top. */
  readonly value: string;
  /** What a person reads in the list (the currency's name). Searched by word and by substring. */
  readonly label: string;
  /** Further words that find the option. */
  readonly keywords?: readonly string[];
};

/**
 * Predictable ranking instead of fuzzy matching (a fuzzy "yen" also finds "Yemeni Rial"): the value
 * itself, then values starting with the search, then labels with a word starting with it, then
 * labels containing it.
 */
export function rankOption(value: string, search: string, keywords: readonly string[] = []): number {
  const s = search.trim().toLowerCase();
  if (!s) return 1;
  const v = value.toLowerCase();
  if (v === s) return 1;
  if (v.startsWith(s)) return 0.9;
  const words = keywords.join(" ").toLowerCase();
  if (` ${words}`.includes(` ${s}`)) return 0.7;
  if (words.includes(s)) return 0.4;
  return 0;
}

/**
 * The option a search puts first, as the open list ranks it (highest rank, then list order), or
 * none when nothing matches: what Enter picks.
 */
export function bestMatch<T extends ComboboxOption>(options: readonly T[], search: string): T | undefined {
  if (!search.trim()) return undefined;
  let best: T | undefined;
  let bestRank = 0;
  for (const o of options) {
    const rank = rankOption(o.value, search, [o.label, ...(o.keywords ?? [])]);
    if (rank > bestRank) {
      best = o;
      bestRank = rank;
    }
  }
  return best;
}

/**
 * A closed select's typeahead for one printable key, as a native select does it: the next option
 * after the chosen one (wrapping round) whose label starts with that letter, or none.
 */
export function nextByLetter<T extends { readonly value: string; readonly label: string }>(
  options: readonly T[],
  current: string,
  key: string,
): T | undefined {
  if ([...key].length !== 1 || !key.trim()) return undefined;
  const letter = key.toLocaleLowerCase();
  const start = options.findIndex((o) => o.value === current);
  for (let step = 1; step <= options.length; step++) {
    const option = options[(start + step + options.length) % options.length];
    if (option?.label.toLocaleLowerCase().startsWith(letter)) return option;
  }
  return undefined;
}
