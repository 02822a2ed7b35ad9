// The update notice under the top bar: unobtrusive, and only when there is something to say — an
// update found (with its release notes a click away), the answer to a check the user asked for, an
// install under way, or why it failed.
import { useState } from "react";
import { TID } from "../../shared/testids";
import type { Updates } from "./useUpdates";
import "./updates.css";

function percent(downloaded: number, total: number | null | undefined): string {
  if (!total) return `${Math.round(downloaded / 1024)} KiB`;
  return `${Math.min(100, Math.round((downloaded / total) * 100))} %`;
}

export function UpdateNotice({ updates }: { updates: Updates }) {
  const { state } = updates;
  const [notesOpen, setNotesOpen] = useState(false);
  if (state.kind === "idle") return null;
  const close = (
    <button type="button" className="link" data-testid={TID.updateDismiss} onClick={updates.dismiss}>
      {state.kind === "available" ? "Later" : "Close"}
    </button>
  );
  return (
    <div className={`update-notice update-${state.kind}`} role="status" data-testid={TID.updateNotice} data-state={state.kind}>
      {state.kind === "checking" && <span>Looking for updates…</span>}
      {state.kind === "upToDate" && (
        <>
          <span>Warden {state.current} is the newest version.</span>
          {close}
        </>
      )}
      {state.kind === "unavailable" && (
        <>
          <span>{state.reason}</span>
          {close}
        </>
      )}
      {state.kind === "available" && (
        <>
          <span data-testid={TID.updateVersion}>
            Warden {state.version} is available (you have {state.current}).
          </span>
          {state.notes.trim() !== "" && (
            <button type="button" className="link" aria-expanded={notesOpen} onClick={() => setNotesOpen(!notesOpen)}>
              {notesOpen ? "Hide what's new" : "What's new"}
            </button>
          )}
          <button type="button" className="primary" data-testid={TID.updateInstall} onClick={updates.install}>
            Install and restart
          </button>
          {close}
          {notesOpen && (
            <pre className="update-notes" data-testid={TID.updateNotes}>
              {state.notes}
            </pre>
          )}
        </>
      )}
      {state.kind === "installing" && (
        <span>
          {state.progress?.stage === "installing"
            ? `Installing Warden ${state.version}…`
            : state.progress?.stage === "restarting"
              ? "Restarting…"
              : `Downloading Warden ${state.version}… ${state.progress ? percent(state.progress.downloaded, state.progress.total) : ""}`}
        </span>
      )}
      {state.kind === "failed" && (
        <>
          <span className="field-error" data-testid={TID.updateError}>
            {state.message}
          </span>
          <button type="button" className="link" data-testid={TID.updateCheckAgain} onClick={updates.check}>
            Check again
          </button>
          {close}
        </>
      )}
    </div>
  );
}
