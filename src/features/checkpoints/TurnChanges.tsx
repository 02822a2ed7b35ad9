// At the end of a turn: what its calls changed, summed ("Changes: 3 files +12 −4"), opening the
// turn's diff with a revert per file. Says so when some change had no checkpoint.
import { useState } from "react";
import { TID } from "../../shared/testids";
import { filesLabel, totalsOf } from "./callChanges";
import { FileChangeList, LineCounts } from "./FileChangeList";
import { TurnDiff } from "./TurnDiff";
import type { TurnCheckpoints } from "./turns";
import "./checkpoints.css";

export function TurnChanges({ turn, running }: { turn: TurnCheckpoints; running: boolean }) {
  const [open, setOpen] = useState(false);
  const files = turn.files;
  if (files.length === 0 && turn.uncovered === 0) return null;
  const totals = totalsOf(files);
  return (
    <aside
      className="turn-changes"
      data-testid={TID.turnChanges}
      data-files={totals.files}
      data-from={turn.from ?? ""}
      data-to={turn.to ?? ""}
      aria-label="Changes in this turn"
    >
      <div className="turn-changes-head">
        <strong>Changes</strong>
        <span>{filesLabel(totals.files)}</span> <LineCounts added={totals.added} removed={totals.removed} />
        {turn.from && (
          <button
            type="button"
            className="link turn-diff-open"
            data-testid={TID.turnDiffOpen}
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide diff" : "Show diff"}
          </button>
        )}
      </div>
      {turn.uncovered > 0 && (
        <p className="muted small">
          {turn.uncovered === 1 ? "One change" : `${turn.uncovered} changes`} had no checkpoint and cannot be undone from Warden.
        </p>
      )}
      {!open && <FileChangeList files={files} />}
      {open && turn.from && <TurnDiff from={turn.from} to={turn.to} running={running} />}
    </aside>
  );
}
