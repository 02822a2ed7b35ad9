// The steps of a proposed plan while the user edits them: the list, the edits, and where the focus
// goes after one (the control used may be gone or disabled: a removed step, a step moved to an end).
import { useLayoutEffect, useRef, useState } from "react";
import { TID } from "../../shared/testids";
import { draftSteps, moved, withNew, without, withText, type DraftStep } from "./planSteps";

/** Which control of which step takes the focus after an edit. */
type FocusNext = { key: number; part: "input" | "up" | "down" } | { key: null; part: "add" };

export function usePlanStepsDraft(proposed: readonly string[]) {
  const [steps, setSteps] = useState<readonly DraftStep[]>(() => draftSteps(proposed));
  const nextKey = useRef(proposed.length);
  /** The card's element holding the list and its "Add a step". */
  const box = useRef<HTMLDivElement>(null);
  const focusNext = useRef<FocusNext | null>(null);

  useLayoutEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    const root = box.current;
    if (!next || !root) return;
    const target =
      next.part === "add"
        ? root.querySelector<HTMLElement>(`[data-testid="${TID.planStepAdd}"]`)
        : (root.querySelector<HTMLElement>(`[data-key="${next.key}"] [data-part="${next.part}"]:not(:disabled)`) ??
          root.querySelector<HTMLElement>(`[data-key="${next.key}"] [data-part="input"]`));
    target?.focus();
  }, [steps]);

  return {
    steps,
    box,
    setText: (key: number, text: string) => setSteps(withText(steps, key, text)),
    move: (key: number, by: -1 | 1) => {
      focusNext.current = { key, part: by < 0 ? "up" : "down" };
      setSteps(moved(steps, key, by));
    },
    remove: (key: number) => {
      const at = steps.findIndex((s) => s.key === key);
      const neighbour = steps[at + 1] ?? steps[at - 1];
      focusNext.current = neighbour ? { key: neighbour.key, part: "input" } : { key: null, part: "add" };
      setSteps(without(steps, key));
    },
    add: () => {
      const key = nextKey.current++;
      focusNext.current = { key, part: "input" };
      setSteps(withNew(steps, key));
    },
  };
}
