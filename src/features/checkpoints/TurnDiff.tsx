// The diff of a turn: every file its calls changed, from the checkpoint before its first change
// to the state after it (the next turn's first checkpoint, or the project now), each file with a
// revert of its own.
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { DiffView } from "../tools/renderers/DiffView";
import { shownPart, splitPatch, type FilePatch } from "./patchFiles";
import { RevertFile } from "./RevertFile";
import { messageOf } from "../../shared/format";
import { useConversationId } from "../../shared/conversationId";

type Load = { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; files: FilePatch[] };

/**
 * The files shown: those the diff holds now, and those reverted (their change may be gone; their
 * section stays with the revert's status and its Undo), each where it first appeared.
 */
function shownFiles(files: FilePatch[], order: readonly string[], reverted: ReadonlySet<string>): (FilePatch | { path: string; diff: null })[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const listed = order.filter((path) => byPath.has(path) || reverted.has(path));
  const fresh = files.filter((f) => !order.includes(f.path)).map((f) => f.path);
  return [...listed, ...fresh].map((path) => byPath.get(path) ?? { path, diff: null });
}

export function TurnDiff({ from, to, running }: { from: string; to: string | null; running: boolean }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  // Bumped to read the diff again (Reload, or a file reverted or its revert undone).
  const [round, setRound] = useState(0);
  const [reverted, setReverted] = useState<ReadonlySet<string>>(new Set());
  // The files in the order the diff first listed them, so a reread does not move them.
  const order = useRef<string[]>([]);
  const conversationId = useConversationId();

  const fetchPatch = useCallback(async () => {
    try {
      const patch = await api.checkpointPatch(conversationId, from, to, null);
      return { state: "loaded", files: splitPatch(patch) } as const;
    } catch (e) {
      return { state: "failed", message: messageOf(e) } as const;
    }
  }, [conversationId, from, to]);

  useEffect(() => {
    let live = true;
    // A reread keeps the files on screen (and each revert's status) until the new diff is in.
    setLoad((last) => (last.state === "loaded" ? last : { state: "loading" }));
    void fetchPatch().then((next) => {
      if (!live) return;
      if (next.state === "loaded") order.current = [...order.current, ...next.files.map((f) => f.path).filter((p) => !order.current.includes(p))];
      setLoad(next);
    });
    return () => {
      live = false;
    };
  }, [fetchPatch, round]);

  // A file once reverted keeps its section (and its revert's status) whatever the diff says: an
  // undo brings its change back on the next read, and the section must not blink out meanwhile.
  const onReverted = useCallback((path: string) => {
    setReverted((now) => (now.has(path) ? now : new Set(now).add(path)));
    setRound((r) => r + 1);
  }, []);

  return (
    <div className="turn-diff" data-testid={TID.turnDiff} data-state={load.state}>
      <div className="turn-diff-head muted small">
        {to ? "What this turn changed" : "What changed since this turn began (until now)"}{" "}
        <button type="button" className="link" onClick={() => setRound(round + 1)}>
          Reload
        </button>
      </div>
      {load.state === "loading" && <p className="muted small">Loading the diff…</p>}
      {load.state === "failed" && (
        <p className="field-error" role="alert">
          {load.message}
        </p>
      )}
      {load.state === "loaded" && load.files.length === 0 && reverted.size === 0 && <p className="muted small">No differences.</p>}
      {load.state === "loaded" &&
        shownFiles(load.files, order.current, reverted).map((f) => (
          <section key={f.path} className="turn-diff-file" data-testid={TID.turnDiffFile} data-path={f.path}>
            {f.diff === null ? (
              <p className="muted small">
                <code>{f.path}</code> is as it was before this turn.
              </p>
            ) : (
              <DiffView diff={shownPart(f.diff)} path={f.path} />
            )}
            <RevertFile checkpointId={from} path={f.path} disabled={running} onReverted={onReverted} />
          </section>
        ))}
    </div>
  );
}
