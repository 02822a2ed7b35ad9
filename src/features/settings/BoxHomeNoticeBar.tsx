// Once per project Warden worked in before the sandbox changed: what of the home its commands no
// longer see (the box now shows only the toolchains), and where to give one back — Settings →
// Sandbox, or the offer on a failed command's block. Gone for good once read. A remote project's
// is asked on its machine, of that machine's home.
import { useEffect, useRef, useState } from "react";
import type { BoxHomeNotice } from "../../shared/ipc";
import { messageOf } from "../../shared/format";
import type { ProjectPlace } from "../../shared/projectPlace";
import { TID } from "../../shared/testids";
import "./boxHomeNotice.css";

/** Shown under the top bar for the project at `place` (asked again when it changes). */
export function BoxHomeNoticeBar({ place, onOpenSettings }: { place: ProjectPlace | null; onOpenSettings: () => void }) {
  const [notice, setNotice] = useState<BoxHomeNotice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = place?.key ?? null;
  // The place of the project named by `key` (a new object each render, the same project).
  const current = useRef(place);
  current.current = place;
  useEffect(() => {
    let live = true;
    setNotice(null);
    const place = current.current;
    if (!place) return;
    // Nothing to say is the usual answer; a failure to ask is not worth a banner either.
    place.boxNotice().then(
      (n) => live && setNotice(n),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [key]);
  if (!notice || !place) return null;
  const dismiss = () =>
    place.dismissBoxNotice().then(
      () => setNotice(null),
      (e: unknown) => setError(messageOf(e)),
    );
  return (
    <div className="box-home-notice" role="status" data-testid={TID.boxHomeNotice}>
      <span>
        <strong>The sandbox changed:</strong> commands in this project now see only your toolchains of your home
        {place.there && <> on {place.there}</>} (cargo, rustup, node and Python version managers, your git settings). No
        longer visible to them:
      </span>
      <ul className="path-list" data-testid={TID.boxHomeNoticePaths}>
        {notice.paths.map((p) => (
          <li key={p}>
            <code>{p}</code>
          </li>
        ))}
        {notice.more > 0 && <li className="muted">and {notice.more} more</li>}
      </ul>
      <span className="muted">
        If a command needs one, add it to the paths it may read in Settings → Sandbox, or take the offer on the
        command&apos;s block when it fails.
      </span>
      {error && <span className="field-error">{error}</span>}
      <button type="button" className="link" data-testid={TID.boxHomeNoticeSettings} onClick={onOpenSettings}>
        Open Settings
      </button>
      <button type="button" className="primary" data-testid={TID.boxHomeNoticeDismiss} onClick={() => void dismiss()}>
        Got it
      </button>
    </div>
  );
}
