import type { Conversation } from "../../../shared/store/types";
import { contextTokens, usageNotReported } from "../../../shared/store/selectors";
import { lastUsageMessage } from "../../../shared/store/compaction";
import { formatTokens } from "../../../shared/format";
import { TID } from "../../../shared/testids";
import { totalCost, totalPricedBy } from "../../cost/costWords";
import { usePrices } from "../../cost/PricesContext";
import { conversationTotal } from "../../cost/usage";

/**
 * Tokens in the context now: after a compaction, what it left until a newer message says more
 * (the last message's usage still counts the messages the summary replaced).
 */
function contextInUse(c: Conversation): number {
  const mark = c.compaction;
  if (mark?.replacesUsageOf && mark.replacesUsageOf === lastUsageMessage(c)) return mark.tokensAfter;
  return contextTokens(c);
}

/**
 * Context used against the window the engine budgets with, and the running cost. A server that
 * reports no usage shows the engine's estimate, said as such; a window nobody has said is
 * "unknown" (the engine learns it from the server's answer when a request overflows it).
 */
export function ContextGauge({ conversation }: { conversation: Conversation }) {
  const used = contextInUse(conversation);
  const window = conversation.contextWindow;
  // The running cost of the answers whose model has a price (docs/COST.md); none: tokens only.
  const total = conversationTotal(conversation, usePrices());
  const cost = totalCost(total);
  const estimated = usageNotReported(conversation);
  const amount = `${estimated ? "≈ " : ""}${formatTokens(used)}`;
  const notReported = estimated && (
    <span className="gauge-note" data-testid={TID.usageNotReported}>
      usage not reported, estimated
    </span>
  );
  // Nothing to show yet: keep the row, so the first figures do not resize the transcript above
  // (which costs a relayout of every message in the middle of a stream).
  if (used === 0 && cost === null) return <div className="gauge" aria-hidden="true" />;
  const ratio = window ? Math.min(1, used / window) : 0;
  const level = ratio > 0.9 ? "high" : ratio > 0.7 ? "mid" : "low";
  return (
    <div className="gauge" data-testid={TID.contextGauge} data-used={used} data-window={window ?? ""}>
      {window ? (
        <>
          <meter
            className={`gauge-meter gauge-${level}`}
            min={0}
            max={window}
            value={used}
            aria-label="Context used"
          />
          <span className="gauge-label">
            {amount} / {formatTokens(window)} tokens ({Math.round(ratio * 100)}%)
          </span>
        </>
      ) : (
        <span className="gauge-label">{amount} tokens · context window unknown</span>
      )}
      {notReported}
      {cost !== null && (
        <span className="gauge-cost" data-testid={TID.costLabel} title={totalPricedBy(total)}>
          {cost}
        </span>
      )}
    </div>
  );
}
