// The diff of a turn: every file its calls changed, from the checkpoint before its first change
// to the state after it (the next turn's first checkpoint, or the project now), each file with a
// revert of its own.
import { useCallback, useEffect, useState } from "react";
import { api } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { DiffView } from "../tools/renderers/DiffView";
import { shownPart, splitPatch, type FilePatch } from "./patchFiles";
import { RevertFile } from "./RevertFile";
import { messageOf } from "../../shared/format";

type Load = { state: "loading" } | { state: "failed"; message: string } | { state: "loaded"; files: FilePatch[] };

export function TurnDiff({ from, to, running }: { from: string; to: string | null; running: boolean }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [round, setRound] = useState(0);

  const fetchPatch = useCallback(async () => {
    try {
      const patch = await api.checkpointPatch(from, to, null);
      return { state: "loaded", files: splitPatch(patch) } as const;
    } catch (e) {
      return { state: "failed", message: messageOf(e) } as const;
    }
  }, [from, to]);

  useEffect(() => {
    let live = true;
    setLoad({ state: "loading" });
    void fetchPatch().then((next) => live && setLoad(next));
    return () => {
      live = false;
    };
  }, [fetchPatch, round]);

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
      {load.state === "loaded" && load.files.length === 0 && <p className="muted small">No differences.</p>}
      {load.state === "loaded" &&
        load.files.map((f) => (
          <section key={f.path} className="turn-diff-file" data-testid={TID.turnDiffFile} data-path={f.path}>
            <DiffView diff={shownPart(f.diff)} path={f.path} />
            <RevertFile checkpointId={from} path={f.path} disabled={running} />
          </section>
        ))}
    </div>
  );
}
