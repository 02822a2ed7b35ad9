// Settings → Hooks (docs/HOOKS.md): the user's hooks, by event, added, edited, removed or imported
// from Claude Code's JSON, each change checked by the engine (`hooks_check`) before it is saved
// with the settings; and the chosen project's own hooks with whether they were approved.
import { useRef, useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type HooksConfig, type Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { HookForm } from "./HookForm";
import { HookImport } from "./HookImport";
import { hooksOf, withHook, withoutHook, type HookAt, type HookEntry } from "./hooksModel";
import { ProblemList } from "./ProblemList";
import { ProjectHooksPart } from "./ProjectHooksPart";
import { UserHookList } from "./UserHookList";
import "./hooks.css";

/** The form open: a new hook (`at` null) or the one at `at`. */
type Editing = { at: HookAt | null; entry: HookEntry | null };

export function HooksSection({
  settings,
  onChange,
  savedCount,
}: {
  settings: Settings;
  onChange: (s: Settings) => void;
  /** Saves that landed so far: the project's hooks are asked again after each (the folder may have changed). */
  savedCount: number;
}) {
  const hooks = hooksOf(settings);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [rowProblems, setRowProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  // The settings as they are when a check answers (another field may have changed meanwhile).
  const latest = useRef(settings);
  latest.current = settings;

  /** Saves `next` unless `hooks_check` finds something that would not run; resolves with what it found. */
  const save = (next: HooksConfig): Promise<string[]> => {
    setBusy(true);
    return api.hooksCheck(next).then(
      (problems) => {
        setBusy(false);
        if (problems.length === 0) onChange({ ...latest.current, hooks: next });
        return problems;
      },
      (e: unknown) => {
        setBusy(false);
        return [`Could not check the hooks: ${messageOf(e)}`];
      },
    );
  };
  const fromRow = (next: HooksConfig) => void save(next).then(setRowProblems);

  return (
    <section className="settings-section" data-testid={TID.hooksSection}>
      <h3>Hooks</h3>
      <p className="muted">
        A hook is a shell command Warden runs at a point of a turn, with the event as JSON on its stdin, in Claude
        Code&apos;s shape (a .claude/settings.json&apos;s hooks work unchanged). Yours run in the project&apos;s box unless you
        mark one to run outside it; an allow one of them says counts as one of your allow rules for that call.
      </p>
      <UserHookList
        hooks={hooks}
        editing={editing?.at ?? null}
        // While a form is open the others wait: a hook's place must not move under the one edited.
        busy={busy || editing !== null}
        onEdit={(at, entry) => setEditing({ at, entry })}
        onRemove={(at) => fromRow(withoutHook(hooks, at))}
        onOutsideBox={(at, entry, on) => fromRow(withHook(hooks, at, { ...entry, hook: { ...entry.hook, outsideBox: on } }))}
      />
      <ProblemList problems={rowProblems} />
      {editing ? (
        <HookForm
          key={editing.at ? `${editing.at.event}-${editing.at.group}-${editing.at.index}` : "new"}
          initial={editing.entry}
          onCancel={() => setEditing(null)}
          onSave={(entry) =>
            save(withHook(hooks, editing.at, entry)).then((problems) => {
              if (problems.length === 0) setEditing(null);
              return problems;
            })
          }
        />
      ) : (
        <button type="button" data-testid={TID.hookAdd} onClick={() => setEditing({ at: null, entry: null })}>
          Add a hook
        </button>
      )}
      <HookImport current={hooks} onSave={save} />
      <ProjectHooksPart projectDir={settings.projectDir ?? null} savedCount={savedCount} />
    </section>
  );
}
