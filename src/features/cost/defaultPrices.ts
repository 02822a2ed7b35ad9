// The prices Warden knows without being told: US dollars per million tokens (input, output), as
// the providers' own pricing pages gave them on PRICES_AS_OF. Prices change, so every cost shown
// says that date, and Settings → Model prices changes any of them or adds others (docs/COST.md).
// A model matched by none shows its tokens only: a guessed price would be worse than none.
//
// Keys are model id prefixes, matched longest first (prices.ts). List a variant whose price
// differs from its family's (gpt-5-pro under gpt-5, o3-mini under o3): the shorter key would
// otherwise price it. No cached-input price: the usage the engine reports counts cached prompt
// tokens as input, so a cached prompt is priced at the input rate (an upper bound).

/** A price: US dollars per million input tokens and per million output tokens. */
export interface Price {
  readonly input: number;
  readonly output: number;
}

/** The day the default prices were checked against the providers' pages (ISO date). */
export const PRICES_AS_OF = "2025-11-24";

export const DEFAULT_PRICES: Readonly<Record<string, Price>> = {
  // Anthropic
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-opus-4-1": { input: 15, output: 75 },
  "claude-opus-4": { input: 15, output: 75 },
  "claude-sonnet-4-5": { input: 3, output: 15 },
  "claude-sonnet-4": { input: 3, output: 15 },
  "claude-3-7-sonnet": { input: 3, output: 15 },
  "claude-3-5-sonnet": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  "claude-3-5-haiku": { input: 0.8, output: 4 },
  "claude-3-opus": { input: 15, output: 75 },
  "claude-3-haiku": { input: 0.25, output: 1.25 },
  // OpenAI
  "gpt-5.1": { input: 1.25, output: 10 },
  "gpt-5.1-codex-mini": { input: 0.25, output: 2 },
  "gpt-5": { input: 1.25, output: 10 },
  "gpt-5-mini": { input: 0.25, output: 2 },
  "gpt-5-nano": { input: 0.05, output: 0.4 },
  "gpt-5-pro": { input: 15, output: 120 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  o1: { input: 15, output: 60 },
  "o1-mini": { input: 1.1, output: 4.4 },
  "o1-pro": { input: 150, output: 600 },
  o3: { input: 2, output: 8 },
  "o3-mini": { input: 1.1, output: 4.4 },
  "o3-pro": { input: 20, output: 80 },
  "o3-deep-research": { input: 10, output: 40 },
  "o4-mini": { input: 1.1, output: 4.4 },
  "o4-mini-deep-research": { input: 2, output: 8 },
};
