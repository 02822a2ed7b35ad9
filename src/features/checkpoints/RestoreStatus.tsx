// What became of a restore (or its undo): the files it would overwrite that changed outside
// Warden, with "Restore anyway"; why it failed; or what it did, with "Undo restore".
import { TID } from "../../shared/testids";
import { filesLabel } from "./callChanges";
import type { Restore } from "./useRestore";

export function RestoreStatus({ restore, what }: { restore: Restore; what: string }) {
  const { flow } = restore;
  switch (flow.phase) {
    case "idle":
      return null;
    case "working":
      return (
        <p className="restore-status muted small" role="status">
          {flow.action === "undo" ? "Undoing the restore…" : "Restoring…"}
        </p>
      );
    case "refused":
      return (
        <div className="restore-status restore-refused" data-testid={TID.restoreRefused} role="alert">
          <p>
            {flow.action === "undo" ? "Not undone" : "Not restored"}: {filesLabel(flow.paths.length)} changed since Warden's last
            checkpoint by something other than Warden, and would be overwritten:
          </p>
          <ul className="restore-paths">
            {flow.paths.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="danger"
            data-testid={TID.restoreForce}
            onClick={() => void (flow.action === "undo" ? restore.undo(true) : restore.restore(true))}
          >
            {flow.action === "undo" ? "Undo anyway" : "Restore anyway"}
          </button>{" "}
          <button type="button" onClick={restore.dismiss}>
            Cancel
          </button>
        </div>
      );
    case "failed":
      return (
        <div className="restore-status restore-error" data-testid={TID.restoreError} role="alert">
          <p>{flow.message}</p>
          <button type="button" onClick={restore.dismiss}>
            Dismiss
          </button>
        </div>
      );
    case "restored":
      return (
        <div className="restore-status restore-note" data-testid={TID.restoreNote} data-phase="restored" role="status">
          <span>
            Restored {what}
            {flow.report.files.length === 0 ? ": nothing differed." : ` (${filesLabel(flow.report.files.length)}).`}
          </span>{" "}
          <button type="button" className="link" data-testid={TID.restoreUndo} onClick={() => void restore.undo()}>
            Undo restore
          </button>
        </div>
      );
    case "undone":
      return (
        <div className="restore-status restore-note muted small" data-testid={TID.restoreNote} data-phase="undone" role="status">
          Restore undone.{" "}
          <button type="button" className="link" onClick={restore.dismiss}>
            OK
          </button>
        </div>
      );
  }
}
