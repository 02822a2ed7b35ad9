// Settings → Permissions → "Import from Claude Code / codex…": the other agents' rules, converted
// by the engine and shown before anything is added. Each candidate is ticked or not (a wide allow
// comes unticked, with its warning); what could not be converted is listed with why. "Add selected"
// adds the ticked ones, each to the scope the engine chose, keeping the origin it named.
import { TID } from "../../shared/testids";
import { ImportFailures, ImportPreview } from "./ImportPreview";
import { useRuleImport } from "./useRuleImport";

export function RuleImport({
  beforeChange,
  onAdded,
}: {
  /** Runs before the first rule is added (the settings not saved yet are saved first). */
  beforeChange?: () => Promise<void>;
  /** One rule or more was added: the list is read again. */
  onAdded: () => void;
}) {
  const { open, preview, ticked, error, failures, done, busy, start, close, add, tick } = useRuleImport(
    beforeChange,
    onAdded,
  );
  const chosenCount = ticked.filter(Boolean).length;
  const nothing = preview && preview.candidates.length === 0 && preview.skipped.length === 0;

  return (
    <div className="rule-import">
      {!open && (
        <button type="button" data-testid={TID.ruleImportOpen} onClick={() => void start()}>
          Import from Claude Code / codex…
        </button>
      )}
      {done && !open && (
        <p className="muted" role="status" data-testid={TID.ruleImportDone}>
          {done}
        </p>
      )}
      {open && (
        <fieldset className="rule-import-panel" data-testid={TID.ruleImport}>
          <legend>Import from Claude Code / codex</legend>
          {error ? (
            <p className="field-error" role="alert" data-testid={TID.ruleImportError}>
              The rules could not be read: {error}
            </p>
          ) : !preview ? (
            <p className="muted">Reading Claude Code's and codex's rules…</p>
          ) : (
            <ImportPreview preview={preview} ticked={ticked} busy={busy} nothing={!!nothing} onTick={tick} />
          )}
          <ImportFailures failures={failures} />
          {done && open && (
            <p className="muted" role="status" data-testid={TID.ruleImportDone}>
              {done}
            </p>
          )}
          <div className="rule-form-actions">
            {preview && preview.candidates.length > 0 && (
              <button
                type="button"
                className="primary"
                data-testid={TID.ruleImportAdd}
                disabled={busy || chosenCount === 0}
                onClick={() => void add()}
              >
                {busy ? "Adding…" : chosenCount > 0 ? `Add selected (${chosenCount})` : "Add selected"}
              </button>
            )}
            <button type="button" className="link" data-testid={TID.ruleImportCancel} disabled={busy} onClick={close}>
              {nothing || error || failures.length > 0 ? "Close" : "Cancel"}
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}
