// The composer's plan mode switch (docs/PLAN_MODE.md): a toggle button beside the message field,
// Ctrl/Cmd+Shift+P from anywhere in the window, and the line that says the mode is on.
import { useEffect } from "react";
import { listenShortcuts } from "../../shared/keyboard";
import { TID } from "../../shared/testids";
import { planModeOf, setPlanMode, usePlanMode } from "./planMode";
import "./plan.css";

/** What plan mode means, said where it is switched and while it is on. */
export const PLAN_MODE_SAID = "Plan mode: the model only reads, then proposes a plan";

export function PlanToggle({ conversationId, disabled }: { conversationId: string; disabled: boolean }) {
  const [on, setOn] = usePlanMode(conversationId);
  useEffect(() => {
    if (disabled) return;
    return listenShortcuts((shortcut) => {
      if (shortcut !== "togglePlanMode") return false;
      setPlanMode(conversationId, !planModeOf(conversationId));
      return true;
    });
  }, [conversationId, disabled]);
  return (
    <button
      type="button"
      className={`composer-plan${on ? " composer-plan-on" : ""}`}
      data-testid={TID.planToggle}
      aria-pressed={on}
      aria-label="Plan mode"
      title={`${PLAN_MODE_SAID} (Ctrl+Shift+P)`}
      disabled={disabled}
      onClick={() => setOn(!on)}
    >
      Plan
    </button>
  );
}

/** Above the composer while plan mode is on; a live region, so turning it on by the keys is heard. */
export function PlanModeLine({ conversationId }: { conversationId: string }) {
  const [on] = usePlanMode(conversationId);
  return (
    <p className="plan-mode-line small" data-testid={TID.planModeLine} role="status">
      {on && PLAN_MODE_SAID}
    </p>
  );
}
