// Settings → Skills, its lists: each skill with where it came from and its switch, each custom
// command with its argument hint and file, and the files left out with why.
import type { ConventionOrigin, ConventionProblem, SkillEntry, SlashCommandEntry } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/** Where a skill or command was found, in words. */
export const ORIGIN_WORDS: Record<ConventionOrigin, string> = {
  warden: "Warden's config folder",
  agents: "~/.agents",
  project: "this project",
};

export function SkillRow({
  skill,
  busy,
  error,
  onSwitch,
}: {
  skill: SkillEntry;
  /** Its switch is being saved. */
  busy: boolean;
  /** Why the last switch failed (it is back as it was). */
  error: string | null;
  onSwitch: (on: boolean) => void;
}) {
  return (
    <li className="convention-row" data-testid={TID.skillRow} data-name={skill.name} data-on={skill.on}>
      <div className="convention-head">
        <strong>{skill.name}</strong>
        <span className="muted small">from {ORIGIN_WORDS[skill.origin]}</span>
        <label className="checkbox convention-switch">
          <input
            type="checkbox"
            data-testid={TID.skillSwitch}
            aria-label={`Offer the skill ${skill.name}`}
            checked={skill.on}
            disabled={busy}
            onChange={(e) => onSwitch(e.target.checked)}
          />
          {skill.on ? "On" : "Off"}
        </label>
      </div>
      {skill.description && <p className="convention-description">{skill.description}</p>}
      <code className="convention-path">{skill.path}</code>
      {error && (
        <p className="field-error small" role="alert" data-testid={TID.skillError}>
          {error}
        </p>
      )}
    </li>
  );
}

export function CommandRow({ command }: { command: SlashCommandEntry }) {
  return (
    <li className="convention-row" data-testid={TID.commandRow} data-name={command.name}>
      <div className="convention-head">
        <strong>
          <code>/{command.name}</code>
        </strong>
        {command.argumentHint && <code className="muted">{command.argumentHint}</code>}
        <span className="muted small">from {ORIGIN_WORDS[command.origin]}</span>
      </div>
      {command.description && <p className="convention-description">{command.description}</p>}
      <code className="convention-path">{command.path}</code>
    </li>
  );
}

export function ProblemList({ problems }: { problems: readonly ConventionProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="convention-problems muted small" data-testid={TID.conventionProblems}>
      <p>Left out:</p>
      <ul>
        {problems.map((p, i) => (
          <li key={`${p.path} ${i}`}>
            <code>{p.path}</code>: {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
