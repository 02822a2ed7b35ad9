import type { KeyStatus, Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { AppearanceSection } from "./AppearanceSection";
import { InstructionsSection } from "./InstructionsSection";
import { ProjectSection } from "./ProjectSection";
import { SandboxSection } from "./SandboxSection";
import { PermissionsSection } from "./PermissionsSection";
import { UpdatesSection } from "../updates/UpdatesSection";
import { McpSection } from "./mcp/McpSection";
import { ModelProvidersSection } from "./ModelProvidersSection";
import { SettingsIntegrityNotice } from "./SettingsIntegrityNotice";
import { TrustLevelField } from "./TrustLevelField";
import { LimitsSection } from "./LimitsSection";
import { SaveStatus } from "./SaveStatus";
import { useKeysRefresh } from "./useKeysRefresh";
import { useSettingsDraft } from "./useSettingsDraft";
import { WebSearchSection } from "./WebSearchSection";
import "./settings.css";

export { SAVE_DELAY_MS } from "./useSettingsDraft";

type SettingsPanelProps = {
  initial: Settings;
  keys: KeyStatus[];
  onSaved: (s: Settings) => void;
  onKeysChanged: (keys: KeyStatus[]) => void;
  /** "Check now" in Settings → Updates (the answer shows in the update notice). */
  onCheckForUpdates?: () => void;
  /** Settings → About Warden. */
  onAbout?: () => void;
  onClose: () => void;
};

export function SettingsPanel({
  initial,
  keys,
  onSaved,
  onKeysChanged,
  onCheckForUpdates,
  onAbout,
  onClose,
}: SettingsPanelProps) {
  const { draft, save, savedCount, edit, persist, reloadSaved, accepted } = useSettingsDraft(initial, onSaved);
  // The project section keeps raw text fields; a new folder starts them afresh.
  const projectKey = draft.projectDir ?? "";

  // Closing never drops a change: what is not saved yet is saved first; if that fails, Settings
  // stays open with the reason.
  const close = () => {
    persist().then(onClose, () => undefined);
  };

  const refreshKeys = useKeysRefresh(onKeysChanged);

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

      <SettingsIntegrityNotice onAccepted={accepted} />

      <TrustLevelField value={draft.trustLevel ?? "guided"} onChange={(trustLevel) => edit({ ...draft, trustLevel })} />

      <ModelProvidersSection
        settings={draft}
        keys={keys}
        onChange={edit}
        onKeysChanged={refreshKeys}
        beforeUse={persist}
      />

      <ProjectSection key={projectKey} settings={draft} onChange={edit} />

      <InstructionsSection settings={draft} onChange={edit} savedCount={savedCount} />

      <SandboxSection key={`sandbox-${projectKey}`} settings={draft} onChange={edit} />

      <PermissionsSection projectDir={draft.projectDir} beforeChange={persist} onRulesChanged={reloadSaved} />

      <McpSection settings={draft} onChange={edit} savedCount={savedCount} />

      <AppearanceSection settings={draft} onChange={edit} />

      <LimitsSection settings={draft} onChange={edit} />

      <WebSearchSection settings={draft} keys={keys} onChange={edit} onKeysChanged={refreshKeys} />

      <UpdatesSection settings={draft} onChange={edit} onCheckNow={() => onCheckForUpdates?.()} onAbout={() => onAbout?.()} />

      <SaveStatus save={save} onRetry={() => void persist().catch(() => undefined)} />
    </div>
  );
}
