// The plan a plan-mode turn ended with (docs/PLAN_MODE.md), as the store keeps it: from `chat:plan`
// while the window watched, or found again in a saved history: the last `propose_plan` call that
// went through, and the steps approved after it (the `todo_write` Warden made for the user with the
// next message the user wrote).
import type { HistoryMessage, JsonValue } from "../ipc";
import { isKnownBlock } from "./newer";
import type { Conversation } from "./types";

export interface PlanMark {
  /** The assistant message whose `propose_plan` call it is: the card goes under it. */
  messageId: string;
  /** The plan in markdown, as the model wrote it. */
  plan: string;
  /** Its steps as proposed. */
  steps: string[];
  /** The steps the user approved (as edited); null while not approved. */
  approved: string[] | null;
}

const PROPOSE_PLAN = "propose_plan";
const TODO_WRITE = "todo_write";
/** The ids of the calls Warden makes for the user before the model answers (an approved plan's `todo_write`). */
const WARDEN_CALL = /^warden_/;

const strings = (x: unknown): string[] | null =>
  Array.isArray(x) && x.every((s) => typeof s === "string") ? (x as string[]) : null;

/** A `propose_plan` input that is a plan: its markdown and steps. */
function planInput(input: JsonValue | undefined): { plan: string; steps: string[] } | null {
  if (!input || typeof input !== "object" || Array.isArray(input)) return null;
  const plan = input.plan;
  const steps = strings(input.steps);
  return typeof plan === "string" && plan.trim() && steps?.length ? { plan, steps } : null;
}

/** The steps of a `todo_write` input (`{items: [{text}]}`). */
function todoSteps(input: JsonValue | undefined): string[] | null {
  if (!input || typeof input !== "object" || Array.isArray(input) || !Array.isArray(input.items)) return null;
  const texts = input.items.map((item) => (item && typeof item === "object" && !Array.isArray(item) ? item.text : null));
  return strings(texts);
}

/**
 * The last plan proposed in a saved history (`messages[i]` is shown as `history-${i}`; null: a
 * message that could not be read), with the steps approved after it when it was.
 */
export function planFromHistory(messages: readonly (HistoryMessage | null)[]): PlanMark | null {
  let found: { index: number; toolId: string; plan: string; steps: string[] } | null = null;
  for (const [index, msg] of messages.entries()) {
    for (const b of (msg?.content ?? []).filter(isKnownBlock)) {
      if (msg?.role === "assistant" && b.type === "tool_use" && b.name === PROPOSE_PLAN) {
        const input = planInput(b.input);
        if (input) found = { index, toolId: b.id, ...input };
      }
      // Refused (outside plan mode, or not a plan): no card was shown.
      if (b.type === "tool_result" && b.isError && found?.toolId === b.toolUseId) found = null;
    }
  }
  if (!found) return null;
  const { index, plan, steps } = found;
  return { messageId: `history-${index}`, plan, steps, approved: approvedAfter(messages, index) };
}

/** The steps approved after the plan at `index`: the next message written, then Warden's `todo_write`. */
function approvedAfter(messages: readonly (HistoryMessage | null)[], index: number): string[] | null {
  const written = messages.findIndex(
    (m, i) => i > index && m?.role === "user" && m.content.some((b) => isKnownBlock(b) && b.type === "text" && b.text.trim() !== ""),
  );
  if (written < 0) return null;
  const answer = messages.slice(written + 1).find((m) => m?.role === "assistant");
  const first = answer?.content.filter(isKnownBlock).find((b) => b.type === "tool_use");
  if (!first || first.type !== "tool_use" || first.name !== TODO_WRITE || !WARDEN_CALL.test(first.id)) return null;
  return todoSteps(first.input);
}

/** The conversation with its plan under `messageId` approved with `steps` (another plan: unchanged). */
export function withPlanApproved(c: Conversation, messageId: string, steps: string[]): Conversation {
  return c.plan?.messageId === messageId ? { ...c, plan: { ...c.plan, approved: steps } } : c;
}
