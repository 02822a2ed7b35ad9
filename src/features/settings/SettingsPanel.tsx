import { useState } from "react";
import { applyTheme } from "../../shared/theme";
import { api, type KeyStatus, type Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { NumberField } from "../../shared/ui/NumberField";
import { KeyField } from "./KeyField";
import { ProjectSection } from "./ProjectSection";
import { SandboxSection } from "./SandboxSection";
import { ProviderSection } from "./ProviderSection";
import { SettingsIntegrityNotice } from "./SettingsIntegrityNotice";
import { TrustLevelField } from "./TrustLevelField";
import "./settings.css";
import { PROVIDERS, isKeySet, keyNameOf, providerSettings, setProvider, withDefaults } from "./settingsModel";

type SaveState = { state: "clean" } | { state: "dirty" } | { state: "saving" } | { state: "saved" } | { state: "error"; message: string };

export function SettingsPanel({
  initial,
  keys,
  onSaved,
  onKeysChanged,
  onClose,
}: {
  initial: Settings;
  keys: KeyStatus[];
  onSaved: (s: Settings) => void;
  onKeysChanged: (keys: KeyStatus[]) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState(() => withDefaults(initial));
  const [save, setSave] = useState<SaveState>({ state: "clean" });
  // The project section keeps raw text fields; a new folder starts them afresh.
  const projectKey = draft.projectDir ?? "";

  const edit = (s: Settings) => {
    setDraft(s);
    setSave({ state: "dirty" });
  };

  const persist = async () => {
    setSave({ state: "saving" });
    try {
      await api.settingsSet(draft);
      setSave({ state: "saved" });
      onSaved(draft);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      setSave({ state: "error", message });
      throw e;
    }
  };

  // Closing never drops a change: what is not saved yet is saved first; if that fails, Settings
  // stays open with the reason.
  const close = () => {
    if (save.state !== "dirty" && save.state !== "error") {
      onClose();
      return;
    }
    persist().then(onClose, () => undefined);
  };

  const refreshKeys = () => {
    api.keysStatus().then(onKeysChanged, (e: unknown) => console.warn("keys_status failed", e));
  };

  return (
    <div
      className="settings"
      data-testid={TID.settingsPanel}
      role="region"
      aria-label="Settings"
      onKeyDown={(e) => {
        // Esc closes Settings, as Close does.
        if (e.key === "Escape" && !e.defaultPrevented) {
          e.preventDefault();
          close();
        }
      }}
    >
      <header className="settings-head">
        <h2>Settings</h2>
        <button type="button" className="link" data-testid={TID.settingsClose} onClick={close}>
          Close
        </button>
      </header>

      <SettingsIntegrityNotice
        onAccepted={(settings) => {
          setDraft(withDefaults(settings));
          setSave({ state: "clean" });
          onSaved(settings);
        }}
      />

      <TrustLevelField value={draft.trustLevel ?? "guided"} onChange={(trustLevel) => edit({ ...draft, trustLevel })} />

      <section className="settings-section">
        <h3>Model providers</h3>
        {PROVIDERS.map((p) => (
          <ProviderSection
            key={p}
            provider={p}
            settings={providerSettings(draft, p)}
            active={draft.activeProvider === p}
            keySet={isKeySet(keys, keyNameOf(p))}
            onActivate={() => edit({ ...draft, activeProvider: p })}
            onChange={(patch) => edit(setProvider(draft, p, patch))}
            onKeysChanged={refreshKeys}
            beforeTest={async () => {
              if (save.state === "dirty" || save.state === "error") await persist();
            }}
          />
        ))}
      </section>

      <ProjectSection key={projectKey} settings={draft} onChange={edit} />

      <SandboxSection key={`sandbox-${projectKey}`} settings={draft} onChange={edit} />

      <section className="settings-section">
        <h3>Appearance</h3>
        <div role="radiogroup" aria-label="Theme" className="theme-choice">
          {(["system", "light", "dark"] as const).map((theme) => (
            <label key={theme} className="checkbox">
              <input
                type="radio"
                name="theme"
                data-testid={TID.theme[theme]}
                checked={(draft.theme ?? "system") === theme}
                onChange={() => {
                  edit({ ...draft, theme });
                  // Shown at once; saved with the rest.
                  applyTheme(theme);
                }}
              />
              {theme === "system" ? "As the system" : theme === "light" ? "Light" : "Dark"}
            </label>
          ))}
        </div>
      </section>

      <section className="settings-section">
        <h3>Limits</h3>
        <label>
          Approval timeout (seconds) — an unanswered request counts as rejected
          <NumberField
            min={5}
            max={3600}
            testId={TID.approvalTimeout}
            value={draft.approvalTimeoutSecs === 0 ? 30 : (draft.approvalTimeoutSecs ?? 30)}
            disabled={draft.approvalTimeoutSecs === 0}
            onChange={(approvalTimeoutSecs) => edit({ ...draft, approvalTimeoutSecs })}
          />
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid={TID.approvalNoLimit}
            checked={draft.approvalTimeoutSecs === 0}
            onChange={(e) => edit({ ...draft, approvalTimeoutSecs: e.target.checked ? 0 : 30 })}
          />
          No time limit: a request waits until I answer it
        </label>
      </section>

      <section className="settings-section">
        <h3>Web search</h3>
        <label>
          SearXNG URL
          <input
            type="url"
            data-testid={TID.searxngUrl}
            value={draft.searxngUrl ?? ""}
            onChange={(e) => edit({ ...draft, searxngUrl: e.target.value })}
          />
        </label>
        <KeyField name="brave" label="Brave Search key (fallback)" isSet={isKeySet(keys, "brave")} onChanged={refreshKeys} />
      </section>

      <footer className="settings-foot">
        <button
          type="button"
          className="primary"
          data-testid={TID.settingsSave}
          disabled={save.state === "saving" || save.state === "clean" || save.state === "saved"}
          onClick={() => void persist().catch(() => undefined)}
        >
          Save
        </button>
        <span className="save-state" data-testid={TID.settingsSaved} role="status">
          {save.state === "saved" && "Saved ✓"}
          {save.state === "dirty" && "Unsaved changes"}
          {save.state === "error" && `Not saved: ${save.message}`}
        </span>
      </footer>
    </div>
  );
}
