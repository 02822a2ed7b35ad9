// Derived reads over ChatState that components and tests share.
import type { HookRun } from "../ipc";
import type { AssistantMessage, ChatState, Conversation, ToolBlock } from "./types";
import { textOf } from "./textBuffer";

export function messageText(m: AssistantMessage): string {
  return m.segments.map((s) => (s.kind === "text" ? textOf(s.buf) : "")).join("");
}

export function messageThinking(m: AssistantMessage): string {
  return m.segments.map((s) => (s.kind === "thinking" ? textOf(s.buf) : "")).join("");
}

/** Tool ids of a message in the order they happened. */
export function messageToolIds(m: AssistantMessage): string[] {
  return m.segments.flatMap((s) => (s.kind === "tool" ? [s.toolId] : []));
}

export function toolsInOrder(c: Conversation, m: AssistantMessage): ToolBlock[] {
  return messageToolIds(m).flatMap((id) => {
    const t = c.tools[id];
    return t ? [t] : [];
  });
}

export function assistantMessages(c: Conversation): AssistantMessage[] {
  return c.messageIds.flatMap((id) => {
    const m = c.messages[id];
    return m && m.kind === "assistant" ? [m] : [];
  });
}

/** Tokens in the context after the latest reported message: its prompt plus its answer. */
/** Tokens in the context as of the last message that said: its usage, else its estimate. */
export function contextTokens(c: Conversation): number {
  // An answer cut short without the provider's count (a failed or stopped turn) says little: its
  // estimate is of a request that never finished, so the last real figure stands.
  const counted = assistantMessages(c).filter((m) => m.usage || (m.estimatedContext !== null && !m.partial));
  const last = counted[counted.length - 1];
  if (!last) return 0;
  return last.usage ? last.usage.inputTokens + last.usage.outputTokens : (last.estimatedContext ?? 0);
}

/** Whether the last finished answer came without usage: the provider reports none. */
export function usageNotReported(c: Conversation): boolean {
  const finished = assistantMessages(c).filter((m) => !m.streaming && !(m.partial && !m.usage));
  const last = finished[finished.length - 1];
  return !!last && !last.usage && last.estimatedContext !== null;
}

export function findTool(s: ChatState, toolId: string): ToolBlock | undefined {
  for (const c of Object.values(s.conversations)) {
    const t = c.tools[toolId];
    if (t) return t;
  }
  return undefined;
}

/**
 * The hook runs tied to no message, by the message they follow (null: before the first). Built from
 * `c.hookRuns` alone: a caller memoizes on that array, which changes only when a run arrives.
 */
export function hookRunsByPlace(runs: Conversation["hookRuns"]): Map<string | null, HookRun[]> {
  const byPlace = new Map<string | null, HookRun[]>();
  for (const { afterMessageId, run } of runs ?? []) {
    const list = byPlace.get(afterMessageId);
    if (list) list.push(run);
    else byPlace.set(afterMessageId, [run]);
  }
  return byPlace;
}
