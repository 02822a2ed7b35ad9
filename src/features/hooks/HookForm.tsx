// Settings → Hooks: adding one hook or editing one: its event, the tools it is for (tool events),
// the command, its time limit and whether it runs outside the box. Saved only once `hooks_check`
// finds nothing wrong with the hooks it makes; what it found is shown and nothing is saved.
import { useState } from "react";
import type { HookCommand } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { HOOK_EVENTS, TOOL_EVENTS, type HookEntry } from "./hooksModel";
import { OutsideBoxWarning } from "./OutsideBoxWarning";
import { ProblemList } from "./ProblemList";

/** Seconds a hook may take at most (docs/HOOKS.md). */
const MAX_TIMEOUT = 600;

function timeoutOf(text: string): number | null | "bad" {
  if (!text.trim()) return null;
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= 1 && n <= MAX_TIMEOUT ? n : "bad";
}

export function HookForm({
  initial,
  onSave,
  onCancel,
}: {
  /** The hook edited (null: a new one). */
  initial: HookEntry | null;
  /** Resolves with what would not run (nothing: saved). */
  onSave: (entry: HookEntry) => Promise<string[]>;
  onCancel: () => void;
}) {
  const [event, setEvent] = useState(initial?.event ?? "PreToolUse");
  const [matcher, setMatcher] = useState(initial?.matcher ?? "");
  const [command, setCommand] = useState(initial?.hook.command ?? "");
  const [timeout, setTimeoutText] = useState(initial?.hook.timeout ? String(initial.hook.timeout) : "");
  const [outsideBox, setOutsideBox] = useState(initial?.hook.outsideBox ?? false);
  const [problems, setProblems] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const forTools = TOOL_EVENTS.includes(event);
  const seconds = timeoutOf(timeout);
  const timeoutError = seconds === "bad" ? `Time limit: a whole number of seconds, 1 to ${MAX_TIMEOUT} (empty: 60).` : null;
  const ready = command.trim() !== "" && seconds !== "bad";

  const save = () => {
    if (!ready) return;
    const hook: HookCommand = { type: initial?.hook.type ?? "command", command };
    if (seconds !== null) hook.timeout = seconds;
    if (outsideBox) hook.outsideBox = true;
    setSaving(true);
    void onSave({ event, matcher: forTools ? matcher.trim() : "", hook }).then((found) => {
      setSaving(false);
      setProblems(found);
    });
  };

  return (
    <fieldset className="hook-form">
      <legend>{initial ? "Edit the hook" : "Add a hook"}</legend>
      <label>
        When
        <select data-testid={TID.hookFormEvent} value={event} onChange={(e) => setEvent(e.target.value)}>
          {[...HOOK_EVENTS, ...(HOOK_EVENTS.some((x) => x === event) ? [] : [event])].map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      {forTools && (
        <label>
          For the tools (empty or * : every tool; a name such as Bash, or an expression such as Edit|Write)
          <input data-testid={TID.hookFormMatcher} value={matcher} placeholder="Bash" onChange={(e) => setMatcher(e.target.value)} />
        </label>
      )}
      <label>
        Command (run with the event as JSON on its stdin)
        <textarea data-testid={TID.hookFormCommand} rows={2} value={command} onChange={(e) => setCommand(e.target.value)} />
      </label>
      <label>
        Time limit in seconds (empty: 60)
        <input data-testid={TID.hookFormTimeout} inputMode="numeric" value={timeout} onChange={(e) => setTimeoutText(e.target.value)} />
      </label>
      <label className="checkbox">
        <input type="checkbox" data-testid={TID.hookFormOutsideBox} checked={outsideBox} onChange={(e) => setOutsideBox(e.target.checked)} />
        Runs outside the box
      </label>
      {outsideBox && <OutsideBoxWarning />}
      {timeoutError && <p className="field-error">{timeoutError}</p>}
      <ProblemList problems={problems} />
      <button type="button" data-testid={TID.hookFormSave} disabled={!ready || saving} onClick={save}>
        {initial ? "Save the hook" : "Add the hook"}
      </button>{" "}
      <button type="button" className="link" data-testid={TID.hookFormCancel} onClick={onCancel}>
        Cancel
      </button>
    </fieldset>
  );
}
