import { useRef } from "react";
import type { KeyStatus, Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { AppearanceSection } from "./AppearanceSection";
import { InstructionsSection } from "./InstructionsSection";
import { ProjectSection } from "./ProjectSection";
import { SandboxSection } from "./SandboxSection";
import { PermissionsSection } from "./PermissionsSection";
import { HooksSection } from "../hooks/HooksSection";
import { UpdatesSection } from "../updates/UpdatesSection";
import { McpSection } from "./mcp/McpSection";
import { ModelProvidersSection } from "./ModelProvidersSection";
import { SettingsIntegrityNotice } from "./SettingsIntegrityNotice";
import { TrustLevelField } from "./TrustLevelField";
import { LimitsSection } from "./LimitsSection";
import { PricesSection } from "./PricesSection";
import { SaveStatus } from "./SaveStatus";
import { SkillsSection } from "./SkillsSection";
import { NoSectionMatches, SettingsBlock, SettingsNav } from "./SettingsNav";
import { useKeysRefresh } from "./useKeysRefresh";
import { useSectionFilter } from "./useSectionFilter";
import { useSettingsDraft } from "./useSettingsDraft";
import { useSettingsFocus, type SettingsFocus } from "./useSettingsFocus";
import { WebSearchSection } from "./WebSearchSection";
import type { RemoteProject } from "../remote/remoteStore";
import "./settings.css";

export { SAVE_DELAY_MS } from "./useSettingsDraft";
export type { SettingsFocus } from "./useSettingsFocus";

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
  /** What has the focus as Settings open (the panel itself when not said). */
  focusOnOpen?: SettingsFocus | null;
  /** The remote projects linked in this window: Settings → Sandbox shows the box of each, there. */
  remoteProjects?: RemoteProject[];
};

// size: one block per section, in the order the navigation lists them, each a few lines
export function SettingsPanel({
  initial,
  keys,
  onSaved,
  onKeysChanged,
  onCheckForUpdates,
  onAbout,
  onClose,
  focusOnOpen = null,
  remoteProjects = [],
}: SettingsPanelProps) {
  const { draft, save, savedCount, edit, persist, reloadSaved, accepted } = useSettingsDraft(initial, onSaved);
  // The project section keeps raw text fields; a new folder starts them afresh.
  const projectKey = draft.projectDir ?? "";

  // Closing never drops a change: what is not saved yet is saved first; if that fails, Settings
  // stays open with the reason.
  const close = () => {
    persist().then(onClose, () => undefined);
  };
  const panel = useRef<HTMLDivElement>(null);
  useSettingsFocus(panel, focusOnOpen, draft.activeProvider ?? "anthropic", close);

  const refreshKeys = useKeysRefresh(onKeysChanged);
  const { query, setQuery, shown, register, jump } = useSectionFilter();
  const block = (id: Parameters<typeof register>[0]) => ({ id, shown: shown.has(id), boxRef: register(id) });

  return (
    <div ref={panel} className="settings" data-testid={TID.settingsPanel} role="region" aria-label="Settings" tabIndex={-1}>
      <header className="settings-head">
        <h2>Settings</h2>
        <button type="button" className="link" data-testid={TID.settingsClose} onClick={close}>
          Close
        </button>
      </header>

      <div className="settings-body">
        <SettingsNav query={query} onQuery={setQuery} shown={shown} onJump={jump} />
        <div className="settings-sections">
          <SettingsIntegrityNotice onAccepted={accepted} />
          <SettingsBlock {...block("trust")}>
            <TrustLevelField value={draft.trustLevel ?? "guided"} onChange={(trustLevel) => edit({ ...draft, trustLevel })} />
          </SettingsBlock>
          <SettingsBlock {...block("models")}>
            <ModelProvidersSection settings={draft} keys={keys} onChange={edit} onKeysChanged={refreshKeys} beforeUse={persist} />
          </SettingsBlock>
          <SettingsBlock {...block("project")}>
            <ProjectSection key={projectKey} settings={draft} onChange={edit} />
          </SettingsBlock>
          <SettingsBlock {...block("instructions")}>
            <InstructionsSection settings={draft} onChange={edit} savedCount={savedCount} />
          </SettingsBlock>
          <SettingsBlock {...block("skills")}>
            <SkillsSection projectDir={draft.projectDir} savedCount={savedCount} beforeChange={persist} onChanged={reloadSaved} />
          </SettingsBlock>
          <SettingsBlock {...block("sandbox")}>
            <SandboxSection key={`sandbox-${projectKey}`} settings={draft} onChange={edit} remoteProjects={remoteProjects} />
          </SettingsBlock>
          <SettingsBlock {...block("permissions")}>
            <PermissionsSection projectDir={draft.projectDir} beforeChange={persist} onRulesChanged={reloadSaved} />
          </SettingsBlock>
          <SettingsBlock {...block("hooks")}>
            <HooksSection settings={draft} onChange={edit} savedCount={savedCount} />
          </SettingsBlock>
          <SettingsBlock {...block("mcp")}>
            <McpSection settings={draft} onChange={edit} savedCount={savedCount} remoteProjects={remoteProjects} />
          </SettingsBlock>
          <SettingsBlock {...block("appearance")}>
            <AppearanceSection settings={draft} onChange={edit} />
          </SettingsBlock>
          <SettingsBlock {...block("limits")}>
            <LimitsSection settings={draft} onChange={edit} />
          </SettingsBlock>
          <SettingsBlock {...block("prices")}>
            <PricesSection settings={draft} onChange={edit} />
          </SettingsBlock>
          <SettingsBlock {...block("search")}>
            <WebSearchSection settings={draft} keys={keys} onChange={edit} onKeysChanged={refreshKeys} />
          </SettingsBlock>
          <SettingsBlock {...block("updates")}>
            <UpdatesSection settings={draft} onChange={edit} onCheckNow={() => onCheckForUpdates?.()} onAbout={() => onAbout?.()} />
          </SettingsBlock>
          <NoSectionMatches query={query} shown={shown} />
        </div>
      </div>

      <SaveStatus save={save} onRetry={() => void persist().catch(() => undefined)} />
    </div>
  );
}
