// Settings → Permissions: add a rule (or change one: the old one goes once the new one is kept).
// An allow rule broader than one program is added only after its warning was shown.
import { useEffect, useState } from "react";
import { api, type PermissionRule, type RuleEffect, type ScopedRule } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { messageOf } from "../../shared/format";
import { broadAllow, hasPattern } from "./rulesModel";

type Scope = "project" | "user";

const sameRule = (a: PermissionRule, b: PermissionRule) =>
  a.effect === b.effect && a.tool === b.tool && (a.pattern ?? null) === (b.pattern ?? null);

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
  const [effect, setEffect] = useState<RuleEffect>("allow");
  const [tool, setTool] = useState("");
  const [pattern, setPattern] = useState("");
  const [scope, setScope] = useState<Scope>("project");
  const [warned, setWarned] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!editing) return;
    setEffect(editing.rule.effect);
    setTool(editing.rule.tool);
    setPattern(editing.rule.pattern ?? "");
    setScope(editing.scope === "user" ? "user" : "project");
    setWarned(null);
    setError(null);
  }, [editing]);

  const reset = () => {
    setTool("");
    setPattern("");
    setWarned(null);
  };
  // Any change to the rule shows its warning afresh.
  const changed = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setWarned(null);
    setError(null);
  };

  const rule: PermissionRule = { effect, tool: tool.trim(), pattern: pattern.trim() || null, origin: { kind: "typed" } };
  const broad = broadAllow(rule);

  const add = async (anyway: boolean) => {
    if (!rule.tool) {
      setError("Name the tool the rule is for.");
      return;
    }
    if (broad && !anyway) {
      setWarned(broad);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const unchanged = editing && editing.scope === scope && sameRule(editing.rule, rule);
      if (!unchanged) {
        await beforeChange?.();
        await api.rulesAdd(scope, rule);
        // Changing a rule: the old one goes once the new one is kept (a refused one leaves it).
        if (editing) await api.rulesRemove(editing.scope, editing.rule);
      }
      reset();
      onDone();
    } catch (e) {
      setWarned(null);
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="rule-form">
      <legend>{editing ? "Change the rule" : "Add a rule"}</legend>
      <div className="rule-form-row">
        <label>
          Effect
          <select data-testid={TID.ruleEffect} value={effect} onChange={(e) => changed(setEffect)(e.target.value as RuleEffect)}>
            <option value="allow">allow</option>
            <option value="ask">ask</option>
            <option value="deny">deny</option>
          </select>
        </label>
        <label>
          Tool
          <input
            type="text"
            data-testid={TID.ruleTool}
            placeholder="bash, read, write, network or a tool name"
            value={tool}
            onChange={(e) => changed(setTool)(e.target.value)}
          />
        </label>
        <label>
          Pattern (optional)
          <input
            type="text"
            data-testid={TID.rulePattern}
            placeholder={tool.trim() === "bash" ? "cargo test *" : hasPattern(tool) ? "src/**" : "none for this tool"}
            value={pattern}
            onChange={(e) => changed(setPattern)(e.target.value)}
          />
        </label>
        <label>
          Kept for
          <select data-testid={TID.ruleScope} value={scope} onChange={(e) => changed(setScope)(e.target.value as Scope)}>
            <option value="project">this project</option>
            <option value="user">all projects</option>
          </select>
        </label>
      </div>
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
              setError(null);
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
