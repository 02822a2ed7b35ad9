import { useState } from "react";
import { messageOf } from "../shared/format";
import { api } from "../shared/ipc";
import { TID } from "../shared/testids";

/** Setup's second step: the project folder, chosen with the system's folder picker. */
export function SetupProjectStep({
  projectDir,
  busy,
  onProjectChosen,
}: {
  /** The project folder already chosen, if any. */
  projectDir: string | null;
  busy: boolean;
  /** A folder was picked here: save it as the project. */
  onProjectChosen: (dir: string) => void;
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
        <button type="button" data-testid={TID.setupPickProject} disabled={busy} onClick={pick}>
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
