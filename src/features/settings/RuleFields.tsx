import type { RuleEffect } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { hasPattern } from "./rulesModel";
import type { Scope } from "./useRuleForm";

type Fields = { effect: RuleEffect; tool: string; pattern: string; scope: Scope };
type Setters = { [K in keyof Fields]: (value: Fields[K]) => void };

/** The rule form's fields: its effect, its tool, its pattern and where it is kept. */
export function RuleFields({ fields, set }: { fields: Fields; set: Setters }) {
  const { effect, tool, pattern, scope } = fields;
  return (
    <div className="rule-form-row">
      <label>
        Effect
        <select data-testid={TID.ruleEffect} value={effect} onChange={(e) => set.effect(e.target.value as RuleEffect)}>
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
          onChange={(e) => set.tool(e.target.value)}
        />
      </label>
      <label>
        Pattern (optional)
        <input
          type="text"
          data-testid={TID.rulePattern}
          placeholder={tool.trim() === "bash" ? "cargo test *" : hasPattern(tool) ? "src/**" : "none for this tool"}
          value={pattern}
          onChange={(e) => set.pattern(e.target.value)}
        />
      </label>
      <label>
        Kept for
        <select data-testid={TID.ruleScope} value={scope} onChange={(e) => set.scope(e.target.value as Scope)}>
          <option value="project">this project</option>
          <option value="user">all projects</option>
        </select>
      </label>
    </div>
  );
}
