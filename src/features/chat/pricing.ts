// What a model costs and how much it can hold, for the context gauge and the running cost.
// Prices in USD per million tokens (input, output), matched by the longest known prefix of the
// model id. A model not listed shows tokens only — a guessed price would be worse than none.

interface ModelFacts {
  input?: number;
  output?: number;
  window: number;
}

const KNOWN: Record<string, ModelFacts> = {
  "claude-opus-4-5": { input: 5, output: 25, window: 200_000 },
  "claude-opus-4": { input: 15, output: 75, window: 200_000 },
  "claude-sonnet-4": { input: 3, output: 15, window: 200_000 },
  "claude-3-7-sonnet": { input: 3, output: 15, window: 200_000 },
  "claude-3-5-sonnet": { input: 3, output: 15, window: 200_000 },
  "claude-haiku-4-5": { input: 1, output: 5, window: 200_000 },
  "claude-3-5-haiku": { input: 0.8, output: 4, window: 200_000 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, window: 128_000 },
  "gpt-4o": { input: 2.5, output: 10, window: 128_000 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, window: 1_047_576 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, window: 1_047_576 },
  "gpt-4.1": { input: 2, output: 8, window: 1_047_576 },
  "gpt-5-mini": { input: 0.25, output: 2, window: 400_000 },
  "gpt-5-nano": { input: 0.05, output: 0.4, window: 400_000 },
  "gpt-5": { input: 1.25, output: 10, window: 400_000 },
  "o4-mini": { input: 1.1, output: 4.4, window: 200_000 },
  o3: { input: 2, output: 8, window: 200_000 },
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
  if (!f || f.input === undefined || f.output === undefined) return null;
  return (usage.inputTokens * f.input + usage.outputTokens * f.output) / 1_000_000;
}

/** The window the settings give for a model (the user's override, or what the model list reported). */
export interface ConfiguredWindow {
  /** The model it is for; null = the provider's default model. */
  model: string | null;
  window: number | null;
}

export function contextWindowOf(model: string | null | undefined, configured?: ConfiguredWindow | null): number | null {
  // A window configured for another model than the one this conversation talks to does not apply.
  const applies = configured && configured.window && configured.window > 0 && (!configured.model || configured.model === model);
  if (applies) return configured.window;
  return modelFacts(model)?.window ?? null;
}
