// What the window shows of tokens and cost: under an answer, in the top bar, and in CostReport.
// The chat store is built as the reducer would have it; only the Tauri IPC is mocked.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import { mockIPC } from "@tauri-apps/api/mocks";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import { TopBar } from "../../app/TopBar";
import type { DayUsage } from "../../shared/ipc";
import { emptyAssistant, emptyConversation } from "../../shared/store/empty";
import { ChatStoreProvider, createChatStore } from "../../shared/store/store";
import type { AssistantMessage, Conversation } from "../../shared/store/types";
import { TID } from "../../shared/testids";
import { AssistantMessageView } from "../chat/transcript/MessageView";
import { CostReport } from "./CostReport";
import { pricesAsOf, type UserPrices } from "./prices";
import { PricesProvider } from "./PricesContext";
import { dayBounds } from "./useTodayUsage";

let usageCalls: number[][];
let today: DayUsage["models"];

beforeEach(() => {
  usageCalls = [];
  today = [];
  mockIPC((cmd, args) => {
    if (cmd === "usage_days") {
      const bounds = (args as { dayStartsMs: number[] }).dayStartsMs;
      usageCalls.push(bounds);
      return [{ startMs: bounds[0], endMs: bounds[1], models: today }];
    }
    if (cmd === "instructions_in_use") return { files: [], global: false };
    throw new Error(`unexpected command ${cmd}`);
  });
});

function answer(id: string, model: string | null, usage: [number, number] | null): AssistantMessage {
  return {
    ...emptyAssistant(id),
    streaming: false,
    at: Date.now(),
    model,
    usage: usage ? { inputTokens: usage[0], outputTokens: usage[1] } : null,
  };
}

function withAnswers(id: string, ...answers: AssistantMessage[]): Conversation {
  const c = emptyConversation(id);
  for (const a of answers) {
    c.messageIds.push(a.id);
    c.messages[a.id] = a;
  }
  return c;
}

function renderWith(ui: ReactNode, conversations: Conversation[] = [], prices: UserPrices = {}) {
  const store = createChatStore({ conversations: Object.fromEntries(conversations.map((c) => [c.id, c])), approvals: [] });
  return render(
    <ChatStoreProvider store={store}>
      <PricesProvider prices={prices}>{ui}</PricesProvider>
    </ChatStoreProvider>,
  );
}

describe("an answer's meta line", () => {
  it("shows its tokens in and out and its cost, said to be priced as of the table's date", () => {
    renderWith(<AssistantMessageView conversationId="c1" message={answer("a1", "claude-sonnet-4-5", [12_000, 800])} />);
    const usage = screen.getByTestId(TID.messageUsage);
    expect(usage).toHaveTextContent("12k in · 800 out · $0.05");
    expect(usage.getAttribute("title")).toContain(pricesAsOf());
    expect(screen.getByTestId(TID.messageCost)).toHaveAttribute("data-price-source", "default");
  });

  it("shows tokens only for a model with no price", () => {
    renderWith(<AssistantMessageView conversationId="c1" message={answer("a1", "llama3.2:3b", [1_500, 20])} />);
    expect(screen.getByTestId(TID.messageUsage)).toHaveTextContent(/^1\.5k in · 20 out$/);
    expect(screen.getByTestId(TID.messageUsage).getAttribute("title")).toContain("no price is known for this model");
    expect(screen.queryByTestId(TID.messageCost)).toBeNull();
  });

  it("says a price the user set is theirs", () => {
    renderWith(<AssistantMessageView conversationId="c1" message={answer("a1", "llama3.2:3b", [1_000_000, 0])} />, [], {
      "llama3.2": { input: 0.5, output: 1 },
    });
    expect(screen.getByTestId(TID.messageCost)).toHaveTextContent("$0.50");
    expect(screen.getByTestId(TID.messageCost)).toHaveAttribute("data-price-source", "user");
    expect(screen.getByTestId(TID.messageUsage).getAttribute("title")).toContain("your price");
  });

  it("shows nothing of usage for an answer that reported none", () => {
    renderWith(<AssistantMessageView conversationId="c1" message={answer("a1", "gpt-5", null)} />);
    expect(screen.getByTestId(TID.messageMeta)).toBeInTheDocument();
    expect(screen.queryByTestId(TID.messageUsage)).toBeNull();
  });
});

const bar = (conversationId: string | null) => (
  <TopBar
    conversationId={conversationId}
    projectDir="/p"
    instructionsKey="k"
    settingsOpen={false}
    onOpenSettings={() => {}}
    onToggleSettings={() => {}}
    onShortcuts={() => {}}
    onOpenRemote={() => {}}
  />
);

describe("the top bar's line", () => {
  it("sums this conversation's answers and shows today's cost across conversations, asked for the local day", async () => {
    today = [{ model: "claude-sonnet-4-5", inputTokens: 1_000_000, outputTokens: 0, answers: 9 }];
    const c = withAnswers("c1", answer("a1", "claude-sonnet-4-5", [100_000, 10_000]), answer("a2", "gpt-5", [200_000, 0]));
    renderWith(bar("c1"), [c, withAnswers("c2", answer("b1", "gpt-5", [5, 5]))]);
    const line = screen.getByTestId(TID.conversationCost);
    // 0.1 M × $3 + 10 k × $15 + 0.2 M × $1.25
    expect(line).toHaveTextContent("This conversation: 310k tokens · $0.70");
    expect(line.getAttribute("title")).toContain(pricesAsOf());
    expect(await screen.findByTestId(TID.todayCost)).toHaveTextContent("Today: $3.00");
    expect(screen.getByTestId(TID.todayCost).getAttribute("title")).toContain(pricesAsOf());
    expect(usageCalls).toEqual([dayBounds(new Date())]);
    const [start, end] = usageCalls[0]!;
    expect(new Date(start!).getHours()).toBe(0);
    expect(end! - start!).toBeGreaterThanOrEqual(23 * 3_600_000);
  });

  it("asks today's usage again once each turn ends, not when it starts or between its answers", async () => {
    const c = withAnswers("c1", answer("a1", "gpt-5", [100, 10]));
    const store = createChatStore({ conversations: { c1: c }, approvals: [] });
    render(
      <ChatStoreProvider store={store}>
        <PricesProvider prices={{}}>{bar("c1")}</PricesProvider>
      </ChatStoreProvider>,
    );
    await waitFor(() => expect(usageCalls).toHaveLength(1));
    const payload = { conversationId: "c1", messageId: "a2" };
    const usage = { inputTokens: 50, outputTokens: 5 };
    act(() => store.dispatch({ type: "user-send", conversationId: "c1", messageId: "u2", text: "go on" }));
    act(() => store.dispatch({ event: "chat:stream-start", payload: { ...payload, provider: "openai", model: "gpt-5", contextWindow: 400_000 } }));
    act(() => store.dispatch({ event: "chat:stream-end", payload: { ...payload, stopReason: "tool_use", usage, partial: false } }));
    expect(screen.getByTestId(TID.conversationCost)).toHaveTextContent("This conversation: 165 tokens");
    expect(usageCalls).toHaveLength(1);
    const last = { ...payload, messageId: "a3" };
    act(() => store.dispatch({ event: "chat:stream-start", payload: { ...last, provider: "openai", model: "gpt-5", contextWindow: 400_000 } }));
    act(() => store.dispatch({ event: "chat:stream-end", payload: { ...last, stopReason: "end_turn", usage, partial: false } }));
    await waitFor(() => expect(usageCalls).toHaveLength(2));
  });

  it("shows tokens without a cost when no answer's model has a price, and nothing before an answer counted", async () => {
    const { unmount } = renderWith(bar("c1"), [withAnswers("c1", answer("a1", "qwen3:8b", [2_000, 100]))]);
    expect(screen.getByTestId(TID.conversationCost)).toHaveTextContent(/^This conversation: 2\.1k tokens$/);
    await waitFor(() => expect(usageCalls).toHaveLength(1));
    expect(screen.queryByTestId(TID.todayCost)).toBeNull();
    unmount();
    renderWith(bar("c2"), [withAnswers("c2", answer("a1", "gpt-5", null))]);
    expect(screen.queryByTestId(TID.conversationCost)).toBeNull();
    renderWith(bar(null));
    expect(screen.queryByTestId(TID.conversationCost)).toBeNull();
    expect(usageCalls).toHaveLength(1);
  });
});

describe("CostReport", () => {
  it("shows this conversation's tokens and cost and today's, each saying what priced it", async () => {
    today = [
      { model: "gpt-5", inputTokens: 2_000_000, outputTokens: 100_000, answers: 12 },
      { model: "qwen3:8b", inputTokens: 40_000, outputTokens: 900, answers: 2 },
    ];
    const c = withAnswers("c1", answer("a1", "gpt-5", [400_000, 2_000]), answer("a2", "qwen3:8b", [1_000, 50]));
    renderWith(<CostReport conversationId="c1" />, [c]);
    const mine = screen.getByTestId(TID.costReportConversation);
    expect(mine).toHaveTextContent("401k in · 2.0k out tokens");
    expect(mine).toHaveTextContent("$0.52");
    expect(mine).toHaveTextContent(pricesAsOf());
    expect(mine).toHaveTextContent("1 answer of models with no price: tokens only");
    const day = screen.getByTestId(TID.costReportToday);
    await waitFor(() => expect(day).toHaveTextContent("$3.50"));
    expect(day).toHaveTextContent("2.0M in · 101k out tokens");
    expect(within(day).getByText(/prices as of/)).toBeInTheDocument();
  });

  it("says when nothing has a price, and a conversation with no answer yet", async () => {
    renderWith(<CostReport conversationId="c1" />, [withAnswers("c1", answer("a1", "qwen3:8b", [10, 10]))]);
    expect(screen.getByTestId(TID.costReportConversation)).toHaveTextContent("no price known");
    await waitFor(() => expect(screen.getByTestId(TID.costReportToday)).toHaveTextContent("0 in · 0 out tokens"));
    expect(screen.getByTestId(TID.costReportToday)).toHaveTextContent("—");
  });
});
