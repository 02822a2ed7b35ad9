import type { Usage } from "../../shared/ipc";
import { formatCost } from "../../shared/format";
import { TID } from "../../shared/testids";
import { tokensInOut, tokensInWords } from "./costWords";
import { costAt, priceNote, priceOf } from "./prices";
import { usePrices } from "./PricesContext";
import "./cost.css";

/**
 * In an answer's meta line: its tokens in and out, as the provider counted them, and what it cost
 * when its model has a price (said in the title: the table's date, or "your price"); tokens only
 * when it has none. Rendered inside the memoized MessageMeta: no state and no effect of its own,
 * the price table from context (its match for a model is found once per table).
 */
export function MessageUsage({ usage, model }: { usage: Usage; model: string | null | undefined }) {
  const match = priceOf(usePrices(), model);
  const words = tokensInWords(usage.inputTokens, usage.outputTokens);
  return (
    <span
      className="message-usage"
      data-testid={TID.messageUsage}
      title={match ? `${words}; ${priceNote(match)}` : `${words}; no price is known for this model: tokens only`}
    >
      {tokensInOut(usage.inputTokens, usage.outputTokens)}
      {match && (
        <>
          {" · "}
          <span className="cost" data-testid={TID.messageCost} data-price-source={match.source}>
            {formatCost(costAt(match.price, usage))}
          </span>
        </>
      )}
    </span>
  );
}
