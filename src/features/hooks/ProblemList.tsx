// What `hooks_check` found in the hooks about to be saved: while there is any, nothing is saved.
import { TID } from "../../shared/testids";
import { VisibleText } from "../../shared/ui/VisibleText";

export function ProblemList({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="field-error" role="alert" data-testid={TID.hooksProblems}>
      Not saved: these hooks would not run as written.
      <ul>
        {problems.map((problem, i) => (
          <li key={i}>
            <VisibleText text={problem} />
          </li>
        ))}
      </ul>
    </div>
  );
}
