// Tokens and cost summed: over a conversation's answers (as the window holds them) and over a day's
// answers across conversations (as the engine counted them, `usage_days`). Only what a provider
// reported counts; an answer of a model with no price adds its tokens and no cost.
import type { ModelUsage } from "../../shared/ipc";
import type { Conversation } from "../../shared/store/types";
import { costAt, priceOf, type PriceTable } from "./prices";

export interface UsageTotal {
  inputTokens: number;
  outputTokens: number;
  /** Answers that reported their usage. */
  answers: number;
  /** US dollars of the answers that have a price. */
  cost: number;
  /** Of the answers: those priced, those priced with one of the user's prices, those with no price. */
  priced: number;
  byUser: number;
  unpriced: number;
}

export function emptyTotal(): UsageTotal {
  return { inputTokens: 0, outputTokens: 0, answers: 0, cost: 0, priced: 0, byUser: 0, unpriced: 0 };
}

function add(total: UsageTotal, table: PriceTable, model: string | null | undefined, input: number, output: number, answers: number) {
  total.inputTokens += input;
  total.outputTokens += output;
  total.answers += answers;
  const match = priceOf(table, model);
  if (!match) {
    total.unpriced += answers;
    return;
  }
  total.cost += costAt(match.price, { inputTokens: input, outputTokens: output });
  total.priced += answers;
  if (match.source === "user") total.byUser += answers;
}

/**
 * Every answer of the conversation that reported usage, each once, priced by the model that wrote
 * it (an answer saved without its model has no price: the model in use now may not have written
 * it). Runs on every store change of the conversation shown: one pass over its ids, nothing made
 * per message.
 */
export function conversationTotal(c: Conversation, table: PriceTable): UsageTotal {
  const total = emptyTotal();
  for (const id of c.messageIds) {
    const m = c.messages[id];
    if (m?.kind !== "assistant" || !m.usage) continue;
    add(total, table, m.model, m.usage.inputTokens, m.usage.outputTokens, 1);
  }
  return total;
}

/** A day's answers across conversations, as the engine summed them by model. */
export function modelsTotal(models: readonly ModelUsage[], table: PriceTable): UsageTotal {
  const total = emptyTotal();
  for (const m of models) add(total, table, m.model, m.inputTokens, m.outputTokens, m.answers);
  return total;
}
