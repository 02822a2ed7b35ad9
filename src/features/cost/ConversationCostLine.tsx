import { useMemo } from "react";
import { useChat } from "../../shared/store/store";
import { formatTokens } from "../../shared/format";
import { TID } from "../../shared/testids";
import { tokensInWords, totalCost, totalPricedBy } from "./costWords";
import { usePrices } from "./PricesContext";
import { conversationTotal, modelsTotal } from "./usage";
import { useTodayUsage } from "./useTodayUsage";
import "./cost.css";

/**
 * The top bar's "this conversation" line: the tokens the open conversation's answers counted and,
 * for those whose model has a price, what they cost (priced by what the title says); then today's
 * cost across conversations. Nothing before the conversation's first counted answer.
 */
export function ConversationCostLine({ conversationId }: { conversationId: string | null }) {
  const conversation = useChat((s) => (conversationId ? s.conversations[conversationId] : undefined));
  const table = usePrices();
  const total = useMemo(() => (conversation ? conversationTotal(conversation, table) : null), [conversation, table]);
  // Asked once the line shows, and again when a turn ends or another conversation is shown.
  const answers = total?.answers ?? 0;
  const today = useTodayUsage(answers > 0 ? conversationId : null, conversation?.running ?? false);
  const todayTotal = useMemo(() => (today ? modelsTotal(today, table) : null), [today, table]);
  if (!total || total.answers === 0) return null;
  const cost = totalCost(total);
  const todayCost = todayTotal ? totalCost(todayTotal) : null;
  return (
    <span className="topbar-cost">
      <span
        data-testid={TID.conversationCost}
        title={`This conversation: ${tokensInWords(total.inputTokens, total.outputTokens)}${cost ? ` — ${totalPricedBy(total)}` : ""}`}
      >
        This conversation: {formatTokens(total.inputTokens + total.outputTokens)} tokens
        {cost && <span className="cost"> · {cost}</span>}
      </span>
      {todayTotal && todayCost && (
        <span data-testid={TID.todayCost} title={`Today, all conversations: ${totalPricedBy(todayTotal)}`}>
          Today: {todayCost}
        </span>
      )}
    </span>
  );
}
