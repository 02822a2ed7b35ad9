import { describe, expect, it } from "vitest";
import type { ProtocolEvent, ToolErrorCode } from "../ipc";
import { OUTPUT_CAP, initialChatState, reduce } from "./reducer";
import { messageText, messageThinking, messageToolIds, contextTokens } from "./selectors";
import { textOf } from "./textBuffer";
import type { Action, AssistantMessage, ChatState } from "./types";

const C = "conv-1";
const M = "msg-1";

function fold(actions: Action[], from: ChatState = initialChatState): ChatState {
  return actions.reduce(reduce, from);
}
const start = (messageId = M): ProtocolEvent => ({
  event: "chat:stream-start",
  payload: { conversationId: C, messageId, provider: "anthropic", model: "claude-sonnet-4-5", contextWindow: 200_000 },
});
const text = (delta: string, messageId = M): ProtocolEvent => ({
  event: "chat:text-delta",
  payload: { conversationId: C, messageId, delta },
});
const thinking = (delta: string): ProtocolEvent => ({
  event: "chat:thinking-delta",
  payload: { conversationId: C, messageId: M, delta },
});
const toolStart = (toolId: string, toolName = "bash", input: unknown = { command: "ls" }): ProtocolEvent => ({
  event: "chat:tool-start",
  payload: { conversationId: C, messageId: M, toolId, toolName, input: input as never },
});
const toolDelta = (toolId: string, chunk: string): ProtocolEvent => ({
  event: "chat:tool-delta",
  payload: { conversationId: C, messageId: M, toolId, chunk },
});
const toolResult = (toolId: string, status: "success" | "error", code?: ToolErrorCode): ProtocolEvent => ({
  event: "chat:tool-result",
  payload: { conversationId: C, messageId: M, toolId, status, result: "done", code: code ?? null, metadata: null },
});
const confirm = (toolId: string): ProtocolEvent => ({
  event: "chat:tool-confirm",
  payload: {
    conversationId: C,
    confirmId: `q-${toolId}`,
    messageId: M,
    toolId,
    toolName: "bash",
    input: { command: "rm -rf build" },
    dangerLevel: "dangerous",
    preview: { kind: "command", command: "rm -rf build", cwd: "/p" },
    timeoutSecs: 30,
  },
});
const end = (stopReason: "end_turn" | "tool_use" | "cancelled" = "end_turn"): ProtocolEvent => ({
  event: "chat:stream-end",
  payload: { conversationId: C, messageId: M, stopReason, usage: { inputTokens: 1200, outputTokens: 300 }, partial: stopReason === "cancelled" },
});

function assistant(s: ChatState, id = M): AssistantMessage {
  const m = s.conversations[C]?.messages[id];
  if (!m || m.kind !== "assistant") throw new Error(`no assistant message ${id}`);
  return m;
}

const NOTICE = "This model has no native tool calling; Warden describes the tools in the prompt instead.";
const notice = (t = NOTICE, messageId = M): ProtocolEvent => ({
  event: "chat:notice",
  payload: { conversationId: C, messageId, text: t },
});

describe("event store reducer", () => {
  it("keeps a notice with its message, once, without ending or failing anything", () => {
    const s = fold([start(), notice(), notice(), text("Hi"), end()]);
    const m = assistant(s);
    expect(m.notices).toEqual([NOTICE]);
    expect(m.errors).toEqual([]);
    expect(messageText(m)).toBe("Hi");
    expect(s.conversations[C]?.errors).toEqual([]);
    // A later message of the turn has none of its own.
    const later = fold([start("msg-2"), text("More", "msg-2")], s);
    expect(assistant(later, "msg-2").notices).toEqual([]);
  });

  it("accumulates text and thinking of a message and records usage at the end", () => {
    const s = fold([start(), thinking("Let me "), thinking("look."), text("Hello"), text(", world"), end()]);
    const m = assistant(s);
    expect(messageText(m)).toBe("Hello, world");
    expect(messageThinking(m)).toBe("Let me look.");
    expect(m.streaming).toBe(false);
    expect(m.usage).toEqual({ inputTokens: 1200, outputTokens: 300 });
    expect(s.conversations[C]?.running).toBe(false);
    expect(contextTokens(s.conversations[C]!)).toBe(1500);
  });

  it("keeps the last counted context through a failed turn that counted nothing", () => {
    const failed: ProtocolEvent[] = [
      start("m2"),
      {
        event: "chat:error",
        payload: { conversationId: C, messageId: "m2", code: "NETWORK", message: "Could not reach the model server.", retryable: true, retrying: false },
      },
      {
        event: "chat:stream-end",
        payload: { conversationId: C, messageId: "m2", stopReason: "error", usage: null, estimatedContextTokens: 40, partial: true },
      },
    ];
    const s = fold([start(), text("Hello"), end(), ...failed]);
    expect(contextTokens(s.conversations[C]!)).toBe(1500);
  });

  it("keeps conversations apart", () => {
    const other: ProtocolEvent = { event: "chat:text-delta", payload: { conversationId: "conv-2", messageId: "x", delta: "B" } };
    const s = fold([text("A"), other]);
    expect(messageText(assistant(s))).toBe("A");
    const m2 = s.conversations["conv-2"]?.messages["x"];
    expect(m2 && m2.kind === "assistant" && messageText(m2)).toBe("B");
  });

  it("creates the message when a delta arrives before its stream-start", () => {
    const s = fold([text("early"), start()]);
    const m = assistant(s);
    expect(messageText(m)).toBe("early");
    expect(m.model).toBe("claude-sonnet-4-5");
    expect(s.conversations[C]?.messageIds).toEqual([M]);
  });

  it("keys tool blocks by toolId in the order they happened, interleaved with text", () => {
    const s = fold([start(), text("First "), toolStart("t1"), toolStart("t2", "file_read", { path: "a.txt" }), text("then")]);
    const m = assistant(s);
    expect(messageToolIds(m)).toEqual(["t1", "t2"]);
    expect(m.segments.map((x) => x.kind)).toEqual(["text", "tool", "tool", "text"]);
    expect(s.conversations[C]?.tools["t2"]?.toolName).toBe("file_read");
    expect(s.conversations[C]?.tools["t1"]?.status).toBe("running");
  });

  it("folds a duplicate tool-start into one block", () => {
    const s = fold([toolStart("t1"), toolDelta("t1", "out"), toolStart("t1")]);
    expect(messageToolIds(assistant(s))).toEqual(["t1"]);
    expect(Object.keys(s.conversations[C]!.tools)).toEqual(["t1"]);
    expect(textOf(s.conversations[C]!.tools["t1"]!.output)).toBe("out");
  });

  it("keeps the images a live result carries (an MCP tool's screenshot), as a reopened one has them", () => {
    const image = { mediaType: "image/png", data: "iVBORw0KGgo=" };
    const withImage: ProtocolEvent = {
      event: "chat:tool-result",
      payload: { conversationId: C, messageId: M, toolId: "t1", status: "success", result: "a picture", images: [image] },
    };
    const s = fold([toolStart("t1", "mcp__everything__get-tiny-image", {}), withImage]);
    expect(s.conversations[C]!.tools["t1"]!.images).toEqual([image]);
    expect(fold([toolStart("t2", "list_dir", {}), toolResult("t2", "success")]).conversations[C]!.tools["t2"]!.images).toBeUndefined();
  });

  it("shows a tool-result that arrives before its tool-start, and the late start does not reset it", () => {
    const s = fold([toolResult("t9", "success"), toolStart("t9", "list_dir", { path: "." })]);
    const t = s.conversations[C]!.tools["t9"]!;
    expect(t.status).toBe("success");
    expect(t.toolName).toBe("list_dir");
    expect(t.result).toBe("done");
    expect(messageToolIds(assistant(s))).toEqual(["t9"]);
  });

  it.each<[ToolErrorCode | undefined, string]>([
    ["USER_REJECTED", "denied"],
    ["APPROVAL_TIMEOUT", "expired"],
    ["BLOCKED_COMMAND", "denied"],
    ["CANCELLED", "cancelled"],
    ["TOOL_TIMEOUT", "error"],
    [undefined, "error"],
  ])("maps an error result with code %s to status %s", (code, status) => {
    const s = fold([toolStart("t1"), toolResult("t1", "error", code)]);
    expect(s.conversations[C]!.tools["t1"]!.status).toBe(status);
    expect(s.conversations[C]!.tools["t1"]!.errorCode).toBe(code ?? null);
  });

  it("queues approvals once each, and a result or an answer removes them", () => {
    let s = fold([toolStart("t1"), confirm("t1"), confirm("t1"), toolStart("t2"), confirm("t2")]);
    expect(s.approvals.map((a) => a.toolId)).toEqual(["t1", "t2"]);
    expect(s.conversations[C]!.tools["t1"]!.status).toBe("awaiting_approval");
    expect(s.conversations[C]!.tools["t1"]!.confirm?.preview).toEqual({ kind: "command", command: "rm -rf build", cwd: "/p" });
    s = reduce(s, { type: "approval-answered", confirmId: "q-t1", approved: true });
    expect(s.approvals.map((a) => a.toolId)).toEqual(["t2"]);
    expect(s.conversations[C]!.tools["t1"]!.status).toBe("running");
    s = reduce(s, toolResult("t2", "error", "APPROVAL_TIMEOUT"));
    expect(s.approvals).toEqual([]);
    expect(s.conversations[C]!.tools["t2"]!.status).toBe("expired");
  });

  it("keeps two conversations' approvals apart when their calls share an id", () => {
    const inOther = (ev: ProtocolEvent): ProtocolEvent => ({ ...ev, payload: { ...ev.payload, conversationId: "other" } }) as ProtocolEvent;
    const otherConfirm = confirm("call_0");
    const elsewhere = inOther({ ...otherConfirm, payload: { ...otherConfirm.payload, confirmId: "q-other" } } as ProtocolEvent);
    let s = fold([toolStart("call_0"), confirm("call_0"), inOther(toolStart("call_0")), elsewhere]);
    expect(s.approvals.map((a) => [a.conversationId, a.confirmId])).toEqual([
      [C, "q-call_0"],
      ["other", "q-other"],
    ]);
    s = reduce(s, toolResult("call_0", "error", "CANCELLED"));
    expect(s.approvals.map((a) => a.confirmId)).toEqual(["q-other"]);
    expect(s.conversations["other"]!.tools["call_0"]!.status).toBe("awaiting_approval");
  });

  it("a confirm for a tool that already finished is not queued", () => {
    const s = fold([toolStart("t1"), toolResult("t1", "success"), confirm("t1")]);
    expect(s.approvals).toEqual([]);
    expect(s.conversations[C]!.tools["t1"]!.status).toBe("success");
  });

  it("a cancelled stream-end cancels the message's unfinished tools and their approvals", () => {
    const s = fold([start(), toolStart("t1"), confirm("t1"), end("cancelled")]);
    expect(s.conversations[C]!.tools["t1"]!.status).toBe("cancelled");
    expect(s.approvals).toEqual([]);
    expect(assistant(s).partial).toBe(true);
  });

  it("a turn keeps running across a tool_use stream-end", () => {
    const s = fold([{ type: "user-send", conversationId: C, messageId: "u1", text: "hi" }, start(), end("tool_use")]);
    expect(s.conversations[C]!.running).toBe(true);
    expect(s.conversations[C]!.messageIds).toEqual(["u1", M]);
  });

  it("caps tool output and counts what it dropped", () => {
    const big = "x".repeat(OUTPUT_CAP - 10);
    const s = fold([toolStart("t1"), toolDelta("t1", big), toolDelta("t1", "y".repeat(25)), toolDelta("t1", "z")]);
    const t = s.conversations[C]!.tools["t1"]!;
    expect(t.output.length).toBe(OUTPUT_CAP);
    expect(textOf(t.output).endsWith("y".repeat(10))).toBe(true);
    expect(t.outputDropped).toBe(16);
  });

  it("attaches errors to their message or to the conversation, and stops a non-retryable turn", () => {
    const s = fold([
      { type: "user-send", conversationId: C, messageId: "u1", text: "hi" },
      start(),
      { event: "chat:error", payload: { conversationId: C, messageId: M, code: "RATE_LIMITED", message: "slow down", retryable: true, retryAfterSecs: 5 } },
    ]);
    expect(assistant(s).errors[0]?.code).toBe("RATE_LIMITED");
    expect(s.conversations[C]!.running).toBe(true);
    const s2 = reduce(s, { event: "chat:error", payload: { conversationId: C, code: "AUTH_FAILED", message: "bad key", retryable: false } });
    expect(s2.conversations[C]!.errors[0]?.code).toBe("AUTH_FAILED");
    expect(s2.conversations[C]!.running).toBe(false);
  });

  it("keeps one retry notice per message, which the next attempt's stream or outcome replaces", () => {
    const retrying = (n: number): ProtocolEvent => ({
      event: "chat:error",
      payload: {
        conversationId: C,
        messageId: M,
        code: "RATE_LIMITED",
        message: `Wait a moment (${n})`,
        retryable: true,
        retryAfterSecs: 4,
        retrying: true,
      },
    });
    const s = fold([{ type: "user-send", conversationId: C, messageId: "u1", text: "hi" }, retrying(1), retrying(2)]);
    expect(assistant(s).errors.map((e) => e.message)).toEqual(["Wait a moment (2)"]);
    const ok = fold([start(), text("answer")], s);
    expect(assistant(ok).errors).toEqual([]);
    // As the engine sends them: the message starts, then its request is retried, then it streams.
    const started = fold([{ type: "user-send", conversationId: C, messageId: "u1", text: "hi" }, start(), retrying(1)]);
    expect(assistant(started).errors.map((e) => e.message)).toEqual(["Wait a moment (1)"]);
    expect(assistant(fold([text("answer")], started)).errors).toEqual([]);
    const failed = reduce(s, {
      event: "chat:error",
      payload: { conversationId: C, messageId: M, code: "NETWORK", message: "Could not reach the API", retryable: false },
    });
    expect(assistant(failed).errors.map((e) => e.code)).toEqual(["NETWORK"]);
  });

  it("clears failures that belong to no message when the user sends again, and keeps a refused send's code", () => {
    const s = fold([
      { type: "user-send", conversationId: C, messageId: "u1", text: "hi" },
      { type: "send-failed", conversationId: C, message: "No Anthropic API key is set.", code: "MISSING_CREDENTIALS" },
    ]);
    expect(s.conversations[C]!.errors.map((e) => e.code)).toEqual(["MISSING_CREDENTIALS"]);
    const again = reduce(s, { type: "user-send", conversationId: C, messageId: "u2", text: "hi again" });
    expect(again.conversations[C]!.errors).toEqual([]);
  });

  it("ignores unknown events and malformed payloads without changing state", () => {
    const s0 = fold([text("a")]);
    const junk = [
      { event: "chat:mystery", payload: { conversationId: C } },
      { event: "chat:text-delta", payload: null },
      { event: "chat:text-delta" },
      { nothing: true },
    ] as unknown as Action[];
    expect(fold(junk, s0)).toBe(s0);
  });

  it("folds a 10,000-event stream into the exact text, sharing one parts array", () => {
    const events: ProtocolEvent[] = [start()];
    let expected = "";
    for (let i = 0; i < 10_000; i++) {
      const d = `w${i} `;
      expected += d;
      events.push(text(d));
    }
    events.push(end());
    const s = fold(events);
    const m = assistant(s);
    expect(m.segments).toHaveLength(1);
    const seg = m.segments[0]!;
    if (seg.kind !== "text") throw new Error("expected text");
    // O(1) per delta: all deltas pushed into one shared array, not copied into new strings.
    expect(seg.buf.parts).toHaveLength(10_000);
    expect(seg.buf.length).toBe(expected.length);
    expect(messageText(m)).toBe(expected);
  });

  it("keeps older snapshots of a text buffer stable", () => {
    const s1 = fold([text("one")]);
    const s2 = reduce(s1, text(" two"));
    const s1b = reduce(s1, text(" fork"));
    expect(messageText(assistant(s1))).toBe("one");
    expect(messageText(assistant(s2))).toBe("one two");
    expect(messageText(assistant(s1b))).toBe("one fork");
  });

  it("records which output ranges came from stderr, one range per burst", () => {
    const err = (toolId: string, chunk: string): ProtocolEvent => ({
      event: "chat:tool-delta",
      payload: { conversationId: C, messageId: M, toolId, chunk, stream: "stderr" },
    });
    const s = fold([toolStart("t1"), toolDelta("t1", "out\n"), err("t1", "warn "), err("t1", "more\n"), toolDelta("t1", "ok\n"), err("t1", "e")]);
    const t = s.conversations[C]!.tools["t1"]!;
    expect(textOf(t.output)).toBe("out\nwarn more\nok\ne");
    // "out\n" is 0..4; "warn more\n" 4..14; "ok\n" 14..17; "e" 17..18.
    expect(t.stderr).toEqual([
      [4, 14],
      [17, 18],
    ]);
  });
});
