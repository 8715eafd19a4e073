const rules = new Intl.PluralRules("en-US");

/**
 * A count with its noun in the right form: `plural(1, "order")` is "1 order", `plural(3, "order")`
 * "3 orders". Irregular plurals are passed: `plural(2, "match", "matches")`. The number is written
 * with thousands separators.
 */
export function plural(count: number | bigint, one: string, other = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${pluralWord(count, one, other)}`;
}

/** Only the noun, for when the number is drawn apart from it. */
export function pluralWord(count: number | bigint, one: string, other = `${one}s`): string {
  return rules.select(Number(count)) === "one" ? one : other;
}
