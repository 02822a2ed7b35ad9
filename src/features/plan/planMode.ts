// Plan mode, per conversation: while it is on, each message is sent in plan mode (the model only
// reads, then proposes a plan: docs/PLAN_MODE.md). It stays on until the user turns it off or
// approves a plan. Kept for this window's life, never in storage: a reopened window starts with it
// off, as a plan-mode turn is a choice made for the message at hand.
import { useCallback, useSyncExternalStore } from "react";

const on = new Set<string>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the next message of `conversationId` goes in plan mode. */
export function planModeOf(conversationId: string): boolean {
  return on.has(conversationId);
}

/** Turn plan mode of `conversationId` on or off. */
export function setPlanMode(conversationId: string, value: boolean): void {
  if (on.has(conversationId) === value) return;
  if (value) on.add(conversationId);
  else on.delete(conversationId);
  listeners.forEach((l) => l());
}

/** Plan mode of a conversation, read from React, and the way to change it. */
export function usePlanMode(conversationId: string): [boolean, (value: boolean) => void] {
  const value = useSyncExternalStore(subscribe, () => on.has(conversationId));
  const set = useCallback((next: boolean) => setPlanMode(conversationId, next), [conversationId]);
  return [value, set];
}

/** Every conversation back to plan mode off (tests start from there). */
export function resetPlanModeForTests(): void {
  on.clear();
  listeners.forEach((l) => l());
}
