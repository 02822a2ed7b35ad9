// The steps of a proposed plan as the user edits them before approving: each a one-line field that
// can be moved up or down or removed, a step added at the end; what keeps them from being a plan
// the engine takes is said under them, and Approve waits until nothing does.
import { useId } from "react";
import { TID } from "../../shared/testids";
import { approvedSteps, MAX_STEPS, planProblems, stepProblem, type DraftStep } from "./planSteps";
import { usePlanStepsDraft } from "./usePlanStepsDraft";

export function PlanStepsEditor({
  steps: proposed,
  canApprove,
  onApprove,
  onKeepPlanning,
}: {
  steps: readonly string[];
  /** False while the answer is still streaming. */
  canApprove: boolean;
  onApprove: (steps: string[]) => void;
  onKeepPlanning: () => void;
}) {
  const { steps, box, setText, move, remove, add } = usePlanStepsDraft(proposed);
  const problems = planProblems(steps.map((s) => s.text));
  const ids = useId();

  return (
    <div ref={box}>
      <ol className="plan-steps" aria-label="Steps">
        {steps.map((step, i) => (
          <EditableStep
            key={step.key}
            ids={ids}
            step={step}
            index={i}
            last={i === steps.length - 1}
            onText={(text) => setText(step.key, text)}
            onMove={(by) => move(step.key, by)}
            onRemove={() => remove(step.key)}
          />
        ))}
      </ol>
      <button
        type="button"
        className="link plan-step-add"
        data-testid={TID.planStepAdd}
        disabled={steps.length >= MAX_STEPS}
        onClick={add}
      >
        Add a step
      </button>
      {problems.length > 0 && (
        <ul className="plan-problems field-error small" id={`${ids}-problems`} data-testid={TID.planProblems}>
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div className="plan-actions">
        <button
          type="button"
          className="primary"
          data-testid={TID.planApprove}
          disabled={!canApprove || problems.length > 0}
          aria-describedby={problems.length > 0 ? `${ids}-problems` : undefined}
          onClick={() => onApprove(approvedSteps(steps))}
        >
          Approve and start
        </button>
        <button type="button" data-testid={TID.planKeepPlanning} onClick={onKeepPlanning}>
          Keep planning
        </button>
      </div>
    </div>
  );
}

function EditableStep({
  ids,
  step,
  index,
  last,
  onText,
  onMove,
  onRemove,
}: {
  /** The editor's own prefix for element ids. */
  ids: string;
  step: DraftStep;
  index: number;
  last: boolean;
  onText: (text: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const problem = stepProblem(step.text, index);
  const problemId = `${ids}-step-${step.key}`;
  return (
    <li className="plan-step" data-testid={TID.planStep} data-key={step.key}>
      <span className="plan-step-number muted" aria-hidden="true">
        {n}.
      </span>
      <input
        type="text"
        className="plan-step-input"
        data-testid={TID.planStepInput}
        data-part="input"
        aria-label={`Step ${n}`}
        aria-invalid={problem !== null}
        aria-describedby={problem ? problemId : undefined}
        value={step.text}
        onChange={(e) => onText(e.target.value)}
      />
      <button type="button" data-testid={TID.planStepUp} data-part="up" aria-label={`Move step ${n} up`} disabled={index === 0} onClick={() => onMove(-1)}>
        ↑
      </button>
      <button type="button" data-testid={TID.planStepDown} data-part="down" aria-label={`Move step ${n} down`} disabled={last} onClick={() => onMove(1)}>
        ↓
      </button>
      <button type="button" data-testid={TID.planStepRemove} data-part="remove" aria-label={`Remove step ${n}`} onClick={onRemove}>
        ×
      </button>
      {problem && (
        <span className="plan-step-problem field-error small" id={problemId}>
          {problem}
        </span>
      )}
    </li>
  );
}
