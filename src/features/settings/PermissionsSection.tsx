// Settings → Permissions: every rule that applies in the project (the organisation's read-only),
// where it is kept and how it came to be; add, change and delete rules; try what a call would do.
import { useCallback, useEffect, useState } from "react";
import { api, type ScopedRule } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { messageOf } from "../../shared/format";
import { RuleForm } from "./RuleForm";
import { RuleImport } from "./RuleImport";
import { RuleList } from "./RuleList";
import { RuleTryOut } from "./RuleTryOut";

export function PermissionsSection({
  projectDir,
  beforeChange,
  onRulesChanged,
}: {
  /** The chosen project: its rules are listed (read again when it changes). */
  projectDir?: string | null;
  /** Runs before a rule is added or deleted: the settings not saved yet are saved first. */
  beforeChange?: () => Promise<void>;
  /** A rule was added, changed or deleted (the settings the window holds are out of date). */
  onRulesChanged?: () => void;
}) {
  const [rules, setRules] = useState<ScopedRule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<ScopedRule | null>(null);

  const load = useCallback(async () => {
    try {
      setRules(await api.rulesList());
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load, projectDir]);

  const changed = () => {
    setEditing(null);
    onRulesChanged?.();
    void load();
  };

  const remove = async (r: ScopedRule) => {
    try {
      await beforeChange?.();
      await api.rulesRemove(r.scope, r.rule);
      if (editing === r) setEditing(null);
      changed();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <section className="settings-section" data-testid={TID.permissions}>
      <h3>Permissions</h3>
      <p className="muted">
        Rules say which calls run without asking (allow), always ask (ask) or never run (deny); a deny wins over the
        others. What no rule covers follows the trust level.
      </p>
      {error && (
        <p className="field-error" data-testid={TID.permissionsError}>
          {error}
        </p>
      )}
      <RuleList rules={rules} error={error} onEdit={setEditing} onDelete={(r) => void remove(r)} />
      <RuleImport
        beforeChange={beforeChange}
        onAdded={() => {
          onRulesChanged?.();
          void load();
        }}
      />
      <RuleForm editing={editing} beforeChange={beforeChange} onDone={changed} onCancelEdit={() => setEditing(null)} />
      <RuleTryOut />
    </section>
  );
}
