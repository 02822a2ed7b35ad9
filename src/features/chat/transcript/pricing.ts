// What a model costs, for the running cost beside the context gauge (the context window itself
// comes from the engine, on chat:stream-start). Prices in USD per million tokens (input, output),
// matched by the longest known prefix of the model id. A model not listed shows no cost — a
// guessed price would be worse than none.

interface ModelFacts {
  input: number;
  output: number;
}

const KNOWN: Record<string, ModelFacts> = {
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-opus-4": { input: 15, output: 75 },
  "claude-sonnet-4": { input: 3, output: 15 },
  "claude-3-7-sonnet": { input: 3, output: 15 },
  "claude-3-5-sonnet": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  "claude-3-5-haiku": { input: 0.8, output: 4 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-5-mini": { input: 0.25, output: 2 },
  "gpt-5-nano": { input: 0.05, output: 0.4 },
  "gpt-5": { input: 1.25, output: 10 },
  "o4-mini": { input: 1.1, output: 4.4 },
  o3: { input: 2, output: 8 },
};

const PREFIXES = Object.keys(KNOWN).sort((a, b) => b.length - a.length);

export function modelFacts(model: string | null | undefined): ModelFacts | null {
  if (!model) return null;
  // Ids can carry a vendor path (OpenRouter: "anthropic/claude-sonnet-4").
  const id = model.toLowerCase().split("/").pop() ?? "";
  const key = PREFIXES.find((p) => id.startsWith(p));
  return key ? KNOWN[key]! : null;
}

export interface UsageLike {
  inputTokens: number;
  outputTokens: number;
}

/** USD for the given usage, or null when the model's price is not known. */
export function costOf(model: string | null | undefined, usage: UsageLike): number | null {
  const f = modelFacts(model);
  if (!f) return null;
  return (usage.inputTokens * f.input + usage.outputTokens * f.output) / 1_000_000;
}
