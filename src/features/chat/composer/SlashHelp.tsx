// `/help`: what can follow "/" at the start of a message — the window's built-ins, the custom
// commands and the skills, each with what it says about itself.
import type { ConventionsInUse } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { BUILT_INS, ORIGIN_LABEL } from "./slashCommands";

type EntryProps = { name: string; hint?: string | null; about: string | null; badge?: string; title?: string };

function Entry({ name, hint, about, badge, title }: EntryProps) {
  return (
    <li className="slash-help-entry" title={title}>
      <code>/{name}</code>
      {hint && <span className="slash-hint"> {hint}</span>}
      {badge && <span className="badge slash-badge">{badge}</span>}
      {about && <span className="muted"> — {about}</span>}
    </li>
  );
}

export function SlashHelp({ found, projectChosen }: { found: ConventionsInUse | null; projectChosen: boolean }) {
  const skills = found?.skills ?? [];
  const commands = found?.commands ?? [];
  return (
    <div className="slash-help" data-testid={TID.slashHelp}>
      <h3>Built-in commands</h3>
      <ul>
        {BUILT_INS.map((b) => (
          <Entry key={b.name} name={b.name} about={b.description} />
        ))}
      </ul>
      {!projectChosen && (
        <p className="muted small">
          Custom commands and skills work in a project folder: choose one in Settings → Project.
        </p>
      )}
      <h3>Custom commands</h3>
      {commands.length === 0 ? (
        <p className="muted small">None: a command is a markdown file in a commands/ folder (Settings → Skills).</p>
      ) : (
        <ul>
          {commands.map((c) => (
            <Entry
              key={c.path}
              name={c.name}
              hint={c.argumentHint}
              about={c.description}
              badge={ORIGIN_LABEL[c.origin]}
              title={c.path}
            />
          ))}
        </ul>
      )}
      <h3>Skills</h3>
      {skills.length === 0 ? (
        <p className="muted small">None: a skill is a folder with a SKILL.md, in skills/ (Settings → Skills).</p>
      ) : (
        <ul>
          {skills.map((s) => (
            <Entry
              key={s.path}
              name={s.name}
              about={s.on ? s.description : `${s.description} (switched off in Settings → Skills)`}
              badge={`skill · ${ORIGIN_LABEL[s.origin]}`}
              title={s.path}
            />
          ))}
        </ul>
      )}
      <p className="muted small">
        Type / at the start of a message to choose one; a command or skill is sent with what you write after its name.
      </p>
    </div>
  );
}
