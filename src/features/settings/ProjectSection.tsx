import { useState } from "react";
import { api, type Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { NumberField } from "../../shared/ui/NumberField";
import { useToolCatalog } from "../../shared/toolCatalog";
import { AllowedTools } from "./AllowedTools";
import { projectPermissions, setProjectPermissions } from "./settingsModel";
import { messageOf } from "../../shared/format";

export function ProjectSection({ settings, onChange }: { settings: Settings; onChange: (s: Settings) => void }) {
  const [error, setError] = useState<string | null>(null);
  const perms = projectPermissions(settings);
  // The raw text, so a newline being typed is not trimmed away under the cursor.
  const [globText, setGlobText] = useState(() => (perms?.writeGlobs ?? []).join("\n"));
  const catalog = useToolCatalog();

  const pick = async () => {
    setError(null);
    try {
      const dir = await api.pickProjectFolder();
      if (dir) onChange({ ...settings, projectDir: dir });
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <section className="settings-section">
      <h3>Project</h3>
      <div className="project-row">
        <code className="project-dir" data-testid={TID.projectDir}>
          {settings.projectDir ?? "No folder chosen"}
        </code>
        <button type="button" data-testid={TID.projectPick} onClick={() => void pick()}>
          Choose folder…
        </button>
      </div>
      {error && <p className="field-error">{error}</p>}
      {perms ? (
        <>
          <AllowedTools settings={settings} perms={perms} catalog={catalog} onChange={onChange} />
          <label>
            Paths write tools may change (globs, one per line; empty = anywhere in the project)
            <textarea
              rows={3}
              data-testid={TID.writeGlobs}
              value={globText}
              onChange={(e) => {
                setGlobText(e.target.value);
                const writeGlobs = e.target.value.split("\n").map((g) => g.trim()).filter(Boolean);
                onChange(setProjectPermissions(settings, { writeGlobs }));
              }}
            />
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              data-testid={TID.checkpointsToggle}
              checked={perms.checkpoints ?? true}
              onChange={(e) => onChange(setProjectPermissions(settings, { checkpoints: e.target.checked }))}
            />
            Checkpoints before every change
            <span className="muted small">
              {" "}
              — Warden keeps the project as it was before each change (outside the project), so a call, a turn or a restore can be undone.
            </span>
          </label>
          <label>
            Command timeout (seconds)
            <NumberField
              min={1}
              max={3600}
              testId={TID.bashTimeout}
              value={perms.bashTimeoutSecs ?? 60}
              onChange={(bashTimeoutSecs) => onChange(setProjectPermissions(settings, { bashTimeoutSecs }))}
            />
          </label>
        </>
      ) : (
        <p className="muted">Choose a project folder to set what Warden may do in it.</p>
      )}
    </section>
  );
}
