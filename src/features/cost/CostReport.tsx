import { useMemo } from "react";
import { useChat } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { tokensInOut, totalCost, totalPricedBy } from "./costWords";
import { usePrices } from "./PricesContext";
import { conversationTotal, modelsTotal, type UsageTotal } from "./usage";
import { useTodayUsage } from "./useTodayUsage";
import "./cost.css";

function Row({ label, total, testId }: { label: string; total: UsageTotal | null; testId: string }) {
  const cost = total ? totalCost(total) : null;
  return (
    <tr data-testid={testId}>
      <th scope="row">{label}</th>
      <td>{total ? `${tokensInOut(total.inputTokens, total.outputTokens)} tokens` : "…"}</td>
      <td className="cost" data-priced={cost !== null}>
        {cost ?? (total && total.answers > 0 ? "no price known" : "—")}
      </td>
      <td className="muted small">{total && cost ? totalPricedBy(total) : ""}</td>
    </tr>
  );
}

/**
 * What this conversation's answers counted and cost, and today's across every conversation: a
 * self-contained block (the `/cost` command shows it in the transcript or a popover). Reads the
 * conversation from the chat store and today's usage from the engine; costs say what priced them.
 */
export function CostReport({ conversationId }: { conversationId: string }) {
  const conversation = useChat((s) => s.conversations[conversationId]);
  const table = usePrices();
  const total = useMemo(() => (conversation ? conversationTotal(conversation, table) : null), [conversation, table]);
  const today = useTodayUsage(conversationId, conversation?.running ?? false);
  const todayTotal = useMemo(() => (today ? modelsTotal(today, table) : null), [today, table]);
  return (
    <section className="cost-report" data-testid={TID.costReport} aria-label="Tokens and cost">
      <table>
        <tbody>
          <Row label="This conversation" total={total} testId={TID.costReportConversation} />
          <Row label="Today, all conversations" total={todayTotal} testId={TID.costReportToday} />
        </tbody>
      </table>
      <p className="muted small">
        Tokens as the providers reported them (cached prompt tokens count as input). Prices are in Settings → Model prices.
      </p>
    </section>
  );
}
