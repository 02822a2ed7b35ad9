// Which price a model has: the user's (Settings → Model prices, `modelPrices`) over the default
// table, matched by the longest prefix of the model id, case aside, with or without a vendor path
// ("anthropic/claude-sonnet-4-5"). A prefix that ends in a version number does not take a longer
// version (gpt-5 is not gpt-5.1, claude-opus-4 is not claude-opus-4-6: a newer model is not priced
// as an older one), but does take a date (claude-opus-4-20250514, gpt-5-2025-08-07). No match: no
// price, and the window shows tokens only.
import { DEFAULT_PRICES, PRICES_AS_OF, type Price } from "./defaultPrices";
import { formatDay } from "../../shared/format";

/** Where a price comes from: Warden's table (as of PRICES_AS_OF) or the user. */
export type PriceSource = "default" | "user";

export interface PriceMatch {
  /** The prefix that matched, lower case. */
  readonly prefix: string;
  readonly price: Price;
  readonly source: PriceSource;
}

/** A price as the settings carry it: a number the JSON could not hold comes as null. */
export interface StoredPrice {
  readonly input: number | null;
  readonly output: number | null;
}

/** The user's prices as the settings hold them (any entry may be missing or, hand-written, wrong). */
export type UserPrices = Readonly<Partial<Record<string, StoredPrice>>> | null | undefined;

export interface PriceTable {
  /** Every price by prefix (lower case): the defaults, the user's over them. */
  readonly entries: ReadonlyMap<string, PriceMatch>;
  /** The prefixes, longest first. */
  readonly prefixes: readonly string[];
  /** Each model id's match, found once: a long conversation prices the same few ids. */
  readonly found: Map<string, PriceMatch | null>;
}

/** A price a cost can be made of: each amount a finite number, 0 or more. */
export function isUsablePrice(price: StoredPrice | null | undefined): price is Price {
  const fine = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n >= 0;
  return !!price && fine(price.input) && fine(price.output);
}

/** The table of the defaults and `user` over them (a user's entry that is no usable price is left out). */
export function priceTable(user?: UserPrices): PriceTable {
  const entries = new Map<string, PriceMatch>();
  for (const [prefix, price] of Object.entries(DEFAULT_PRICES)) entries.set(prefix, { prefix, price, source: "default" });
  for (const [key, price] of Object.entries(user ?? {})) {
    const prefix = key.trim().toLowerCase();
    if (prefix && isUsablePrice(price)) entries.set(prefix, { prefix, price: { input: price.input, output: price.output }, source: "user" });
  }
  const prefixes = [...entries.keys()].sort((a, b) => b.length - a.length);
  return { entries, prefixes, found: new Map() };
}

/** The defaults alone. */
export const DEFAULT_TABLE: PriceTable = priceTable();

// After a prefix ending in a digit: another version (".1", "5", "-6", "-45"), not a date ("-2025…").
const LONGER_VERSION = /^(?:[.\d]|-\d{1,3}(?!\d))/;

function takes(id: string, prefix: string): boolean {
  if (!id.startsWith(prefix)) return false;
  const rest = id.slice(prefix.length);
  return !(rest && /\d$/.test(prefix) && LONGER_VERSION.test(rest));
}

/** The price of `model` in `table`, or null when none is known. */
export function priceOf(table: PriceTable, model: string | null | undefined): PriceMatch | null {
  if (!model) return null;
  const cached = table.found.get(model);
  if (cached !== undefined) return cached;
  const id = model.trim().toLowerCase();
  // Ids can carry a vendor path (OpenRouter: "anthropic/claude-sonnet-4"); a user's prefix may too.
  const bare = id.slice(id.lastIndexOf("/") + 1);
  const prefix = table.prefixes.find((p) => takes(bare, p) || takes(id, p));
  const match = prefix === undefined ? null : (table.entries.get(prefix) ?? null);
  table.found.set(model, match);
  return match;
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
}

/** US dollars for `usage` at `price`. */
export function costAt(price: Price, usage: TokenCounts): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** US dollars for the given usage, or null when the model's price is not known. */
export function costOf(table: PriceTable, model: string | null | undefined, usage: TokenCounts): number | null {
  const match = priceOf(table, model);
  return match ? costAt(match.price, usage) : null;
}

let asOfWords: string | undefined;

/** "prices as of 24 Nov 2025": said beside every cost made with the default table. */
export function pricesAsOf(): string {
  if (asOfWords === undefined) {
    const [y, m, d] = PRICES_AS_OF.split("-").map(Number);
    asOfWords = `prices as of ${formatDay(new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1), true)}`;
  }
  return asOfWords;
}

/** What a cost was made with, for its title: "your price" or the table's date, and the rate. */
export function priceNote(match: PriceMatch): string {
  const rate = `$${match.price.input} in / $${match.price.output} out per million tokens (${match.prefix})`;
  return match.source === "user" ? `your price: ${rate}` : `${pricesAsOf()}: ${rate}`;
}
