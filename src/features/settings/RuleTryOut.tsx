// Settings → Permissions → "Try a call": what the rules and the trust level would do with a call
// in this project, and why, without running anything.
import { useState } from "react";
import { api, type RuleCheck } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { messageOf } from "../../shared/format";
import { askedBecauseText } from "../approvals/askedBecause";
import { tryInput, tryInputKind } from "./rulesModel";

const DECISION_WORDS: Record<RuleCheck["decision"], string> = {
  allow: "Runs without asking",
  ask: "Asks first",
  deny: "Refused",
};

export function RuleTryOut() {
  const [tool, setTool] = useState("bash");
  const [text, setText] = useState("");
  const [result, setResult] = useState<RuleCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const kind = tryInputKind(tool);

  const check = async () => {
    setError(null);
    setResult(null);
    try {
      setResult(await api.rulesCheck(tool.trim(), tryInput(tool, text)));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <fieldset className="rule-try">
      <legend>Try a call</legend>
      <div className="rule-form-row">
        <label>
          Tool
          <input type="text" data-testid={TID.ruleCheckTool} value={tool} onChange={(e) => setTool(e.target.value)} />
        </label>
        <label className="rule-try-input">
          {kind === "command" ? "Command" : kind === "path" ? "Path" : "Input (JSON)"}
          <input
            type="text"
            data-testid={TID.ruleCheckInput}
            placeholder={kind === "command" ? "git push origin main" : kind === "path" ? "src/main.rs" : '{"query": "…"}'}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                void check();
              }
            }}
          />
        </label>
      </div>
      <button type="button" data-testid={TID.ruleCheck} disabled={!tool.trim()} onClick={() => void check()}>
        Check
      </button>
      {error && (
        <p className="field-error" data-testid={TID.ruleCheckError}>
          {error}
        </p>
      )}
      {result && (
        <div className="rule-check-result" data-testid={TID.ruleCheckResult} data-decision={result.decision} role="status">
          <strong>{DECISION_WORDS[result.decision]}</strong>: {result.reason}
          {result.askedBecause && !result.reason && <span> {askedBecauseText(result.askedBecause)}</span>}
          {result.rule && (
            <div>
              Rule: <code>{result.rule}</code>
            </div>
          )}
        </div>
      )}
    </fieldset>
  );
}
