import type { ScopedRule } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { EFFECT_WORDS, SCOPE_WORDS, lastUsedWords, originWords, patternMeaning } from "./rulesModel";

/**
 * The rules that apply in the project (null while they are read), each with where it is kept, how it
 * came to be and when it last decided a call; Edit and Delete, except on the organisation's.
 */
export function RuleList({
  rules,
  error,
  onEdit,
  onDelete,
}: {
  rules: ScopedRule[] | null;
  /** Why the rules could not be read (or changed). */
  error: string | null;
  onEdit: (rule: ScopedRule) => void;
  onDelete: (rule: ScopedRule) => void;
}) {
  return rules === null ? (
    !error && <p className="muted">Reading the rules…</p>
  ) : rules.length === 0 ? (
    <p className="muted">No rules yet.</p>
  ) : (
    <ul className="rule-list">
      {rules.map((r, i) => {
        const origin = originWords(r.rule.origin);
        const meaning = patternMeaning(r.rule.tool, r.rule.pattern);
        return (
          <li
            key={`${r.scope}-${r.rule.effect}-${r.rule.tool}-${r.rule.pattern ?? ""}-${i}`}
            className="rule-row"
            data-testid={TID.permissionRule}
            data-scope={r.scope}
            data-effect={r.rule.effect}
          >
            <div className="rule-main">
              <span className={`rule-effect rule-effect-${r.rule.effect}`}>{EFFECT_WORDS[r.rule.effect]}</span>{" "}
              <code>{r.rule.tool}</code>
              {r.rule.pattern ? (
                <>
                  {" "}
                  <code>{r.rule.pattern}</code>
                </>
              ) : (
                <span className="muted"> (every call)</span>
              )}
              {meaning && <p className="muted rule-meaning">{meaning}</p>}
            </div>
            <div className="rule-meta muted">
              {SCOPE_WORDS[r.scope]}
              {origin && ` · ${origin}`}
              {r.lastUsed && ` · last decided a call ${lastUsedWords(r.lastUsed)}`}
            </div>
            {r.problem && <p className="field-error">Not applied: {r.problem}</p>}
            {r.scope !== "managed" ? (
              <div className="rule-actions">
                <button type="button" className="link" data-testid={TID.permissionRuleEdit} onClick={() => onEdit(r)}>
                  Edit
                </button>
                <button type="button" className="link" data-testid={TID.permissionRuleDelete} onClick={() => onDelete(r)}>
                  Delete
                </button>
              </div>
            ) : (
              <span className="rule-actions muted">set by your organisation</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
