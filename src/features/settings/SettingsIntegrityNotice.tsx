// Shown when the settings file is not the one Warden wrote (a command the agent ran, an editor, or
// a Warden from before the check changed it). Warden then ignores the file's trust level, project
// permissions, provider addresses and global instructions; the user can read the file and accept it
// as it is.
import { useEffect, useState } from "react";
import { api, type Settings, type SettingsIntegrity } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { messageOf } from "../../shared/format";

export function SettingsIntegrityNotice({ onAccepted }: { onAccepted: (settings: Settings) => void }) {
  const [integrity, setIntegrity] = useState<SettingsIntegrity | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api.settingsIntegrity().then(
      (i) => {
        if (live) setIntegrity(i);
      },
      (e: unknown) => console.warn("settings_integrity failed", e),
    );
    return () => {
      live = false;
    };
  }, []);

  if (!integrity) return null;
  if (integrity.trusted) {
    return integrity.notice ? (
      <section className="settings-section settings-integrity" role="status" data-testid={TID.settingsLoadNotice}>
        <h3>About your settings file</h3>
        <p>{integrity.notice}</p>
      </section>
    ) : null;
  }

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.settingsAcceptFile();
      const [settings, now] = await Promise.all([api.settingsGet(), api.settingsIntegrity()]);
      setIntegrity(now);
      onAccepted(settings);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings-section settings-integrity" role="alert" data-testid={TID.settingsIntegrityNotice}>
      <h3>Settings file changed outside Warden</h3>
      <p>{integrity.problem}</p>
      {integrity.notice && <p>{integrity.notice}</p>}
      <p className="muted">
        If you changed the file yourself, or trust the change, accept it. Otherwise leave it: saving settings
        here replaces the file with what you see.
      </p>
      <button type="button" data-testid={TID.settingsAcceptFile} disabled={busy} onClick={() => void accept()}>
        Accept the file as it is
      </button>
      {error && <p className="error">{error}</p>}
    </section>
  );
}
