// Under a tool block: the files its call changed ("changed 3 files", opened on a click), or that
// no checkpoint covers the change (so it cannot be undone from Warden).
import { useState } from "react";
import type { CallChanges } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { filesLabel, totalsOf } from "./callChanges";
import { FileChangeList, LineCounts } from "./FileChangeList";
import "./checkpoints.css";

export function CallChangesView({ changes }: { changes: CallChanges | null | undefined }) {
  const [open, setOpen] = useState(false);
  if (!changes) return null;
  if (changes.error) {
    return (
      <p className="call-changes call-changes-none muted small" data-testid={TID.callChangesNone} title={changes.error}>
        No checkpoint for this change: it cannot be undone from Warden.
      </p>
    );
  }
  if (changes.files.length === 0) return null;
  const totals = totalsOf(changes.files);
  return (
    <div className="call-changes" data-testid={TID.callChanges} data-count={changes.files.length}>
      <button
        type="button"
        className="link call-changes-toggle"
        data-testid={TID.callChangesToggle}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        Changed {filesLabel(totals.files)}
      </button>{" "}
      <LineCounts added={totals.added} removed={totals.removed} />
      {open && <FileChangeList files={changes.files} />}
    </div>
  );
}
