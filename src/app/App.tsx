// The window: boot, then first-run setup or the chat, with settings over it.
import { useEffect, useState } from "react";
import { ChatScreen } from "../features/chat/ChatScreen";
import { SettingsPanel } from "../features/settings/SettingsPanel";
import type { KeyStatus, ProviderReadiness, Settings } from "../shared/ipc";
import { connectEvents } from "../shared/store/bridge";
import { useListener } from "../shared/useListener";
import { useChatStore } from "../shared/store/store";
import { TID } from "../shared/testids";
import { focusComposer } from "../shared/keyboard";
import { applyTheme } from "../shared/theme";
import { Setup } from "./Setup";
import { McpFormHost } from "../features/mcp/McpFormHost";
import { ShortcutsHelp } from "./ShortcutsHelp";
import { AboutDialog } from "./AboutDialog";
import { UpdateNotice } from "../features/updates/UpdateNotice";
import { BoxHomeNoticeBar } from "../features/settings/BoxHomeNoticeBar";
import { useUpdates } from "../features/updates/useUpdates";
import { useMenu } from "./useMenu";
import "../shared/ui/base.css";
import "./app.css";
import { useBoot } from "./useBoot";
import { modelChoiceOf } from "./modelChoice";
import { TopBar } from "./TopBar";
import { useRoute } from "./useRoute";
import { useSetupSave } from "./useSetupSave";

type LoadedProps = {
  settings: Settings;
  keys: KeyStatus[];
  readiness: ProviderReadiness;
  ollamaReachable: boolean;
};

function Loaded({ settings: initial, keys: initialKeys, readiness, ollamaReachable }: LoadedProps) {
  const [settings, setSettings] = useState(initial);
  const [keys, setKeys] = useState(initialKeys);
  const [help, setHelp] = useState(false);
  const [about, setAbout] = useState(false);
  const updates = useUpdates(settings.updates?.checkAtStart ?? true);
  useMenu({ onAbout: () => setAbout(true), onCheckForUpdates: updates.check });

  useEffect(() => applyTheme(settings.theme), [settings.theme]);

  const { route, setRoute, openSettings, toggleSettings } = useRoute(readiness.ready, setSettings, setHelp);
  const closeHelp = () => {
    setHelp(false);
    focusComposer();
  };

  const setup = useSetupSave(settings, setSettings, () => setRoute("chat"));
  const closeAbout = () => {
    setAbout(false);
    focusComposer();
  };

  if (route === "setup") {
    return (
      <Setup
        ollamaReachable={ollamaReachable}
        notReady={readiness.reason}
        projectDir={settings.projectDir ?? null}
        busy={setup.busy}
        error={setup.error}
        onProjectChosen={setup.chooseProject}
        onUseOllama={() => void setup.chooseProvider("ollama")}
        onKeySaved={(provider) => void setup.chooseProvider(provider)}
        onOpenSettings={() => void openSettings()}
        onSkip={() => setRoute("chat")}
      />
    );
  }

  return (
    <div className="shell">
      <TopBar
        projectDir={settings.projectDir ?? null}
        // Asked again after Settings closes: the folder or the global text may have changed.
        instructionsKey={`${settings.projectDir ?? ""}#${settings.globalInstructions ?? ""}#${route}`}
        settingsOpen={route === "settings"}
        onOpenSettings={() => void openSettings()}
        onToggleSettings={toggleSettings}
        onShortcuts={() => setHelp(true)}
      />
      <UpdateNotice updates={updates} />
      {route === "chat" && <BoxHomeNoticeBar projectDir={settings.projectDir ?? null} onOpenSettings={() => void openSettings()} />}
      {help && <ShortcutsHelp onClose={closeHelp} />}
      {about && <AboutDialog onClose={closeAbout} />}
      <McpFormHost />
      {route === "settings" ? (
        <SettingsPanel
          initial={settings}
          keys={keys}
          onSaved={setSettings}
          onKeysChanged={setKeys}
          onCheckForUpdates={updates.check}
          onAbout={() => setAbout(true)}
          onClose={() => setRoute("chat")}
        />
      ) : (
        <ChatScreen onOpenSettings={() => void openSettings()} modelChoice={modelChoiceOf(settings, setSettings)} />
      )}
    </div>
  );
}

export function App() {
  const boot = useBoot();
  const store = useChatStore();

  useListener(() => connectEvents(store), "engine events", [store]);

  return (
    <div className="app" data-testid={TID.appRoot}>
      {boot.state === "loading" && <p className="muted centered">Starting…</p>}
      {boot.state === "failed" && (
        <p className="field-error centered" role="alert">
          Warden could not read its settings: {boot.message}
        </p>
      )}
      {boot.state === "ready" && (
        <Loaded settings={boot.settings} keys={boot.keys} readiness={boot.readiness} ollamaReachable={boot.ollamaReachable} />
      )}
    </div>
  );
}
