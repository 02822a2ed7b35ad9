// Settings → Hooks, "Import JSON": Claude Code's `hooks` object, or a whole settings.json holding
// one, added after the user's hooks. Nothing is saved while the text does not parse, nor while
// `hooks_check` finds something in the result that would not run (shown, with what to fix).
import { useState } from "react";
import type { HooksConfig } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { mergeHooks, readImport } from "./hooksModel";
import { ProblemList } from "./ProblemList";

export function HookImport({
  current,
  onSave,
}: {
  current: HooksConfig;
  /** Checks and saves the hooks; resolves with what would not run (nothing: saved). */
  onSave: (next: HooksConfig) => Promise<string[]>;
}) {
  const [text, setText] = useState("");
  // What the check found for the text as it was: saving stays blocked until the text changes.
  const [problems, setProblems] = useState<{ text: string; found: string[] } | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const read = text.trim() ? readImport(text) : null;
  const found = problems && problems.text === text ? problems.found : [];

  const importHooks = () => {
    if (!read || "error" in read) return;
    const count = Object.values(read.hooks).reduce((n, groups) => n + groups.reduce((k, g) => k + g.hooks.length, 0), 0);
    setSaving(true);
    void onSave(mergeHooks(current, read.hooks)).then((result) => {
      setSaving(false);
      if (result.length) return setProblems({ text, found: result });
      setProblems(null);
      setText("");
      setDone(`Added ${count} ${count === 1 ? "hook" : "hooks"}.`);
    });
  };

  return (
    <details className="hooks-import">
      <summary>Import JSON from Claude Code</summary>
      <label>
        The <code>hooks</code> object of a Claude Code settings.json (or the whole file)
        <textarea
          data-testid={TID.hooksImport}
          rows={6}
          value={text}
          placeholder={'{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}]}}'}
          onChange={(e) => {
            setText(e.target.value);
            setDone(null);
          }}
        />
      </label>
      {read && "error" in read && (
        <p className="field-error" role="alert" data-testid={TID.hooksImportError}>
          {read.error}
        </p>
      )}
      <ProblemList problems={found} />
      <button
        type="button"
        data-testid={TID.hooksImportSave}
        disabled={!read || "error" in read || found.length > 0 || saving}
        onClick={importHooks}
      >
        Add these hooks
      </button>
      {done && (
        <p className="muted" role="status">
          {done}
        </p>
      )}
    </details>
  );
}
