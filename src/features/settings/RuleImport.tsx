// Settings → Permissions → "Import from Claude Code / codex…": the other agents' rules, converted
// by the engine and shown before anything is added. Each candidate is ticked or not (a wide allow
// comes unticked, with its warning); what could not be converted is listed with why. "Add selected"
// adds the ticked ones, each to the scope the engine chose, keeping the origin it named.
import { useState } from "react";
import { api, type ImportCandidate, type RuleImport as Preview } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { messageOf } from "../../shared/format";
import { EFFECT_WORDS, SCOPE_WORDS } from "./rulesModel";

/** The file a candidate came from (its origin names it). */
const fileOf = (c: ImportCandidate) => (c.rule.origin?.kind === "imported" ? c.rule.origin.from : null);

type Failure = { entry: string; from: string | null; why: string };

export function RuleImport({
  beforeChange,
  onAdded,
}: {
  /** Runs before the first rule is added (the settings not saved yet are saved first). */
  beforeChange?: () => Promise<void>;
  /** One rule or more was added: the list is read again. */
  onAdded: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [ticked, setTicked] = useState<boolean[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [failures, setFailures] = useState<Failure[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setOpen(true);
    setPreview(null);
    setError(null);
    setFailures([]);
    setDone(null);
    try {
      const p = await api.rulesImportPreview();
      setPreview(p);
      setTicked(p.candidates.map((c) => c.ticked));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const close = () => {
    setOpen(false);
    setPreview(null);
    setError(null);
    setFailures([]);
  };

  const add = async () => {
    if (!preview) return;
    const chosen = preview.candidates.filter((_, i) => ticked[i]);
    if (chosen.length === 0) return;
    setBusy(true);
    setFailures([]);
    const failed: Failure[] = [];
    const left: ImportCandidate[] = [];
    let added = 0;
    try {
      await beforeChange?.();
    } catch (e) {
      setFailures([{ entry: "", from: null, why: `The settings could not be saved first: ${messageOf(e)}` }]);
      setBusy(false);
      return;
    }
    for (const c of chosen) {
      try {
        await api.rulesAdd(c.scope, c.rule);
        added++;
      } catch (e) {
        failed.push({ entry: c.entry, from: fileOf(c), why: messageOf(e) });
        left.push(c);
      }
    }
    setBusy(false);
    if (added > 0) onAdded();
    const addedWords = added === 1 ? "Added 1 rule." : `Added ${added} rules.`;
    if (failed.length === 0) {
      setOpen(false);
      setPreview(null);
      setDone(addedWords);
      return;
    }
    // What was refused stays offered (ticked), with why; what was added goes from the list.
    const rest = preview.candidates.filter((c) => !chosen.includes(c) || left.includes(c));
    setPreview({ ...preview, candidates: rest });
    setTicked(rest.map((c) => left.includes(c) || ticked[preview.candidates.indexOf(c)] === true));
    setFailures(failed);
    setDone(added > 0 ? addedWords : null);
  };

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
                      onTick={(on) => setTicked((t) => t.map((v, j) => (j === i ? on : v)))}
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
          )}
          {failures.length > 0 && (
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
          )}
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
