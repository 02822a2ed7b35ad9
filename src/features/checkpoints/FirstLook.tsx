// Warden's look at every file of the project, which checkpoints start from: in a large folder
// that is not a git repository the first one takes a while. Shown above the composer while it
// runs (how many files so far, and whether a call waits for it), with a way to stop it; once
// stopped, what that means is said until the project is opened again.
import { useState } from "react";
import { api, type SnapshotProgress } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import "./checkpoints.css";

const count = new Intl.NumberFormat();

export function FirstLook({ progress }: { progress: SnapshotProgress | null | undefined }) {
  const [stopping, setStopping] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  if (!progress) return null;
  if (progress.stopped) {
    return (
      <div className="first-look first-look-stopped" role="status" data-testid={TID.firstLook} data-state="stopped">
        <strong>Checkpoints are off in this project.</strong> You stopped Warden's look at its files after{" "}
        {count.format(progress.files)}, so nothing can be undone by Warden and each call that changes files asks
        first. Open the project again to turn them back on.
      </div>
    );
  }
  const stop = () => {
    setStopping(true);
    // Of the conversation's project: a remote project's look is stopped there.
    api.checkpointStopScan(progress.conversationId).catch((e: unknown) => {
      setStopping(false);
      setFailed(e instanceof Error ? e.message : String(e));
    });
  };
  return (
    <div className="first-look" role="status" data-testid={TID.firstLook} data-state="running">
      <span className="first-look-spinner" aria-hidden="true" />
      <span>
        Looking at the project's files for checkpoints: {count.format(progress.files)} so far.
        {progress.waitingToolId && " A call that changes files waits for it, so that it can be undone."}
      </span>
      <button type="button" className="link" data-testid={TID.firstLookStop} disabled={stopping} onClick={stop}>
        {stopping ? "Stopping…" : "Stop (no checkpoints)"}
      </button>
      {failed && <span className="error-text"> Could not stop it: {failed}</span>}
    </div>
  );
}

/** In the block of a call that waits for its checkpoint while Warden looks at the project's files. */
export function WaitingForCheckpoint({ files }: { files: number }) {
  return (
    <p className="first-look-waiting muted small" role="status" data-testid={TID.firstLookWaiting}>
      Waits for its checkpoint, so that what it changes can be undone: Warden is looking at the project's files (
      {count.format(files)} so far).
    </p>
  );
}
