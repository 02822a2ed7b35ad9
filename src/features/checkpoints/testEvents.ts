// Protocol events of turns whose tool calls changed files, for the checkpoint tests: what the
// engine sends, folded by the real reducer.
import type { CallChanges, FileChange, ProtocolEvent } from "../../shared/ipc";
import { initialChatState, reduce } from "../../shared/store/reducer";
import type { Action, ChatState, Conversation } from "../../shared/store/types";

export const C = "conv-1";

export const change = (path: string, status: FileChange["status"] = "modified", added = 1, removed = 0): FileChange => ({
  path,
  status,
  added,
  removed,
  binary: false,
  oldMode: status === "created" ? null : "100644",
  newMode: status === "deleted" ? null : "100644",
});

export const userSend = (messageId: string, text = "please"): Action => ({ type: "user-send", conversationId: C, messageId, text });

export const streamStart = (messageId: string): ProtocolEvent => ({
  event: "chat:stream-start",
  payload: { conversationId: C, messageId, provider: "anthropic", model: "claude-test", contextWindow: 200_000 },
});

export const streamEnd = (messageId: string, stopReason: "end_turn" | "tool_use" = "end_turn"): ProtocolEvent => ({
  event: "chat:stream-end",
  payload: { conversationId: C, messageId, stopReason, usage: { inputTokens: 10, outputTokens: 5 }, partial: false },
});

/** Turn `i`: the user's message `u<i>`, then answer `a<i>` streamed as `deltas`. */
export function textTurn(i: number, deltas: readonly string[] = ["Hello."]): Action[] {
  const messageId = `a${i}`;
  const delta = (text: string): ProtocolEvent => ({ event: "chat:text-delta", payload: { conversationId: C, messageId, delta: text } });
  return [userSend(`u${i}`, `message ${i}`), streamStart(messageId), ...deltas.map(delta), streamEnd(messageId)];
}

/** A call that ran: its start and its result, with `changes` in its report when given. */
export function call(messageId: string, toolId: string, changes: CallChanges | null, toolName = "bash"): ProtocolEvent[] {
  return [
    { event: "chat:tool-start", payload: { conversationId: C, messageId, toolId, toolName, category: toolName === "file_read" ? "fileRead" : "exec", input: { command: "make" } } },
    {
      event: "chat:tool-result",
      payload: {
        conversationId: C,
        messageId,
        toolId,
        status: "success",
        result: "ok",
        code: null,
        report: changes ? { command: { exitCode: 0 }, changes } : { command: { exitCode: 0 } },
        metadata: null,
      },
    },
  ];
}

export function fold(actions: readonly Action[], from: ChatState = initialChatState): ChatState {
  return actions.reduce(reduce, from);
}

export function conversation(s: ChatState): Conversation {
  const c = s.conversations[C];
  if (!c) throw new Error("no conversation");
  return c;
}
