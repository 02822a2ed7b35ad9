// Help → About Warden: the version, the licence, where each kind of data lives, and how this copy
// is kept up to date. Esc or Close hides it.
import { useEffect, useRef, useState } from "react";
import { api, type AppInfo } from "../shared/ipc";
import { messageOf } from "../shared/format";
import { TID } from "../shared/testids";

export function AboutDialog({ onClose }: { onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => closeButton.current?.focus(), []);
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
    <div
      className="shortcuts-help about"
      role="dialog"
      aria-modal="true"
      aria-label="About Warden"
      data-testid={TID.aboutDialog}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
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
      <div className="about-actions">
        <button type="button" onClick={openLogs}>
          Open log folder
        </button>
        <button ref={closeButton} type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
