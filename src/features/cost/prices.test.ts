import { describe, expect, it } from "vitest";
import { formatDay } from "../../shared/format";
import { DEFAULT_PRICES, PRICES_AS_OF } from "./defaultPrices";
import { costOf, DEFAULT_TABLE, priceNote, priceOf, pricesAsOf, priceTable } from "./prices";

const input = (model: string, table = DEFAULT_TABLE) => priceOf(table, model)?.price.input ?? null;

describe("the default price table", () => {
  it("is dated: one ISO day, not in the future, and every price a number of dollars, 0 or more", () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(`${PRICES_AS_OF}T00:00:00Z`).getTime()).toBeLessThanOrEqual(Date.now());
    for (const [prefix, price] of Object.entries(DEFAULT_PRICES)) {
      expect(prefix).toBe(prefix.toLowerCase());
      expect(Number.isFinite(price.input) && price.input >= 0, prefix).toBe(true);
      expect(Number.isFinite(price.output) && price.output >= 0, prefix).toBe(true);
    }
  });

  it("says its date the way the window writes days", () => {
    const [y, m, d] = PRICES_AS_OF.split("-").map(Number);
    expect(pricesAsOf()).toBe(`prices as of ${formatDay(new Date(y!, m! - 1, d!), true)}`);
  });
});

describe("matching a model to its price", () => {
  it("takes the longest known prefix, with or without a vendor path, whatever the case", () => {
    expect(input("gpt-4o-mini-2024-07-18")).toBe(0.15);
    expect(input("gpt-4o-2024-08-06")).toBe(2.5);
    expect(input("openai/GPT-5-mini")).toBe(0.25);
    expect(priceOf(DEFAULT_TABLE, "anthropic/claude-sonnet-4-5")?.price.output).toBe(15);
    expect(priceOf(DEFAULT_TABLE, "claude-sonnet-4-5-20250929")?.prefix).toBe("claude-sonnet-4-5");
    expect(input("gpt-5-pro-2025-10-06")).toBe(15);
    expect(input("o3-mini")).toBe(1.1);
    expect(input("o3-2025-04-16")).toBe(2);
  });

  it("takes a dated release of a version but never prices a newer version as an older one", () => {
    expect(input("claude-opus-4-20250514")).toBe(15);
    expect(input("claude-opus-4-5-20251101")).toBe(5);
    expect(input("gpt-5-2025-08-07")).toBe(1.25);
    expect(input("gpt-4.1-2025-04-14")).toBe(2);
    // Not listed: no price rather than the family's.
    expect(priceOf(DEFAULT_TABLE, "claude-opus-4-6")).toBeNull();
    expect(priceOf(DEFAULT_TABLE, "gpt-5.2")).toBeNull();
    expect(priceOf(DEFAULT_TABLE, "gpt-4.5-preview")).toBeNull();
  });

  it("knows nothing of a model no prefix matches: no price, never a guess", () => {
    for (const model of ["llama3.2:3b", "qwen3:8b", "smollm2", "my-finetune", "", null, undefined]) {
      expect(priceOf(DEFAULT_TABLE, model)).toBeNull();
      expect(costOf(DEFAULT_TABLE, model, { inputTokens: 10, outputTokens: 10 })).toBeNull();
    }
  });

  it("prices usage per million tokens", () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000 };
    expect(costOf(DEFAULT_TABLE, "claude-sonnet-4-5-20250929", usage)).toBeCloseTo(4.5);
    expect(costOf(DEFAULT_TABLE, "gpt-5-nano", { inputTokens: 2_000, outputTokens: 1_000 })).toBeCloseTo(0.0005);
  });
});

describe("the user's prices", () => {
  const table = priceTable({
    "GPT-5": { input: 2, output: 20 },
    "my-local": { input: 0, output: 0 },
    "openrouter/some-model": { input: 1, output: 1 },
    broken: { input: -1, output: 1 },
    empty: { input: null, output: 3 },
  });

  it("replace a default of the same prefix, add models of their own, and match without case", () => {
    expect(priceOf(table, "gpt-5-2025-08-07")).toMatchObject({ prefix: "gpt-5", source: "user", price: { input: 2, output: 20 } });
    // A longer default prefix still wins over a shorter user one.
    expect(priceOf(table, "gpt-5-mini")).toMatchObject({ prefix: "gpt-5-mini", source: "default" });
    expect(priceOf(table, "my-local:7b")).toMatchObject({ source: "user", price: { input: 0, output: 0 } });
    expect(priceOf(table, "openrouter/some-model")?.source).toBe("user");
    expect(costOf(table, "my-local", { inputTokens: 5_000, outputTokens: 5_000 })).toBe(0);
  });

  it("leave out an entry that is no price (a hand-written file)", () => {
    expect(priceOf(table, "broken")).toBeNull();
    expect(priceOf(table, "empty")).toBeNull();
  });

  it("are said as the user's; the defaults by their date", () => {
    expect(priceNote(priceOf(table, "gpt-5")!)).toMatch(/^your price: \$2 in \/ \$20 out per million tokens/);
    expect(priceNote(priceOf(table, "claude-haiku-4-5")!)).toBe(`${pricesAsOf()}: $1 in / $5 out per million tokens (claude-haiku-4-5)`);
  });
});
