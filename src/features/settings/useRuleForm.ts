import { useEffect, useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type PermissionRule, type RuleEffect, type ScopedRule } from "../../shared/ipc";
import { broadAllow } from "./rulesModel";

export type Scope = "project" | "user";

const sameRule = (a: PermissionRule, b: PermissionRule) =>
  a.effect === b.effect && a.tool === b.tool && (a.pattern ?? null) === (b.pattern ?? null);

/** Keep `rule` in `scope` (nothing to do when it is `editing` unchanged), `beforeChange` first. */
async function keepRule(
  rule: PermissionRule,
  scope: Scope,
  editing: ScopedRule | null,
  beforeChange?: () => Promise<void>,
) {
  if (editing && editing.scope === scope && sameRule(editing.rule, rule)) return;
  await beforeChange?.();
  await api.rulesAdd(scope, rule);
  // Changing a rule: the old one goes once the new one is kept (a refused one leaves it).
  if (editing) await api.rulesRemove(editing.scope, editing.rule);
}

/**
 * The rule the form holds (filled from `editing` when "Edit" is pressed), the warning an allow rule
 * broader than one program shows before it is added, and `add`, which keeps the rule: `beforeChange`
 * runs first, and a rule being changed goes once the new one is kept; then `onDone`.
 */
export function useRuleForm(
  editing: ScopedRule | null,
  beforeChange: (() => Promise<void>) | undefined,
  onDone: () => void,
) {
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

  /** Empty the form (its effect and scope stay), once the rule is kept or its change cancelled. */
  const reset = () => {
    setTool("");
    setPattern("");
    setWarned(null);
    setError(null);
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
      await keepRule(rule, scope, editing, beforeChange);
      reset();
      onDone();
    } catch (e) {
      setWarned(null);
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return {
    fields: { effect, tool, pattern, scope },
    setField: {
      effect: changed(setEffect),
      tool: changed(setTool),
      pattern: changed(setPattern),
      scope: changed(setScope),
    },
    warned,
    error,
    busy,
    add,
    reset,
  };
}
