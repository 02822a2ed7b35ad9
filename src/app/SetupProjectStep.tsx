import { useState, type RefObject } from "react";
import { messageOf } from "../shared/format";
import { api } from "../shared/ipc";
import { TID } from "../shared/testids";

/** Setup's second step: the project folder, chosen with the system's folder picker. */
export function SetupProjectStep({
  projectDir,
  busy,
  onProjectChosen,
  pickRef,
}: {
  /** The project folder already chosen, if any. */
  projectDir: string | null;
  busy: boolean;
  /** A folder was picked here: save it as the project. */
  onProjectChosen: (dir: string) => void;
  /** The "Choose a folder…" button (the focus goes there once the first step is done). */
  pickRef?: RefObject<HTMLButtonElement | null>;
}) {
  const [pickError, setPickError] = useState<string | null>(null);
  const pick = () => {
    setPickError(null);
    Promise.resolve()
      .then(() => api.pickProjectFolder())
      .then(
        (dir) => dir && onProjectChosen(dir),
        (e: unknown) => setPickError(messageOf(e)),
      );
  };
  return (
    <>
      <h2 className="setup-step">2. The project folder</h2>
      <p className="muted">
        Warden reads, changes and runs things only inside this folder. Until one is chosen, the tools that touch files
        and run commands are off.
      </p>
      <p className="setup-project" data-testid={TID.setupProject}>
        {projectDir ? <code>{projectDir}</code> : <span className="muted">No folder chosen yet.</span>}{" "}
        <button ref={pickRef} type="button" data-testid={TID.setupPickProject} disabled={busy} onClick={pick}>
          {projectDir ? "Choose another…" : "Choose a folder…"}
        </button>
      </p>
      {pickError && (
        <p className="field-error" role="alert">
          {pickError}
        </p>
      )}
    </>
  );
}
