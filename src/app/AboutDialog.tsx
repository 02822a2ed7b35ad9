// Help → About Warden: the version, the licence, where each kind of data lives, and how this copy
// is kept up to date. Esc or Close hides it.
import { useEffect, useState } from "react";
import { api, type AppInfo } from "../shared/ipc";
import { messageOf } from "../shared/format";
import { TID } from "../shared/testids";
import { Dialog } from "../shared/ui/Dialog";

export function AboutDialog({ onClose }: { onClose: () => void }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.appInfo().then(
      (i) => live && setInfo(i),
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, []);
  const openLogs = () => void api.logsOpen().catch((e: unknown) => setError(messageOf(e)));
  return (
    <Dialog
      label="About Warden"
      testId={TID.aboutDialog}
      className="about"
      onClose={onClose}
      actions={
        <button type="button" onClick={openLogs}>
          Open log folder
        </button>
      }
    >
      <h2>About Warden</h2>
      {info && (
        <>
          <p>
            <strong data-testid={TID.aboutVersion}>
              {info.name} {info.version}
            </strong>
            <br />A desktop AI agent that asks before it acts. {info.licence} licence.
          </p>
          <h3>Where your data lives</h3>
          <dl className="about-places">
            {info.places.map((p) => (
              <div key={p.what}>
                <dt>{p.what}</dt>
                <dd>
                  <code>{p.path}</code>
                </dd>
              </div>
            ))}
          </dl>
          <p className="muted small">{info.updates}</p>
        </>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
