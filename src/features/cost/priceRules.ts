// What Settings → Model prices accepts, as the engine does when the settings are saved
// (warden-core `config/prices.rs`): a model prefix of 1 to 100 characters without spaces, an
// amount that is a number of dollars, 0 or more; at most 500 prices.

export const MAX_PRICE_PREFIX = 100;
export const MAX_PRICES = 500;

/** The amount typed, in dollars, or null when it is none. */
export function parseAmount(text: string): number | null {
  const t = text.trim();
  if (!/^\d*\.?\d+$|^\d+\.$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Why the amount typed cannot be a price, or null when it can. */
export function amountProblem(text: string): string | null {
  if (text.trim() === "") return "Give a price: dollars per million tokens (0 for free).";
  return parseAmount(text) === null ? "A price is a number of dollars, 0 or more (like 1.25)." : null;
}

/** The prefix as it is kept: trimmed, lower case (prices match model ids without case). */
export function normalPrefix(text: string): string {
  return text.trim().toLowerCase();
}

/** Why `prefix` cannot name a new price, or null when it can; `taken` says whether the table lists it. */
export function prefixProblem(prefix: string, taken: (prefix: string) => boolean, count: number): string | null {
  const p = normalPrefix(prefix);
  if (!p) return "Give the model: its id or the start of it, like gpt-5 or claude-sonnet-4-5.";
  if (p.length > MAX_PRICE_PREFIX) return `A model id of at most ${MAX_PRICE_PREFIX} characters.`;
  if (/[\s\p{Cc}]/u.test(p)) return "A model id has no spaces.";
  if (taken(p)) return `${p} is in the table already: change its prices there.`;
  if (count >= MAX_PRICES) return `At most ${MAX_PRICES} prices of your own.`;
  return null;
}
