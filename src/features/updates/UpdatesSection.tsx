// Settings → Updates (and the way to About Warden): whether Warden looks for a new version when it starts, the update server
// (empty: the one this build names), and a "Check now" whose answer shows in the notice.
import type { Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";

export function UpdatesSection({
  settings,
  onChange,
  onCheckNow,
  onAbout,
}: {
  settings: Settings;
  onChange: (next: Settings) => void;
  onCheckNow: () => void;
  onAbout: () => void;
}) {
  const updates = { checkAtStart: settings.updates?.checkAtStart ?? true, endpoint: settings.updates?.endpoint ?? "" };
  const endpoint = updates.endpoint.trim();
  const notHttps = endpoint !== "" && !endpoint.toLowerCase().startsWith("https://");
  return (
    <section className="settings-section">
      <h3>Updates</h3>
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid={TID.updatesCheckAtStart}
          checked={updates.checkAtStart}
          onChange={(e) => onChange({ ...settings, updates: { ...updates, checkAtStart: e.target.checked } })}
        />
        Look for a new version when Warden starts
      </label>
      <label>
        Update server (leave empty for Warden's own)
        <input
          type="url"
          placeholder="https://…/latest.json"
          data-testid={TID.updatesEndpoint}
          value={updates.endpoint}
          onChange={(e) => onChange({ ...settings, updates: { ...updates, endpoint: e.target.value } })}
        />
      </label>
      {notHttps && (
        <p className="field-error small" role="alert">
          Only an https address is used.
        </p>
      )}
      <p className="muted small">Whatever server is named, an update is installed only when it is signed with Warden's key.</p>
      <div className="about-actions">
        <button type="button" data-testid={TID.updatesCheckNow} onClick={onCheckNow}>
          Check now
        </button>
        <button type="button" className="link" data-testid={TID.aboutOpen} onClick={onAbout}>
          About Warden
        </button>
      </div>
    </section>
  );
}
