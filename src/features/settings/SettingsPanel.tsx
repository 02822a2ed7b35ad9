import { useEffect, useRef, useState } from "react";
import { applyTheme } from "../../shared/theme";
import { api, type KeyStatus, type Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { NumberField } from "../../shared/ui/NumberField";
import { CompactionField } from "./CompactionField";
import { KeyField } from "./KeyField";
import { InstructionsSection } from "./InstructionsSection";
import { ProjectSection } from "./ProjectSection";
import { SandboxSection } from "./SandboxSection";
import { PermissionsSection } from "./PermissionsSection";
import { UpdatesSection } from "../updates/UpdatesSection";
import { McpSection } from "./mcp/McpSection";
import { ProviderSection } from "./ProviderSection";
import { SettingsIntegrityNotice } from "./SettingsIntegrityNotice";
import { TrustLevelField } from "./TrustLevelField";
import "./settings.css";
import { PROVIDERS, isKeySet, keyCheckOf, keyNameOf, providerSettings, setProvider, withDefaults } from "./settingsModel";
import { messageOf } from "../../shared/format";

type SaveState = { state: "clean" } | { state: "dirty" } | { state: "saving" } | { state: "saved" } | { state: "error"; message: string };

/** How long after the last change Settings are saved (typing a URL saves once, not per key). */
export const SAVE_DELAY_MS = 400;

export function SettingsPanel({
  initial,
  keys,
  onSaved,
  onKeysChanged,
  onCheckForUpdates,
  onAbout,
  onClose,
}: {
  initial: Settings;
  keys: KeyStatus[];
  onSaved: (s: Settings) => void;
  onKeysChanged: (keys: KeyStatus[]) => void;
  /** "Check now" in Settings → Updates (the answer shows in the update notice). */
  onCheckForUpdates?: () => void;
  /** Settings → About Warden. */
  onAbout?: () => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState(() => withDefaults(initial));
  const [save, setSave] = useState<SaveState>({ state: "clean" });
  // Counts the saves that landed: what depends on the saved settings (MCP servers' state) asks again.
  const [savedCount, setSavedCount] = useState(0);
  // The project section keeps raw text fields; a new folder starts them afresh.
  const projectKey = draft.projectDir ?? "";
  // What the next save writes, the pending timer, and the saves in flight (one after the other,
  // so an older draft never lands after a newer one).
  const latest = useRef(draft);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const chain = useRef<Promise<void>>(Promise.resolve());

  // Saved as it changes, as the Claude and ChatGPT apps do: no Save button to forget.
  const persist = (): Promise<void> => {
    clearTimeout(timer.current);
    if (!dirty.current) return chain.current;
    dirty.current = false;
    const settings = latest.current;
    setSave({ state: "saving" });
    const run = chain.current.then(async () => {
      try {
        await api.settingsSet(settings);
        if (!dirty.current) setSave({ state: "saved" });
        setSavedCount((n) => n + 1);
        onSaved(settings);
      } catch (e) {
        dirty.current = true;
        setSave({ state: "error", message: messageOf(e) });
        throw e;
      }
    });
    chain.current = run.catch(() => undefined);
    return run;
  };

  const edit = (s: Settings) => {
    setDraft(s);
    latest.current = s;
    dirty.current = true;
    setSave({ state: "dirty" });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void persist().catch(() => undefined), SAVE_DELAY_MS);
  };
  // Leaving Settings any way (the window closing included) writes what is pending.
  useEffect(() => () => void persist().catch(() => undefined), []);

  // Closing never drops a change: what is not saved yet is saved first; if that fails, Settings
  // stays open with the reason.
  const close = () => {
    persist().then(onClose, () => undefined);
  };

  const refreshKeys = () => {
    Promise.resolve()
      .then(() => api.keysStatus())
      .then(
        (keys) => Array.isArray(keys) && onKeysChanged(keys),
        (e: unknown) => console.warn("keys_status failed", e),
      );
  };
  // The engine keeps rules in the settings: after one changed, take the saved settings again, so a
  // later save does not put the old rules back (what was pending was saved before the change).
  const reloadSaved = () => {
    api.settingsGet().then(
      (saved) => {
        if (dirty.current) return;
        const next = withDefaults(saved);
        setDraft(next);
        latest.current = next;
        onSaved(saved);
      },
      (e: unknown) => console.warn("settings_get failed", e),
    );
  };

  // Asked afresh each time Settings opens: whether a key was accepted changes as messages are sent.
  useEffect(refreshKeys, []);

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
            keyCheck={keyCheckOf(keys, keyNameOf(p))}
            onActivate={() => edit({ ...draft, activeProvider: p })}
            onChange={(patch) => edit(setProvider(draft, p, patch))}
            onKeysChanged={refreshKeys}
            beforeUse={persist}
            learned={draft.learnedModels}
            onLearnedChange={(learnedModels) => edit({ ...draft, learnedModels })}
          />
        ))}
      </section>

      <ProjectSection key={projectKey} settings={draft} onChange={edit} />

      <InstructionsSection settings={draft} onChange={edit} savedCount={savedCount} />

      <SandboxSection key={`sandbox-${projectKey}`} settings={draft} onChange={edit} />

      <PermissionsSection projectDir={draft.projectDir} beforeChange={persist} onRulesChanged={reloadSaved} />

      <McpSection settings={draft} onChange={edit} savedCount={savedCount} />

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
        <CompactionField value={draft.compactAtPercent} onChange={(compactAtPercent) => edit({ ...draft, compactAtPercent })} />
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
        <KeyField
          name="brave"
          label="Brave Search key (fallback)"
          isSet={isKeySet(keys, "brave")}
          onChanged={refreshKeys}
        />
      </section>

      <UpdatesSection settings={draft} onChange={edit} onCheckNow={() => onCheckForUpdates?.()} onAbout={() => onAbout?.()} />

      <footer className="settings-foot">
        <span className="save-state" data-testid={TID.settingsSaved} role="status">
          {save.state === "saving" && "Saving…"}
          {save.state === "saved" && "Saved ✓"}
          {save.state === "error" && `Not saved: ${save.message}`}
        </span>
        {save.state === "error" && (
          <button type="button" data-testid={TID.settingsSave} onClick={() => void persist().catch(() => undefined)}>
            Try again
          </button>
        )}
      </footer>
    </div>
  );
}
