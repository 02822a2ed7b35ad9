import { describe, expect, it } from "vitest";
import { costOf, modelFacts } from "./pricing";

describe("pricing", () => {
  it("matches the longest known prefix, with or without a vendor path", () => {
    expect(modelFacts("gpt-4o-mini-2024-07-18")?.input).toBe(0.15);
    expect(modelFacts("gpt-4o-2024-08-06")?.input).toBe(2.5);
    expect(modelFacts("anthropic/claude-sonnet-4-5")?.output).toBe(15);
    expect(modelFacts("llama3.2:3b")).toBeNull();
  });

  it("prices usage per million tokens and knows nothing about unknown models", () => {
    expect(costOf("claude-sonnet-4-5-20250929", { inputTokens: 1_000_000, outputTokens: 100_000 })).toBeCloseTo(4.5);
    expect(costOf("qwen3:8b", { inputTokens: 10, outputTokens: 10 })).toBeNull();
  });
});
