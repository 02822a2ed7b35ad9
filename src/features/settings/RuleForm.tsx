// Settings → Permissions: add a rule (or change one: the old one goes once the new one is kept).
// An allow rule broader than one program is added only after its warning was shown.
import type { ScopedRule } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { RuleFields } from "./RuleFields";
import { useRuleForm } from "./useRuleForm";

export function RuleForm({
  editing,
  beforeChange,
  onDone,
  onCancelEdit,
}: {
  /** The rule being changed, when "Edit" filled the form. */
  editing: ScopedRule | null;
  /** Runs before the rule is kept (the settings not saved yet are saved first). */
  beforeChange?: () => Promise<void>;
  /** A rule was added (or changed): the list is read again. */
  onDone: () => void;
  onCancelEdit: () => void;
}) {
  const { fields, setField, warned, error, busy, add, reset } = useRuleForm(editing, beforeChange, onDone);

  return (
    <fieldset className="rule-form">
      <legend>{editing ? "Change the rule" : "Add a rule"}</legend>
      <RuleFields fields={fields} set={setField} />
      <p className="muted">
        Tool: bash, read, write, network or a tool name. For bash the pattern is a command (a last <code>*</code> stands
        for any further words); for read and write, paths in the project (<code>src/**</code>); for network, a host.
      </p>
      {warned && (
        <p className="field-warning" role="alert" data-testid={TID.ruleBroadWarning}>
          ⚠ {warned}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert" data-testid={TID.ruleAddError}>
          {error}
        </p>
      )}
      <div className="rule-form-actions">
        {warned ? (
          <button type="button" data-testid={TID.ruleBroadConfirm} disabled={busy} onClick={() => void add(true)}>
            Add it anyway
          </button>
        ) : (
          <button type="button" data-testid={TID.ruleAdd} disabled={busy} onClick={() => void add(false)}>
            {editing ? "Save the change" : "Add rule"}
          </button>
        )}
        {editing && (
          <button
            type="button"
            className="link"
            onClick={() => {
              reset();
              onCancelEdit();
            }}
          >
            Cancel
          </button>
        )}
      </div>
    </fieldset>
  );
}
