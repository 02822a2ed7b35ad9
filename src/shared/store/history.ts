// A stored conversation (provider-neutral history from `chat_history`) as UI state, so a reopened
// conversation looks like it did while it streamed: tool results land on their tool blocks. What a
// newer Warden saved that this one cannot show stays visible as such, and a conversation that
// cannot be read whole opens read-only, its unreadable messages marked where they were.
import type { HistoryMessage, MessageStamp, SavedRow } from "../ipc";
import { emptyAssistant, emptyConversation, newToolBlock } from "./empty";
import { isKnownBlock, knownToolErrorCode } from "./newer";
import { planFromHistory } from "./plan";
import { statusFromResult } from "./toolStatus";
import { textFrom } from "./textBuffer";
import type { AssistantMessage, Conversation, Segment } from "./types";

/** `stamps` (from `chat_message_stamps`, same order) give each message its time and each answer its model. */
export function historyToConversation(id: string, history: HistoryMessage[], stamps: MessageStamp[] = []): Conversation {
  const conv: Conversation = emptyConversation(id);
  history.forEach((msg, i) => addMessage(conv, msg, i, stamps[i]));
  const plan = planFromHistory(history);
  if (plan) conv.plan = plan;
  return conv;
}

/** A conversation that cannot be read whole, as far as it can be read (`chat_history_read_only`): read-only. */
export function readOnlyToConversation(id: string, rows: SavedRow[], reason: string): Conversation {
  const conv: Conversation = { ...emptyConversation(id), readOnly: { reason } };
  rows.forEach((row, i) => {
    if (row.kind === "read") {
      addMessage(conv, row.message, i, row.stamp);
    } else {
      const messageId = `history-${i}`;
      conv.messageIds.push(messageId);
      conv.messages[messageId] = { kind: "unreadable", id: messageId, reason: row.reason };
    }
  });
  const plan = planFromHistory(rows.map((row) => (row.kind === "read" ? row.message : null)));
  if (plan) conv.plan = plan;
  return conv;
}

function addMessage(conv: Conversation, msg: HistoryMessage, i: number, stamp: MessageStamp | undefined) {
  const messageId = `history-${i}`;
  const at = stamp?.atMs ?? null;
  const blocks = msg.content.filter(isKnownBlock);
  // Parts a newer Warden saved, of kinds this one cannot show: named where they were.
  const newer = msg.content.flatMap((b) => (isKnownBlock(b) ? [] : [b.type]));
  if (msg.role === "user") {
    const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
    // Images the user attached (a message may be only images).
    const images = blocks.flatMap((b) => (b.type === "image" ? [{ mediaType: b.mediaType, data: b.data }] : []));
    for (const b of blocks) {
      if (b.type !== "tool_result") continue;
      const t = conv.tools[b.toolUseId];
      if (t) {
        // The engine keeps why a call failed: a reopened conversation says "timed out" or
        // "not allowed" as the live one did (older files without a code read as failures; a
        // newer Warden's code is shown as such).
        const code = knownToolErrorCode(b.code);
        const newerCode = b.code && !code ? b.code : null;
        conv.tools[b.toolUseId] = {
          ...t,
          status: statusFromResult({ status: b.isError ? "error" : "success" }, code),
          errorCode: code,
          ...(newerCode ? { newerCode } : {}),
          result: b.content,
          report: b.report ?? null,
          ...(b.images?.length ? { images: b.images } : {}),
          // The hooks that ran for the call, kept with its result.
          ...(b.report?.hooks?.length ? { hooks: b.report.hooks } : {}),
        };
      }
      // The last task list written is the one in force.
      if (b.report?.todo) conv.todo = b.report.todo;
    }
    if (text || images.length || newer.length) {
      conv.messageIds.push(messageId);
      conv.messages[messageId] = {
        kind: "user",
        id: messageId,
        text,
        at,
        ...(images.length ? { images } : {}),
        ...(newer.length ? { newer } : {}),
      };
    }
    return;
  }
  const segments: Segment[] = [];
  for (const b of msg.content) {
    if (!isKnownBlock(b)) segments.push({ kind: "newer", blockType: b.type });
    else if (b.type === "text" && b.text) segments.push({ kind: "text", buf: textFrom(b.text) });
    else if (b.type === "thinking" && b.thinking) segments.push({ kind: "thinking", buf: textFrom(b.thinking) });
    else if (b.type === "tool_use") {
      conv.tools[b.id] = {
        ...newToolBlock(b.id, conv.id, messageId),
        toolName: b.name,
        input: b.input ?? null,
        // Until its result is seen further on; a call with no result never ran to the end.
        status: "cancelled",
      };
      segments.push({ kind: "tool", toolId: b.id });
    }
  }
  const m: AssistantMessage = {
    ...emptyAssistant(messageId),
    segments,
    streaming: false,
    at,
    model: stamp?.model ?? null,
    // What it cost, as saved with it: the gauge of a reopened conversation reads as the live one did.
    usage: stamp?.usage ?? null,
    estimatedContext: stamp?.usage ? null : (stamp?.estimatedContextTokens ?? null),
  };
  conv.messageIds.push(messageId);
  conv.messages[messageId] = m;
}
