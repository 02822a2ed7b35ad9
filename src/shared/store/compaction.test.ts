// Where a compaction's divider goes, folded by the real reducer from what the engine sends.
import { describe, expect, it } from "vitest";
import type { HistoryMessage, ProtocolEvent } from "../ipc";
import { initialChatState, reduce } from "./reducer";
import type { Action, ChatState } from "./types";

const C = "c1";
const fold = (actions: readonly Action[], from: ChatState = initialChatState) => actions.reduce(reduce, from);
const ev = (event: string, payload: object) => ({ event, payload: { conversationId: C, ...payload } }) as unknown as ProtocolEvent;
const usage = { inputTokens: 100, outputTokens: 10 };
const userSend = (messageId: string): Action => ({ type: "user-send", conversationId: C, messageId, text: messageId });
const answer = (messageId: string, stopReason = "end_turn", toolId?: string): Action[] => [
  ev("chat:stream-start", { messageId, provider: "anthropic", model: "m", contextWindow: 200_000 }),
  ev("chat:text-delta", { messageId, delta: `text of ${messageId}` }),
  ...(toolId
    ? [
        ev("chat:tool-start", { messageId, toolId, toolName: "bash", category: "exec", input: {} }),
        ev("chat:tool-result", { messageId, toolId, status: "success", result: "ok", code: null, metadata: null }),
      ]
    : []),
  ev("chat:stream-end", { messageId, stopReason, usage, partial: false }),
];
const compacted = (summarizedMessages: number) =>
  ev("chat:compacted", { summarizedMessages, tokensBefore: 1000, tokensAfter: 100, manual: false });
const dividerAfter = (s: ChatState) => s.conversations[C]?.compaction?.afterMessageId;

const text = (role: "user" | "assistant", t: string): HistoryMessage => ({ role, content: [{ type: "text", text: t }] });
const LOADED: HistoryMessage[] = [
  text("user", "u0"),
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "bash", input: {}, rawArguments: null }] },
  { role: "user", content: [{ type: "tool_result", toolUseId: "t1", toolName: "bash", content: "ok", isError: false }] },
  text("assistant", "a3"),
  text("user", "u4"),
  { role: "assistant", content: [{ type: "tool_use", id: "t5", name: "bash", input: {}, rawArguments: null }] },
  { role: "user", content: [{ type: "tool_result", toolUseId: "t5", toolName: "bash", content: "ok", isError: false }] },
];

describe("compaction divider placement", () => {
  it("counts on from a loaded history into the messages sent since (its last call's result included)", () => {
    const loaded = fold([{ type: "history-loaded", conversationId: C, history: LOADED }]);
    const live = fold([userSend("u7"), ...answer("a8")], loaded);
    expect(dividerAfter(fold([compacted(4)], live))).toBe("history-3");
    expect(dividerAfter(fold([compacted(7)], live))).toBe("history-5");
    expect(dividerAfter(fold([compacted(8)], live))).toBe("u7");
  });

  it("counts the 'give your final answer' prompt before an answer that ended on the budget", () => {
    // History: 0 u0, 1 a1 (call), 2 its result, 3 the prompt, 4 a4, 5 u5, 6 a6.
    const s = fold([userSend("u0"), ...answer("a1", "tool_use", "t1"), ...answer("a4", "budget"), userSend("u5"), ...answer("a6")]);
    expect(dividerAfter(fold([compacted(5)], s))).toBe("a4");
    expect(dividerAfter(fold([compacted(3)], s))).toBe("a1");
  });

  it("ignores a compaction of a conversation the window does not show (its history is loaded later)", () => {
    const s = fold([compacted(4)]);
    expect(s.conversations[C]).toBeUndefined();
  });

  it("keeps the divider through a rewind that leaves the summarized part, and drops it with it", () => {
    const loaded = fold([{ type: "history-loaded", conversationId: C, history: LOADED }, compacted(4)]);
    expect(dividerAfter(loaded)).toBe("history-3");
    const kept = fold([{ type: "conversation-rewound", conversationId: C, history: LOADED.slice(0, 5) }], loaded);
    expect(dividerAfter(kept)).toBe("history-3");
    const dropped = fold([{ type: "conversation-rewound", conversationId: C, history: LOADED.slice(0, 4) }], loaded);
    expect(dropped.conversations[C]?.compaction).toBeNull();
    // The engine names the compaction that holds now.
    const again = fold(
      [{ type: "compaction-loaded", conversationId: C, compaction: { summarizedMessages: 1, tokensBefore: 10, tokensAfter: 5 } }],
      dropped,
    );
    expect(dividerAfter(again)).toBe("history-0");
  });
});
