// A stored conversation (provider-neutral history from `chat_history`) as UI state, so a reopened
// conversation looks like it did while it streamed: tool results land on their tool blocks.
import type { HistoryMessage, MessageStamp } from "../ipc";
import { emptyAssistant, emptyConversation, newToolBlock } from "./empty";
import { statusFromResult } from "./toolStatus";
import { textFrom } from "./textBuffer";
import type { AssistantMessage, Conversation, Segment } from "./types";

/** `stamps` (from `chat_message_stamps`, same order) give each message its time and each answer its model. */
export function historyToConversation(id: string, history: HistoryMessage[], stamps: MessageStamp[] = []): Conversation {
  const conv: Conversation = emptyConversation(id);
  history.forEach((msg, i) => {
    const messageId = `history-${i}`;
    const at = stamps[i]?.atMs ?? null;
    if (msg.role === "user") {
      const text = msg.content
        .map((b) => (b.type === "text" ? b.text : ""))
        .join("");
      // Images the user attached (a message may be only images).
      const images = msg.content.flatMap((b) => (b.type === "image" ? [{ mediaType: b.mediaType, data: b.data }] : []));
      for (const b of msg.content) {
        if (b.type !== "tool_result") continue;
        const t = conv.tools[b.toolUseId];
        if (t) {
          // The engine keeps why a call failed: a reopened conversation says "timed out" or
          // "not allowed" as the live one did (older files without a code read as failures).
          const code = b.code ?? null;
          conv.tools[b.toolUseId] = {
            ...t,
            status: statusFromResult({ status: b.isError ? "error" : "success" }, code),
            errorCode: code,
            result: b.content,
            ...(b.images?.length ? { images: b.images } : {}),
          };
        }
      }
      if (text || images.length) {
        conv.messageIds.push(messageId);
        conv.messages[messageId] = { kind: "user", id: messageId, text, at, ...(images.length ? { images } : {}) };
      }
      return;
    }
    const segments: Segment[] = [];
    for (const b of msg.content) {
      if (b.type === "text" && b.text) segments.push({ kind: "text", buf: textFrom(b.text) });
      else if (b.type === "thinking" && b.thinking) segments.push({ kind: "thinking", buf: textFrom(b.thinking) });
      else if (b.type === "tool_use") {
        conv.tools[b.id] = {
          ...newToolBlock(b.id, id, messageId),
          toolName: b.name,
          input: b.input ?? null,
          // Until its result is seen further on; a call with no result never ran to the end.
          status: "cancelled",
        };
        segments.push({ kind: "tool", toolId: b.id });
      }
    }
    const m: AssistantMessage = { ...emptyAssistant(messageId), segments, streaming: false, at, model: stamps[i]?.model ?? null };
    conv.messageIds.push(messageId);
    conv.messages[messageId] = m;
  });
  return conv;
}
