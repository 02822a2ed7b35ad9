// Settings → Skills: the skills (SKILL.md folders) the model may load, each with a switch; the custom
// slash commands (markdown files) the composer offers after "/"; and the files left out, with why.
import { TID } from "../../shared/testids";
import { CommandRow, ProblemList, SkillRow } from "./ConventionLists";
import { useSkillsList } from "./useSkillsList";
import "./skills.css";

export function SkillsSection({
  projectDir,
  savedCount,
  beforeChange,
  onChanged,
}: {
  /** The chosen project: its own skills and commands are listed (read again when it changes). */
  projectDir?: string | null;
  /** Saves that landed so far: the list is read again after each (the project may have changed). */
  savedCount: number;
  /** Runs before a skill is switched: the settings not saved yet are saved first. */
  beforeChange?: () => Promise<void>;
  /** A skill was switched (the settings the window holds are out of date). */
  onChanged?: () => void;
}) {
  const { found, error, busy, failed, switchSkill } = useSkillsList(
    `${projectDir ?? ""}#${savedCount}`,
    beforeChange,
    onChanged,
  );
  return (
    <section className="settings-section" data-testid={TID.skillsSection}>
      <h3>Skills</h3>
      <p className="muted">
        A skill is instructions for one kind of work: the model sees its name and description, and reads the rest
        when a task calls for it (or when you type /name). A custom command is a message you send by typing /name.
        Switched-off skills are not offered to new conversations.
      </p>
      {!projectDir && (
        <p className="muted small">Skills and commands are used in conversations with a project folder.</p>
      )}
      {error && (
        <p className="field-error" role="alert" data-testid={TID.conventionsError}>
          Could not read the skills and commands: {error}
        </p>
      )}
      {found === null && !error && <p className="muted small">Looking…</p>}
      {found && (
        <>
          {found.skills.length === 0 ? (
            <p className="muted small">
              No skills found. A skill is a folder holding a SKILL.md (its name and description at the top, then
              the instructions), put in Warden&apos;s config folder (skills/), in ~/.agents/skills/, or in the
              project&apos;s .agents/skills/ or .claude/skills/.
            </p>
          ) : (
            <ul className="convention-list">
              {found.skills.map((skill) => (
                <SkillRow
                  key={skill.path}
                  skill={skill}
                  busy={busy.has(skill.name)}
                  error={failed[skill.name] ?? null}
                  onSwitch={(on) => void switchSkill(skill.name, on)}
                />
              ))}
            </ul>
          )}
          <h4>Custom commands</h4>
          {found.commands.length === 0 ? (
            <p className="muted small">
              No custom commands found. A command is a markdown file named for it (review.md is /review), put in
              Warden&apos;s config folder (commands/) or in the project&apos;s .claude/commands/ or .agents/commands/.
            </p>
          ) : (
            <ul className="convention-list">
              {found.commands.map((command) => (
                <CommandRow key={command.path} command={command} />
              ))}
            </ul>
          )}
          <ProblemList problems={found.problems} />
        </>
      )}
    </section>
  );
}
