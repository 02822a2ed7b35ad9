// Compaction as the user meets it: the divider where the model's summary begins (live from
// `chat:compacted`, and for a reopened conversation from `chat_compaction`), and "Compact now".
// The real store, reducer and views; only the Tauri IPC is mocked, answering as the commands do.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CompactionInfo, ConversationSummary, HistoryMessage } from "../../../shared/ipc";
import { connectEvents } from "../../../shared/store/bridge";
import { ChatStoreProvider, createChatStore, type ChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import { ChatScreen } from "../ChatScreen";
import { resetDraftsForTests } from "../composer/drafts";

const C = "conv-1";
type Handler = (args: Record<string, unknown>) => unknown;
let calls: { cmd: string; args: Record<string, unknown> }[];
let handlers: Record<string, Handler>;
let store: ChatStore;
let stop: () => void;

beforeEach(async () => {
  calls = [];
  handlers = {};
  mockIPC(
    (cmd, args) => {
      const a = (args ?? {}) as Record<string, unknown>;
      calls.push({ cmd, args: a });
      const h = handlers[cmd];
      return h ? h(a) : null;
    },
    { shouldMockEvents: true },
  );
  store = createChatStore();
  // Fold each event at once: the tests assert on what is shown, not on frame timing.
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

const renderView = () => renderConversation(store, { conversationId: C });

const send = (event: string, payload: object) => act(() => emit(event, { conversationId: C, ...payload }));
const usage = { inputTokens: 150_000, outputTokens: 2_000 };
const start = (messageId: string) =>
  send("chat:stream-start", { messageId, provider: "anthropic", model: "claude-sonnet-4-5", contextWindow: 200_000 });
const end = (messageId: string, stopReason: string) => send("chat:stream-end", { messageId, stopReason, usage, partial: false });
const say = (messageId: string, delta: string) => send("chat:text-delta", { messageId, delta });

/** The user types a message and sends it (as the composer does). */
async function ask(text: string) {
  await userEvent.type(screen.getByTestId(TID.composerInput), `${text}{Enter}`);
}

/** A turn that reads a file (a call and its result), then answers. */
async function turnWithCall(question: string, call: string, answer: string, toolId: string) {
  await ask(question);
  await start(`${call}-msg`);
  await send("chat:tool-start", { messageId: `${call}-msg`, toolId, toolName: "file_read", category: "fileRead", input: { path: "a.rs" } });
  await send("chat:tool-result", { messageId: `${call}-msg`, toolId, status: "success", result: "fn main() {}", code: null, metadata: null });
  await end(`${call}-msg`, "tool_use");
  await start(answer);
  await say(answer, `The answer ${answer}.`);
  await end(answer, "end_turn");
}

/** The shown messages and dividers, top to bottom, as short labels. */
function transcript(): string[] {
  const view = screen.getByTestId(TID.conversationView);
  return Array.from(view.querySelectorAll(`[data-testid="${TID.message}"], [data-testid="${TID.compactionDivider}"]`)).map((el) =>
    el.getAttribute("data-testid") === TID.compactionDivider
      ? "--- divider ---"
      : `${el.getAttribute("data-role")}: ${el.querySelector(`[data-testid="${TID.messageText}"]`)?.textContent ?? "(calls)"}`,
  );
}

describe("the compaction divider", () => {
  it("appears under the summarized messages when chat:compacted arrives, counting tool results as history messages", async () => {
    renderView();
    // History: 0 ask one, 1 call, 2 its result, 3 answer a1, 4 ask two, 5 call, 6 result, 7 answer a2.
    await turnWithCall("ask one", "call1", "a1", "t1");
    await turnWithCall("ask two", "call2", "a2", "t2");
    expect(screen.queryByTestId(TID.compactionDivider)).toBeNull();

    await send("chat:compacted", { summarizedMessages: 4, tokensBefore: 182_000, tokensAfter: 24_000, manual: false });

    expect(transcript()).toEqual([
      "user: ask one",
      "assistant: (calls)",
      "assistant: The answer a1.",
      "--- divider ---",
      "user: ask two",
      "assistant: (calls)",
      "assistant: The answer a2.",
    ]);
    const divider = screen.getByTestId(TID.compactionDivider);
    expect(divider).toHaveTextContent("Earlier messages summarized for the model · 182k → 24k tokens");
    expect(divider).toHaveAttribute("title", "The model now sees a summary of the messages above; you still see them all.");
    // The gauge counts what is left in the context until the next answer says more.
    expect(screen.getByTestId(TID.contextGauge)).toHaveAttribute("data-used", "24000");
  });

  it("shows only the latest compaction, after the call whose result it summarized too", async () => {
    renderView();
    await turnWithCall("ask one", "call1", "a1", "t1");
    await turnWithCall("ask two", "call2", "a2", "t2");
    await send("chat:compacted", { summarizedMessages: 4, tokensBefore: 182_000, tokensAfter: 24_000, manual: false });
    // Summarizes up to the second call and its result (history 0–6): the kept part starts at a2.
    await send("chat:compacted", { summarizedMessages: 7, tokensBefore: 90_500, tokensAfter: 8_200, manual: true });

    expect(screen.getAllByTestId(TID.compactionDivider)).toHaveLength(1);
    expect(transcript()).toEqual([
      "user: ask one",
      "assistant: (calls)",
      "assistant: The answer a1.",
      "user: ask two",
      "assistant: (calls)",
      "--- divider ---",
      "assistant: The answer a2.",
    ]);
    expect(screen.getByTestId(TID.compactionDivider)).toHaveTextContent("91k → 8.2k tokens");
  });

  it("does not count a message the engine refused, nor an answer stopped before it said anything", async () => {
    renderView();
    handlers.chat_send = (a) => {
      if (a.content === "no key yet") throw { code: "MISSING_CREDENTIALS", message: "No Anthropic API key is set." };
      return null;
    };
    await ask("no key yet"); // refused: never in the history
    await ask("ask one"); // 0
    await start("a0");
    await send("chat:stream-end", { messageId: "a0", stopReason: "cancelled", usage, partial: true }); // not kept
    await ask("ask two"); // 1
    await start("a1"); // 2
    await say("a1", "The answer a1.");
    await end("a1", "end_turn");
    await ask("ask three"); // 3
    await start("a2"); // 4
    await say("a2", "The answer a2.");
    await end("a2", "end_turn");

    await send("chat:compacted", { summarizedMessages: 3, tokensBefore: 5_000, tokensAfter: 900, manual: true });

    const shown = transcript();
    expect(shown.slice(shown.indexOf("--- divider ---") - 1, shown.indexOf("--- divider ---") + 2)).toEqual([
      "assistant: The answer a1.",
      "--- divider ---",
      "user: ask three",
    ]);
  });
});

describe("Compact now", () => {
  it("is there once something was said, and waits while the conversation answers", async () => {
    renderView();
    const button = screen.getByTestId(TID.compactNow);
    expect(button).toHaveTextContent("Compact now");
    expect(button).toBeDisabled();

    await ask("ask one");
    await start("a1");
    expect(screen.getByTestId(TID.compactNow)).toBeDisabled();
    await say("a1", "The answer a1.");
    await end("a1", "end_turn");
    expect(screen.getByTestId(TID.compactNow)).toBeEnabled();
  });

  it("asks the engine to compact, says it is working, and the divider comes with chat:compacted", async () => {
    let answer: () => void = () => {};
    handlers.chat_compact = () => new Promise<null>((resolve) => (answer = () => resolve(null)));
    renderView();
    await turnWithCall("ask one", "call1", "a1", "t1");
    await turnWithCall("ask two", "call2", "a2", "t2");

    await userEvent.click(screen.getByTestId(TID.compactNow));
    expect(calls).toContainEqual({ cmd: "chat_compact", args: { conversationId: C } });
    expect(screen.getByTestId(TID.compactNow)).toHaveTextContent("Compacting…");
    expect(screen.getByTestId(TID.compactNow)).toBeDisabled();

    // The engine says what it did before the command returns.
    await send("chat:compacted", { summarizedMessages: 4, tokensBefore: 120_000, tokensAfter: 15_000, manual: true });
    await act(async () => answer());
    await waitFor(() => expect(screen.getByTestId(TID.compactNow)).toHaveTextContent("Compact now"));
    expect(screen.getByTestId(TID.compactNow)).toBeEnabled();
    expect(screen.getByTestId(TID.compactionDivider)).toHaveTextContent("120k → 15k tokens");
    expect(screen.queryByTestId(TID.compactError)).toBeNull();
  });

  it("says in words why it did not compact, and can be tried again", async () => {
    handlers.chat_compact = () => {
      throw { code: "INVALID_INPUT", message: "There is nothing older to summarize yet." };
    };
    renderView();
    await ask("ask one");
    await start("a1");
    await say("a1", "The answer a1.");
    await end("a1", "end_turn");

    await userEvent.click(screen.getByTestId(TID.compactNow));
    const error = await screen.findByTestId(TID.compactError);
    expect(error).toHaveTextContent("Not compacted. There is nothing older to summarize yet.");
    expect(error).toHaveAttribute("role", "alert");
    // Not stuck: the button is back and asks again.
    const button = screen.getByTestId(TID.compactNow);
    expect(button).toHaveTextContent("Compact now");
    expect(button).toBeEnabled();
    expect(screen.queryByTestId(TID.compactionDivider)).toBeNull();

    handlers.chat_compact = () => {
      throw { code: "PROVIDER", message: "The model could not summarize the conversation: overloaded." };
    };
    await userEvent.click(button);
    await waitFor(() =>
      expect(screen.getByTestId(TID.compactError)).toHaveTextContent("The model could not summarize the conversation: overloaded."),
    );
    expect(calls.filter((c) => c.cmd === "chat_compact")).toHaveLength(2);
  });
});

describe("a reopened conversation", () => {
  const text = (role: "user" | "assistant", t: string): HistoryMessage => ({ role, content: [{ type: "text", text: t }] });
  const HISTORY: HistoryMessage[] = [
    text("user", "Find the bug"), // 0
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "file_read", input: { path: "a.rs" }, rawArguments: null }] }, // 1
    { role: "user", content: [{ type: "tool_result", toolUseId: "t1", toolName: "file_read", content: "fn main() {}", isError: false }] }, // 2
    text("assistant", "Line 3 is wrong."), // 3
    text("user", "Fix it"), // 4
    text("assistant", "Fixed."), // 5
  ];
  const summary: ConversationSummary = { id: "conv-old", title: "Bug", projectRoot: null, updatedAtMs: 1, messageCount: 6 };

  function renderScreen(compaction: CompactionInfo | null) {
    localStorage.clear();
    resetDraftsForTests();
    handlers = {
      chat_list: () => ({ conversations: [summary], nextOffset: null }),
      chat_history: (a) => (a.conversationId === "conv-old" ? HISTORY : []),
      chat_compaction: (a) => (a.conversationId === "conv-old" ? compaction : null),
      checkpoint_list: () => [],
    };
    return render(
      <ChatStoreProvider store={store}>
        <ChatScreen onOpenSettings={() => {}} />
      </ChatStoreProvider>,
    );
  }

  it("shows the divider where chat_compaction says, past the call's result", async () => {
    renderScreen({ summarizedMessages: 4, tokensBefore: 182_000, tokensAfter: 24_000 });
    const divider = await screen.findByTestId(TID.compactionDivider);
    expect(calls).toContainEqual({ cmd: "chat_compaction", args: { conversationId: "conv-old" } });
    expect(divider).toHaveTextContent("182k → 24k tokens");
    expect(transcript()).toEqual([
      "user: Find the bug",
      "assistant: (calls)",
      "assistant: Line 3 is wrong.",
      "--- divider ---",
      "user: Fix it",
      "assistant: Fixed.",
    ]);
    const messages = screen.getAllByTestId(TID.message);
    expect(within(messages[2]!).getByText("Line 3 is wrong.")).toBeInTheDocument();
  });

  it("shows no divider for a conversation never compacted", async () => {
    renderScreen(null);
    await waitFor(() => expect(screen.getAllByTestId(TID.message)).toHaveLength(5));
    await waitFor(() => expect(calls.some((c) => c.cmd === "chat_compaction")).toBe(true));
    expect(screen.queryByTestId(TID.compactionDivider)).toBeNull();
  });
});
