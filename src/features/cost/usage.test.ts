import { describe, expect, it } from "vitest";
import { emptyAssistant, emptyConversation } from "../../shared/store/empty";
import type { AssistantMessage, Conversation } from "../../shared/store/types";
import { formatCost } from "../../shared/format";
import { DEFAULT_TABLE, priceTable } from "./prices";
import { conversationTotal, modelsTotal } from "./usage";
import { totalCost, totalPricedBy } from "./costWords";

function answer(id: string, model: string | null, usage: [number, number] | null, over: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    ...emptyAssistant(id),
    streaming: false,
    model,
    usage: usage ? { inputTokens: usage[0], outputTokens: usage[1] } : null,
    ...over,
  };
}

function conversation(...answers: AssistantMessage[]): Conversation {
  const c = emptyConversation("c1");
  answers.forEach((a, i) => {
    const user = `u${i}`;
    c.messageIds.push(user, a.id);
    c.messages[user] = { kind: "user", id: user, text: "go", at: null };
    c.messages[a.id] = a;
  });
  return c;
}

describe("a conversation's total", () => {
  it("adds each answer's tokens once and the cost of those with a price", () => {
    const c = conversation(
      answer("a1", "claude-sonnet-4-5", [100_000, 10_000]),
      answer("a2", "claude-sonnet-4-5", [200_000, 20_000]),
      answer("a3", "gpt-5-mini", [1_000_000, 0]),
    );
    const total = conversationTotal(c, DEFAULT_TABLE);
    expect(total).toMatchObject({ inputTokens: 1_300_000, outputTokens: 30_000, answers: 3, priced: 3, unpriced: 0, byUser: 0 });
    // 0.3 M in × $3 + 30 k out × $15 + 1 M in × $0.25
    expect(total.cost).toBeCloseTo(0.9 + 0.45 + 0.25);
    expect(totalCost(total)).toBe("$1.60");
    expect(totalPricedBy(total)).toMatch(/^prices as of /);
  });

  it("counts tokens only for an unknown model, and for an answer that names no model (never the conversation's)", () => {
    const c = {
      ...conversation(answer("a1", "llama3.2:3b", [1500, 20]), answer("a2", null, [500, 5]), answer("a3", "gpt-5", [1_000_000, 0])),
      model: "gpt-5",
    };
    const total = conversationTotal(c, DEFAULT_TABLE);
    expect(total).toMatchObject({ inputTokens: 1_002_000, outputTokens: 25, answers: 3, priced: 1, unpriced: 2 });
    expect(total.cost).toBeCloseTo(1.25);
    expect(totalPricedBy(total)).toContain("2 answers of models with no price: tokens only");
    const local = conversationTotal(conversation(answer("a1", "qwen3:8b", [10, 10])), DEFAULT_TABLE);
    expect(totalCost(local)).toBeNull();
  });

  it("leaves out answers without usage and the one still streaming", () => {
    const c = conversation(
      answer("a1", "gpt-5", null, { estimatedContext: 1234 }),
      answer("a2", "gpt-5", null, { streaming: true }),
      answer("a3", "gpt-5", [10, 10]),
    );
    expect(conversationTotal(c, DEFAULT_TABLE)).toMatchObject({ inputTokens: 10, outputTokens: 10, answers: 1 });
    expect(conversationTotal(emptyConversation("none"), DEFAULT_TABLE).answers).toBe(0);
  });

  it("says which answers a user's price priced", () => {
    const table = priceTable({ "gpt-5": { input: 10, output: 10 } });
    const c = conversation(answer("a1", "gpt-5", [100_000, 0]), answer("a2", "claude-haiku-4-5", [100_000, 0]));
    const total = conversationTotal(c, table);
    expect(total).toMatchObject({ priced: 2, byUser: 1 });
    expect(total.cost).toBeCloseTo(1 + 0.1);
    expect(totalPricedBy(total)).toMatch(/^prices as of .*; your prices for 1 answer$/);
    expect(totalPricedBy(conversationTotal(conversation(answer("a1", "gpt-5", [1, 1])), table))).toBe("your prices");
  });
});

describe("a day's total across conversations", () => {
  it("prices each model's sum, and the answers of no known model as tokens only", () => {
    const total = modelsTotal(
      [
        { model: "claude-haiku-4-5", inputTokens: 2_000_000, outputTokens: 100_000, answers: 40 },
        { model: "qwen3:8b", inputTokens: 50_000, outputTokens: 5_000, answers: 3 },
        { model: null, inputTokens: 10, outputTokens: 1, answers: 1 },
      ],
      DEFAULT_TABLE,
    );
    expect(total).toMatchObject({ inputTokens: 2_050_010, outputTokens: 105_001, answers: 44, priced: 40, unpriced: 4 });
    expect(total.cost).toBeCloseTo(2 + 0.5);
  });
});

describe("a cost in dollars", () => {
  it("shows two figures under a cent and cents above", () => {
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.00004)).toBe("<$0.0001");
    expect(formatCost(0.0042)).toBe("$0.0042");
    expect(formatCost(0.3)).toBe("$0.30");
    expect(formatCost(12.345)).toBe("$12.35");
  });
});
