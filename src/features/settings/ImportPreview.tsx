import type { ImportCandidate, RuleImport as Preview } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { EFFECT_WORDS, SCOPE_WORDS } from "./rulesModel";
import { fileOf, type Failure } from "./useRuleImport";

/**
 * What the import found: the files it read, the candidates (each ticked or not; a wide allow comes
 * unticked, with its warning), and what could not be read as a rule, with why.
 */
export function ImportPreview({
  preview,
  ticked,
  busy,
  nothing,
  onTick,
}: {
  preview: Preview;
  ticked: boolean[];
  busy: boolean;
  /** No candidate and nothing skipped. */
  nothing: boolean;
  onTick: (i: number, on: boolean) => void;
}) {
  return (
    <>
      <div className="muted" data-testid={TID.ruleImportFiles}>
        {preview.files.length === 0 ? (
          "No Claude Code or codex rule files were found."
        ) : (
          <>
            Read:{" "}
            {preview.files.map((f, i) => (
              <span key={f}>
                {i > 0 && ", "}
                <code>{f}</code>
              </span>
            ))}
          </>
        )}
      </div>
      {nothing && (
        <p data-testid={TID.ruleImportEmpty}>
          {preview.files.length === 0
            ? "There is nothing to import."
            : "These files hold no permission rules: there is nothing to import."}
        </p>
      )}
      {preview.candidates.length > 0 && (
        <ul className="rule-list rule-import-list">
          {preview.candidates.map((c, i) => (
            <Candidate
              key={`${fileOf(c) ?? ""}-${c.entry}-${i}`}
              candidate={c}
              ticked={!!ticked[i]}
              disabled={busy}
              onTick={(on) => onTick(i, on)}
            />
          ))}
        </ul>
      )}
      {preview.skipped.length > 0 && (
        <div className="rule-import-skipped">
          <p>Not imported (Warden could not read these as rules):</p>
          <ul>
            {preview.skipped.map((k, i) => (
              <li key={`${k.from}-${k.entry}-${i}`} data-testid={TID.ruleImportSkipped} data-entry={k.entry}>
                <code>{k.entry}</code> <span className="muted">from {k.from}</span>: {k.why}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** The ticked rules that were not added, with why. */
export function ImportFailures({ failures }: { failures: Failure[] }) {
  if (failures.length === 0) return null;
  return (
    <ul className="rule-import-failures" role="alert">
      {failures.map((f, i) => (
        <li key={`${f.entry}-${i}`} className="field-error" data-testid={TID.ruleImportFailure} data-entry={f.entry}>
          {f.entry ? (
            <>
              <code>{f.entry}</code>
              {f.from && ` (from ${f.from})`} was not added: {f.why}
            </>
          ) : (
            f.why
          )}
        </li>
      ))}
    </ul>
  );
}

function Candidate({
  candidate: c,
  ticked,
  disabled,
  onTick,
}: {
  candidate: ImportCandidate;
  ticked: boolean;
  disabled: boolean;
  onTick: (on: boolean) => void;
}) {
  const from = fileOf(c);
  return (
    <li
      className="rule-row rule-import-row"
      data-testid={TID.ruleImportCandidate}
      data-entry={c.entry}
      data-scope={c.scope}
      data-ticked={ticked}
    >
      <label className="checkbox rule-main">
        <input
          type="checkbox"
          data-testid={TID.ruleImportTick}
          checked={ticked}
          disabled={disabled}
          onChange={(e) => onTick(e.target.checked)}
        />
        <span>
          <span className={`rule-effect rule-effect-${c.rule.effect}`}>{EFFECT_WORDS[c.rule.effect]}</span>{" "}
          <code>{c.rule.tool}</code>
          {c.rule.pattern ? (
            <>
              {" "}
              <code>{c.rule.pattern}</code>
            </>
          ) : (
            <span className="muted"> (every call)</span>
          )}
        </span>
      </label>
      <div className="rule-meta muted">
        written <code>{c.entry}</code>
        {from && <> in {from}</>} · {SCOPE_WORDS[c.scope]}
      </div>
      {c.warning && (
        <p className="field-warning" data-testid={TID.ruleImportWarning}>
          ⚠ {c.warning}
        </p>
      )}
    </li>
  );
}
