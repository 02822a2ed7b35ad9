// Where a restore (or its undo) stands: what it would do, for the user's yes (the files it
// changes, creates and deletes, and what it stops first); the files it would overwrite that
// changed outside Warden, with "Restore anyway"; why it failed; or what it did, with "Undo restore".
import type { RestorePlan } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { filesLabel } from "./callChanges";
import { FileChangeList } from "./FileChangeList";
import type { Restore } from "./useRestore";

/** "2 files changed, 1 created, 3 deleted". */
function planSummary(plan: RestorePlan): string {
  const count = (status: string) => plan.files.filter((f) => f.status === status).length;
  const parts = [
    [count("modified"), "changed"],
    [count("created"), "created"],
    [count("deleted"), "deleted"],
  ]
    .filter(([n]) => n !== 0)
    .map(([n, word], i) => (i === 0 ? `${filesLabel(n as number)} ${word}` : `${n} ${word}`));
  return parts.length === 0 ? "No file differs." : `${parts.join(", ")}.`;
}

function PlanShown({ restore, plan, what }: { restore: Restore; plan: RestorePlan; what: string }) {
  const undo = restore.flow.phase === "confirming" && restore.flow.action === "undo";
  return (
    <div className="restore-status restore-confirm" data-testid={TID.restoreConfirm} role="alertdialog" aria-label={undo ? "Undo the restore?" : `Restore ${what}?`}>
      <p>
        <strong>{undo ? "Undo the restore?" : `Restore ${what}?`}</strong> {planSummary(plan)}
      </p>
      {plan.files.length > 0 && <FileChangeList files={plan.files} />}
      {plan.running.length > 0 && (
        <>
          <p>First, it stops what runs in the project:</p>
          <ul className="restore-running" data-testid={TID.restoreRunning}>
            {plan.running.map((r, i) => (
              <li key={`${r.kind}-${r.name}-${i}`}>
                <code>{r.name}</code>{" "}
                <span className="muted small">{r.kind === "command" ? "background command" : "MCP server (it starts again when it is next used)"}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <button type="button" className="danger" data-testid={TID.restoreConfirmYes} onClick={() => void restore.confirm()}>
        {undo ? "Undo restore" : "Restore"}
      </button>{" "}
      <button type="button" onClick={restore.dismiss}>
        Cancel
      </button>
    </div>
  );
}

export function RestoreStatus({ restore, what }: { restore: Restore; what: string }) {
  const { flow } = restore;
  switch (flow.phase) {
    case "idle":
      return null;
    case "planning":
      return (
        <p className="restore-status muted small" role="status">
          Looking at what would change…
        </p>
      );
    case "confirming":
      return <PlanShown restore={restore} plan={flow.plan} what={what} />;
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
            onClick={() => void restore.confirm(true)}
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
          {flow.report.warning && <span className="restore-warning">{flow.report.warning}</span>}{" "}
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
