import { useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type ImportCandidate, type RuleImport as Preview } from "../../shared/ipc";

/** The file a candidate came from (its origin names it). */
export const fileOf = (c: ImportCandidate) => (c.rule.origin?.kind === "imported" ? c.rule.origin.from : null);

/** A rule that was not added, and why (no entry: nothing was added). */
export type Failure = { entry: string; from: string | null; why: string };

/**
 * The import of the other agents' rules: `start` asks the engine for the candidates (the preview,
 * each ticked as the engine suggests), `add` adds the ticked ones (after `beforeChange`; `onAdded`
 * once one was), keeping what was refused on offer with why; `close` puts it all away.
 */
export function useRuleImport(beforeChange: (() => Promise<void>) | undefined, onAdded: () => void) {
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

  /** Tick or untick candidate `i`. */
  const tick = (i: number, on: boolean) => setTicked((t) => t.map((v, j) => (j === i ? on : v)));

  return { open, preview, ticked, error, failures, done, busy, start, close, add, tick };
}
