// What a cost is said with: the tokens in and out, and what it was priced by (the table's date, the
// user's own prices, the answers that had none). Plain strings, made per render of a total, never
// per message of a long conversation.
import { formatCost, formatCount, formatTokens, pluralize } from "../../shared/format";
import { pricesAsOf } from "./prices";
import type { UsageTotal } from "./usage";

/** "12k in · 1.3k out". */
export function tokensInOut(input: number, output: number): string {
  return `${formatTokens(input)} in · ${formatTokens(output)} out`;
}

/** "12,345 input and 1,300 output tokens". */
export function tokensInWords(input: number, output: number): string {
  return `${formatCount(input)} input and ${formatCount(output)} output tokens`;
}

/** What a total's cost was priced by: "prices as of …", "your prices", and what has no price. */
export function totalPricedBy(total: UsageTotal): string {
  const parts: string[] = [];
  if (total.priced > total.byUser) parts.push(pricesAsOf());
  if (total.byUser > 0) parts.push(total.byUser === total.priced ? "your prices" : `your prices for ${pluralize(total.byUser, "answer")}`);
  if (total.unpriced > 0) parts.push(`${pluralize(total.unpriced, "answer")} of models with no price: tokens only`);
  return parts.join("; ");
}

/** The cost of a total, or null when none of its answers had a price (tokens only, never a guess). */
export function totalCost(total: UsageTotal): string | null {
  return total.priced > 0 ? formatCost(total.cost) : null;
}
