// Folds protocol events (and the UI's own actions) into ChatState. Pure apart from the append-only
// text buffers (see textBuffer.ts). Robust by design: a delta for an unknown message creates it, a
// result before its start still shows, duplicates fold into one block, unknown events are ignored.
import type {
  ChatError,
  HookRun,
  ProtocolEvent,
  StreamEnd,
  StreamStart,
  ToolConfirm,
  ToolDelta,
  ToolResult,
  ToolStart,
} from "../ipc";
import { emptyAssistant, emptyConversation, newToolBlock } from "./empty";
import { historyToConversation, readOnlyToConversation } from "./history";
import { compactionMark } from "./compaction";
import { withPlanApproved } from "./plan";
import { isTerminal, statusFromResult } from "./toolStatus";
import { appendText, emptyText } from "./textBuffer";
import type {
  Action,
  AssistantMessage,
  ChatState,
  Conversation,
  LocalAction,
  PendingApproval,
  RewindMark,
  Segment,
  ToolBlock,
  ToolBlockStatus,
} from "./types";

/** Streamed tool output kept per block; the rest is counted, not stored. */
export const OUTPUT_CAP = 200_000;

export const initialChatState: ChatState = { conversations: {}, approvals: [] };


export { isTerminal, statusFromResult } from "./toolStatus";

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null;
}

// ---- conversation / message helpers (each returns new objects along the changed path) ----

function withConversation(state: ChatState, id: string, f: (c: Conversation) => Conversation): ChatState {
  const before = state.conversations[id] ?? emptyConversation(id);
  const after = f(before);
  if (after === before && state.conversations[id]) return state;
  return { ...state, conversations: { ...state.conversations, [id]: after } };
}

function withAssistant(c: Conversation, messageId: string, f: (m: AssistantMessage) => AssistantMessage): Conversation {
  const existing = c.messages[messageId];
  // A user message never shares an id with an assistant one; if it did, leave it alone.
  if (existing && existing.kind !== "assistant") return c;
  const before = existing ?? emptyAssistant(messageId);
  const after = f(before);
  if (after === before && existing) return c;
  return {
    ...c,
    messages: { ...c.messages, [messageId]: after },
    messageIds: existing ? c.messageIds : [...c.messageIds, messageId],
  };
}

function appendSegment(m: AssistantMessage, kind: "text" | "thinking", delta: string): AssistantMessage {
  if (!delta) return m;
  // The answer is coming: a "retrying…" notice has done its job (the engine says the message
  // started before it sent the request, so the notice arrives after chat:stream-start).
  if (m.errors.some((x) => x.retrying)) m = { ...m, errors: withoutRetrying(m.errors) };
  const segs = m.segments;
  const last = segs[segs.length - 1];
  let next: Segment[];
  if (last && last.kind === kind) {
    next = segs.slice();
    next[next.length - 1] = { kind, buf: appendText(last.buf, delta) };
  } else {
    next = [...segs, { kind, buf: appendText(emptyText(), delta) }];
  }
  return { ...m, segments: next };
}

function withTool(
  c: Conversation,
  toolId: string,
  messageId: string,
  f: (t: ToolBlock) => ToolBlock,
): Conversation {
  const existing = c.tools[toolId];
  const before = existing ?? newToolBlock(toolId, c.id, messageId);
  const after = f(before);
  let next: Conversation = after === before && existing ? c : { ...c, tools: { ...c.tools, [toolId]: after } };
  if (!existing) {
    // First sight of this tool: place it in its message, after whatever came before it.
    next = withAssistant(next, messageId, (m) =>
      m.segments.some((s) => s.kind === "tool" && s.toolId === toolId)
        ? m
        : { ...m, segments: [...m.segments, { kind: "tool", toolId }] },
    );
  }
  return next;
}

/** Drops the pending approvals `gone` picks (none picked: the same state). */
function dropApprovals(state: ChatState, gone: (a: PendingApproval) => boolean): ChatState {
  return state.approvals.some(gone) ? { ...state, approvals: state.approvals.filter((a) => !gone(a)) } : state;
}

// ---- event folds ----

function onToolStart(state: ChatState, e: ToolStart): ChatState {
  return withConversation(state, e.conversationId, (c) =>
    withTool(c, e.toolId, e.messageId, (t) => {
      const category = e.category ?? t.category;
      const mcp = e.mcp ?? t.mcp;
      if (t.toolName === e.toolName && t.input !== null && t.category === category && t.mcp === mcp) return t;
      return { ...t, toolName: e.toolName, input: e.input ?? null, category, mcp };
    }),
  );
}

/** Add [start, end) to sorted ranges, extending the last one when they touch (one range per stderr burst). */
function addRange(ranges: ToolBlock["stderr"], start: number, end: number): ToolBlock["stderr"] {
  const last = ranges[ranges.length - 1];
  if (last && last[1] === start) return [...ranges.slice(0, -1), [last[0], end]];
  return [...ranges, [start, end]];
}

function onToolDelta(state: ChatState, e: ToolDelta): ChatState {
  return withConversation(state, e.conversationId, (c) =>
    withTool(c, e.toolId, e.messageId, (t) => {
      const chunk = typeof e.chunk === "string" ? e.chunk : "";
      if (!chunk) return t;
      const room = OUTPUT_CAP - t.output.length;
      if (room <= 0) return { ...t, outputDropped: t.outputDropped + chunk.length };
      const kept = chunk.length <= room ? chunk : chunk.slice(0, room);
      return {
        ...t,
        output: appendText(t.output, kept),
        outputDropped: t.outputDropped + chunk.length - kept.length,
        stderr: e.stream === "stderr" ? addRange(t.stderr, t.output.length, t.output.length + kept.length) : t.stderr,
      };
    }),
  );
}

function onToolResult(state: ChatState, e: ToolResult): ChatState {
  const next = withConversation(state, e.conversationId, (c) =>
    withTool(c, e.toolId, e.messageId, (t) => {
      const metadata = e.metadata ?? null;
      const report = e.report ?? null;
      const errorCode = e.status === "success" ? null : (e.code ?? null);
      const images = e.images?.length ? { images: e.images } : {};
      return { ...t, status: statusFromResult(e, errorCode), result: e.result ?? "", report, metadata, errorCode, ...images };
    }),
  );
  // The call is over: whatever it still asked is no longer waiting (a call's id is unique only
  // within its conversation). A network question stays: a late "always" still saves the rule.
  return dropApprovals(
    next,
    (a) => a.conversationId === e.conversationId && a.toolId === e.toolId && a.request.kind !== "network",
  );
}

function onToolConfirm(state: ChatState, e: ToolConfirm): ChatState {
  // A host the sandbox wants while a command runs: a question of its own, the block keeps running.
  if (e.kind === "network") {
    if (state.approvals.some((a) => a.confirmId === e.confirmId)) return state;
    const pending = { confirmId: e.confirmId, toolId: e.toolId, conversationId: e.conversationId, request: e, receivedAt: Date.now() };
    return { ...state, approvals: [...state.approvals, pending] };
  }
  let terminal = false;
  const next = withConversation(state, e.conversationId, (c) =>
    withTool(c, e.toolId, e.messageId, (t) => {
      terminal = isTerminal(t.status);
      return {
        ...t,
        toolName: t.toolName || e.toolName,
        mcp: t.mcp ?? e.mcp ?? null,
        input: t.input ?? e.input ?? null,
        confirm: e,
        status: terminal ? t.status : "awaiting_approval",
      };
    }),
  );
  if (terminal || next.approvals.some((a) => a.confirmId === e.confirmId)) return next;
  const pending = { confirmId: e.confirmId, toolId: e.toolId, conversationId: e.conversationId, request: e, receivedAt: Date.now() };
  return { ...next, approvals: [...next.approvals, pending] };
}

/** A retry notice stands for the attempt in progress: the next notice or the outcome replaces it. */
function withoutRetrying(errors: ChatError[]): ChatError[] {
  return errors.some((x) => x.retrying) ? errors.filter((x) => !x.retrying) : errors;
}

function onError(state: ChatState, e: ChatError): ChatState {
  return withConversation(state, e.conversationId, (c) => {
    const running = e.retryable && c.running;
    if (e.messageId) {
      const withErr = withAssistant(c, e.messageId, (m) => ({ ...m, errors: [...withoutRetrying(m.errors), e] }));
      return { ...withErr, running };
    }
    return { ...c, errors: [...withoutRetrying(c.errors), e], running };
  });
}

function onStreamStart(state: ChatState, e: StreamStart): ChatState {
  return withConversation(state, e.conversationId, (c) => ({
    // A retried request that now streams: its "retrying…" notice has done its job.
    ...withAssistant(c, e.messageId, (m) => ({
      ...m,
      errors: withoutRetrying(m.errors),
      provider: e.provider,
      model: e.model,
      at: m.at ?? Date.now(),
      streaming: true,
    })),
    running: true,
    provider: e.provider,
    model: e.model,
    contextWindow: e.contextWindow,
  }));
}

function onStreamEnd(state: ChatState, e: StreamEnd): ChatState {
  let cancelledTools: string[] = [];
  const next = withConversation(state, e.conversationId, (c) => {
    let conv = withAssistant(c, e.messageId, (m) => ({
      ...m,
      // Ended without a failure: nothing is being retried any more.
      errors: withoutRetrying(m.errors),
      streaming: false,
      usage: e.usage ?? null,
      estimatedContext: e.usage ? null : (e.estimatedContextTokens ?? null),
      stopReason: e.stopReason,
      partial: !!e.partial,
    }));
    if (e.stopReason === "cancelled") {
      // A cancelled turn does not run what it had not run yet, even if no result says so.
      const open = Object.values(conv.tools).filter((t) => t.messageId === e.messageId && !isTerminal(t.status));
      cancelledTools = open.map((t) => t.toolId);
      if (open.length) {
        const tools = { ...conv.tools };
        for (const t of open) tools[t.toolId] = { ...t, status: "cancelled", errorCode: "CANCELLED" };
        conv = { ...conv, tools };
      }
    }
    return { ...conv, running: e.stopReason === "tool_use" };
  });
  return dropApprovals(next, (a) => a.conversationId === e.conversationId && cancelledTools.includes(a.toolId));
}

/**
 * A hook ran (docs/HOOKS.md): under its tool call, else in its message, else in the conversation
 * after the last message shown. Only for a conversation this window shows (its session runs here).
 */
function onHook(state: ChatState, e: HookRun): ChatState {
  if (!state.conversations[e.conversationId] || typeof e.command !== "string") return state;
  return withConversation(state, e.conversationId, (c) => {
    if (e.toolId && e.messageId) {
      return withTool(c, e.toolId, e.messageId, (t) => ({ ...t, hooks: [...(t.hooks ?? []), e] }));
    }
    if (e.messageId) return withAssistant(c, e.messageId, (m) => ({ ...m, hooks: [...(m.hooks ?? []), e] }));
    const afterMessageId = c.messageIds[c.messageIds.length - 1] ?? null;
    return { ...c, hookRuns: [...(c.hookRuns ?? []), { afterMessageId, run: e }] };
  });
}

function foldEvent(state: ChatState, ev: ProtocolEvent): ChatState {
  const p = ev.payload as unknown;
  if (!isObject(p) || typeof p.conversationId !== "string") return state;
  switch (ev.event) {
    case "chat:stream-start":
      return onStreamStart(state, ev.payload);
    case "chat:text-delta":
    case "chat:thinking-delta": {
      const e = ev.payload;
      const kind = ev.event === "chat:text-delta" ? "text" : "thinking";
      return withConversation(state, e.conversationId, (c) =>
        withAssistant(c, e.messageId, (m) => appendSegment(m, kind, typeof e.delta === "string" ? e.delta : "")),
      );
    }
    case "chat:tool-start":
      return onToolStart(state, ev.payload);
    case "chat:tool-delta":
      return onToolDelta(state, ev.payload);
    case "chat:tool-result":
      return onToolResult(state, ev.payload);
    case "chat:tool-confirm":
      return onToolConfirm(state, ev.payload);
    case "chat:stream-end":
      return onStreamEnd(state, ev.payload);
    case "chat:error":
      return onError(state, ev.payload);
    case "chat:compacted": {
      const e = ev.payload;
      const c = state.conversations[e.conversationId];
      // A conversation this window has not shown: its history, when opened, says where (chat_compaction).
      if (!c || typeof e.summarizedMessages !== "number") return state;
      return withConversation(state, e.conversationId, () => ({ ...c, compaction: compactionMark(c, e, true) }));
    }
    case "chat:saving": {
      const e = ev.payload;
      // Shown until the engine says every message is saved again.
      const notSaved = e.saved ? null : e.reason || "the conversation store failed";
      return withConversation(state, e.conversationId, (c) => ((c.notSaved ?? null) === notSaved ? c : { ...c, notSaved }));
    }
    case "chat:todo": {
      const e = ev.payload;
      if (!Array.isArray(e.items)) return state;
      return withConversation(state, e.conversationId, (c) => ({ ...c, todo: e.items }));
    }
    case "chat:plan": {
      const e = ev.payload;
      if (typeof e.plan !== "string" || !Array.isArray(e.steps)) return state;
      const plan = { messageId: e.messageId, plan: e.plan, steps: e.steps, approved: null };
      return withConversation(state, e.conversationId, (c) => ({ ...c, plan }));
    }
    case "chat:snapshot": {
      const e = ev.payload;
      if (typeof e.files !== "number") return state;
      // Done and not stopped: nothing left to say. Stopped: said until the project is opened again.
      const firstLook = e.done && !e.stopped ? null : e;
      return withConversation(state, e.conversationId, (c) => ({ ...c, firstLook }));
    }
    case "chat:hook":
      return onHook(state, ev.payload);
    case "chat:notice": {
      const e = ev.payload;
      if (typeof e.text !== "string" || !e.text) return state;
      return withConversation(state, e.conversationId, (c) =>
        withAssistant(c, e.messageId, (m) => (m.notices.includes(e.text) ? m : { ...m, notices: [...m.notices, e.text] })),
      );
    }
    default:
      return state;
  }
}

function foldLocal(state: ChatState, a: LocalAction): ChatState {
  switch (a.type) {
    case "user-send":
      // A new message starts over: failures of earlier attempts that belong to no message would
      // otherwise stay at the bottom, below the replies that came after them.
      return withConversation(state, a.conversationId, (c) => ({
        ...c,
        messages: {
          ...c.messages,
          [a.messageId]: {
            kind: "user",
            id: a.messageId,
            text: a.text,
            at: Date.now(),
            ...(a.images?.length ? { images: a.images } : {}),
          },
        },
        messageIds: c.messages[a.messageId] ? c.messageIds : [...c.messageIds, a.messageId],
        running: true,
        errors: [],
        rewound: null,
      }));
    case "plan-approved":
      return withConversation(state, a.conversationId, (c) => withPlanApproved(c, a.messageId, a.steps));
    case "send-failed":
      return withConversation(state, a.conversationId, (c) => ({
        ...c,
        running: false,
        errors: [
          ...c.errors,
          { conversationId: a.conversationId, code: a.code ?? "INTERNAL", message: a.message, retryable: false },
        ],
      }));
    case "approval-answered": {
      const pending = state.approvals.find((p) => p.confirmId === a.confirmId);
      if (!pending) return state;
      const next = dropApprovals(state, (p) => p.confirmId === a.confirmId);
      const toolId = pending.toolId;
      return withConversation(next, pending.conversationId, (c) => {
        const t = c.tools[toolId];
        if (!t || isTerminal(t.status)) return c;
        const status: ToolBlockStatus = a.approved ? "running" : a.code === "APPROVAL_TIMEOUT" ? "expired" : "denied";
        return { ...c, tools: { ...c.tools, [toolId]: { ...t, status, errorCode: a.approved ? null : (a.code ?? "USER_REJECTED") } } };
      });
    }
    case "history-loaded": {
      const existing = state.conversations[a.conversationId];
      // Live events already arrived for this conversation: they are newer than the history. A
      // read-only view is replaced (the conversation reads whole now).
      if (existing && existing.messageIds.length > 0 && !existing.readOnly) return state;
      return withConversation(state, a.conversationId, (c) => ({
        ...historyToConversation(a.conversationId, a.history, a.stamps),
        notSaved: c.notSaved ?? null,
      }));
    }
    case "read-only-loaded": {
      const existing = state.conversations[a.conversationId];
      if (existing && existing.messageIds.length > 0 && !existing.readOnly) return state;
      return withConversation(state, a.conversationId, () => readOnlyToConversation(a.conversationId, a.rows, a.reason));
    }
    case "conversation-rewound":
      return withConversation(state, a.conversationId, (before) => {
        const after = historyToConversation(a.conversationId, a.history, a.stamps);
        // The engine drops the compactions of what the rewind dropped; an earlier one stays (the
        // rewind asks chat_compaction again, which names the one that now holds).
        const kept = before.compaction && before.compaction.summarizedMessages < a.history.length ? before.compaction : null;
        const rewound = rewindMark(before, after);
        return { ...after, rewound, ...(kept ? { compaction: compactionMark(after, kept, false) } : {}) };
      });
    case "compaction-loaded": {
      const c = state.conversations[a.conversationId];
      if (!c) return state;
      if (!a.compaction) return c.compaction ? withConversation(state, c.id, () => ({ ...c, compaction: null })) : state;
      const compaction = compactionMark(c, a.compaction, false);
      return withConversation(state, c.id, () => ({ ...c, compaction }));
    }
    default:
      return state;
  }
}

export function reduce(state: ChatState, action: Action): ChatState {
  if (!isObject(action)) return state;
  if ("event" in action && typeof action.event === "string") {
    if (!("payload" in action)) return state;
    return foldEvent(state, action);
  }
  if ("type" in action) return foldLocal(state, action);
  return state;
}

/** What a rewind dropped from the view: the shown messages after the kept ones, from the first. */
function rewindMark(before: Conversation, after: Conversation): RewindMark | null {
  const dropped = before.messageIds.slice(after.messageIds.length).map((id) => before.messages[id]);
  const first = dropped[0];
  if (!first) return null;
  const text = first.kind === "user" ? first.text.trim().split("\n")[0] ?? "" : "";
  return { droppedMessages: dropped.length, from: text.length > 60 ? `${text.slice(0, 59)}…` : text };
}
