// A proposed plan under the message that proposed it (docs/PLAN_MODE.md): the model's markdown, and
// its steps to edit and approve. Approving sends the next message with the steps as edited (they
// become the task list) and turns plan mode off; "Keep planning" leaves plan mode on and the caret
// in the message field. Once approved, or once the conversation went on without it, the card only
// shows the plan (and the steps approved).
import { memo, useCallback } from "react";
import { focusComposer } from "../../shared/keyboard";
import type { PlanMark } from "../../shared/store/plan";
import { useChatStore } from "../../shared/store/store";
import type { Conversation } from "../../shared/store/types";
import { TID } from "../../shared/testids";
import { VisibleText } from "../../shared/ui/VisibleText";
import { Markdown } from "../chat/transcript/LazyMarkdown";
import { useChatActions } from "../chat/useChatActions";
import { setPlanMode } from "./planMode";
import { PlanStepsEditor } from "./PlanStepsEditor";
import "./plan.css";

/** The message sent with the approved steps. */
export const APPROVE_MESSAGE = "Carry out the approved plan.";

/** What the card shows: the plan to decide on, approved, or passed by (a later message was written). */
export type PlanCardState = "open" | "approved" | "passed";

/** Whether the user wrote a message after `messageId`: looked for from the end, where the plan usually is. */
function wentOnAfter(c: Conversation, messageId: string): boolean {
  for (let i = c.messageIds.length - 1; i >= 0; i--) {
    const id = c.messageIds[i]!;
    if (id === messageId) return false;
    if (c.messages[id]?.kind === "user") return true;
  }
  return false;
}

export function PlanCard({
  conversationId,
  conversation,
  readOnly,
}: {
  conversationId: string;
  conversation: Conversation;
  /** A conversation that cannot be read whole: nothing is sent into it. */
  readOnly: boolean;
}) {
  const plan = conversation.plan;
  const store = useChatStore();
  const { send } = useChatActions(conversationId);
  const messageId = plan?.messageId ?? null;
  const approve = useCallback(
    (steps: string[]) => {
      if (messageId === null) return;
      store.dispatch({ type: "plan-approved", conversationId, messageId, steps });
      setPlanMode(conversationId, false);
      send(APPROVE_MESSAGE, [], { approvedPlan: steps });
      focusComposer();
    },
    [store, send, conversationId, messageId],
  );
  const keepPlanning = useCallback(() => {
    setPlanMode(conversationId, true);
    focusComposer();
  }, [conversationId]);
  if (!plan) return null;
  const state: PlanCardState = plan.approved ? "approved" : readOnly || wentOnAfter(conversation, plan.messageId) ? "passed" : "open";
  return (
    <PlanCardView plan={plan} state={state} running={conversation.running} onApprove={approve} onKeepPlanning={keepPlanning} />
  );
}

/** The card itself: drawn again only when the plan, its state or the turn's running change, not on each streamed word. */
const PlanCardView = memo(function PlanCardView({
  plan,
  state,
  running,
  onApprove,
  onKeepPlanning,
}: {
  plan: PlanMark;
  state: PlanCardState;
  running: boolean;
  onApprove: (steps: string[]) => void;
  onKeepPlanning: () => void;
}) {
  return (
    <section className={`plan-card plan-card-${state}`} data-testid={TID.planCard} data-state={state} aria-label="Proposed plan">
      <header className="plan-card-head">
        <strong>Proposed plan</strong>
        {state === "approved" && <span className="badge badge-safe">approved</span>}
        {state === "passed" && <span className="badge">not approved</span>}
      </header>
      <div className="plan-card-text markdown">
        <Markdown text={plan.plan} />
      </div>
      {state === "open" ? (
        <PlanStepsEditor key={plan.messageId} steps={plan.steps} canApprove={!running} onApprove={onApprove} onKeepPlanning={onKeepPlanning} />
      ) : (
        <ol className="plan-steps plan-steps-read" aria-label={state === "approved" ? "Steps approved" : "Steps proposed"}>
          {(plan.approved ?? plan.steps).map((step, i) => (
            <li key={i} className="plan-step" data-testid={TID.planStep}>
              <VisibleText text={step} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
});
