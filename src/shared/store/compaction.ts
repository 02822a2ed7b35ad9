// Where a compaction falls among the shown messages. The engine counts messages of its history
// (`chat_history`); the view shows fewer: a history message holding only tool results is not shown
// (the results sit on their calls), and a failed or stopped answer that said nothing is shown but
// not kept. This maps one to the other.
import type { CompactionInfo } from "../ipc";
import type { AssistantMessage, ChatMessage, CompactionMark, Conversation } from "./types";

/** `history-3`: the fourth message of a loaded history (see history.ts). */
const LOADED = /^history-(\d+)$/;

function hasCalls(m: AssistantMessage): boolean {
  return m.segments.some((s) => s.kind === "tool");
}

/** Whether the engine kept a live answer in its history. */
function keptAnswer(m: AssistantMessage): boolean {
  if (!m.partial) return true;
  // Cut short: it keeps what was said, or the whole message when its calls had started to run.
  return hasCalls(m) || m.segments.some((s) => s.kind === "text" && s.buf.length > 0);
}

/**
 * The last shown message among the first `summarized` messages of the conversation's history: the
 * divider goes under it. Loaded messages know their place; a live one is counted as the engine
 * keeps it: a message the user sent (once an answer followed it: a send refused before the turn
 * is not kept), an answer, then its calls' results as one more message, and the "give your final
 * answer" prompt before an answer that ended on the budget.
 */
export function lastSummarizedMessage(c: Conversation, summarized: number): string | null {
  let next = 0;
  let last: string | null = null;
  const ids = c.messageIds;
  for (let i = 0; i < ids.length; i += 1) {
    const id = ids[i]!;
    const m: ChatMessage | undefined = c.messages[id];
    if (!m) continue;
    const loaded = LOADED.exec(id);
    let start = next;
    let kept = 1;
    if (loaded) {
      start = Number(loaded[1]);
    } else if (m.kind === "user") {
      const following = i + 1 < ids.length ? c.messages[ids[i + 1]!] : undefined;
      if (following?.kind !== "assistant") kept = 0;
    } else if (m.kind !== "assistant" || !keptAnswer(m)) {
      kept = 0;
    } else if (m.stopReason === "budget") {
      start = next + 1;
    }
    if (start >= summarized) break;
    last = id;
    if (kept) next = start + 1 + (m.kind === "assistant" && hasCalls(m) ? 1 : 0);
  }
  return last;
}

/** The message whose usage the context gauge shows now (the last one that reported any). */
export function lastUsageMessage(c: Conversation): string | null {
  for (let i = c.messageIds.length - 1; i >= 0; i -= 1) {
    const m = c.messages[c.messageIds[i]!];
    if (m?.kind === "assistant" && m.usage) return m.id;
  }
  return null;
}

export function compactionMark(c: Conversation, info: CompactionInfo, live: boolean): CompactionMark {
  return {
    summarizedMessages: info.summarizedMessages,
    tokensBefore: info.tokensBefore,
    tokensAfter: info.tokensAfter,
    afterMessageId: lastSummarizedMessage(c, info.summarizedMessages),
    replacesUsageOf: live ? lastUsageMessage(c) : null,
  };
}
