// The window: boot, then first-run setup or the chat, with settings over it.
import { useEffect, useRef, useState } from "react";
import { ChatScreen } from "../features/chat/ChatScreen";
import { SettingsPanel } from "../features/settings/SettingsPanel";
import { providerSettings, setProvider, withDefaults } from "../features/settings/settingsModel";
import { api, type KeyStatus, type ProviderReadiness, type Settings } from "../shared/ipc";
import { connectEvents } from "../shared/store/bridge";
import { useListener } from "../shared/useListener";
import { useChatStore } from "../shared/store/store";
import { TID } from "../shared/testids";
import { focusComposer, listenShortcuts } from "../shared/keyboard";
import { applyTheme } from "../shared/theme";
import { Setup } from "./Setup";
import { McpFormHost } from "../features/mcp/McpFormHost";
import { InstructionsIndicator } from "../features/instructions/InstructionsIndicator";
import { ShortcutsHelp } from "./ShortcutsHelp";
import { AboutDialog } from "./AboutDialog";
import { UpdateNotice } from "../features/updates/UpdateNotice";
import { BoxHomeNoticeBar } from "../features/settings/BoxHomeNoticeBar";
import { useUpdates } from "../features/updates/useUpdates";
import { useMenu } from "./useMenu";
import "../shared/ui/base.css";
import "./app.css";
import { useBoot } from "./useBoot";
import { messageOf } from "../shared/format";

type Route = "setup" | "chat" | "settings";

function Loaded({
  settings: initial,
  keys: initialKeys,
  readiness,
  ollamaReachable,
}: {
  settings: Settings;
  keys: KeyStatus[];
  readiness: ProviderReadiness;
  ollamaReachable: boolean;
}) {
  const [settings, setSettings] = useState(() => withDefaults(initial));
  const [keys, setKeys] = useState(initialKeys);
  const [route, setRoute] = useState<Route>(() => (readiness.ready ? "chat" : "setup"));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [about, setAbout] = useState(false);
  const updates = useUpdates(settings.updates?.checkAtStart ?? true);
  useMenu({ onAbout: () => setAbout(true), onCheckForUpdates: updates.check });

  useEffect(() => applyTheme(settings.theme), [settings.theme]);

  // Settings open on the engine's settings as they are now, not as the window last saw them: the
  // engine saves some answers itself ("Always for this project" about a host, what it learned of a
  // model), and Settings saving an older copy would drop them.
  const openSettings = async () => {
    try {
      setSettings(await api.settingsGet());
    } catch {
      // The copy in hand is the best left; Settings says so if saving it fails.
    }
    setRoute("settings");
  };
  const toggleSettings = () => (route === "settings" ? setRoute("chat") : void openSettings());
  // The shortcut listener is set up once; it calls the toggle of the latest render.
  const toggleRef = useRef(toggleSettings);
  toggleRef.current = toggleSettings;

  // Ctrl/Cmd+, opens and closes Settings; Ctrl/Cmd+/ lists the shortcuts.
  useEffect(
    () =>
      listenShortcuts((shortcut) => {
        if (shortcut === "settings") {
          toggleRef.current();
          return true;
        }
        if (shortcut === "help") {
          setHelp((h) => !h);
          return true;
        }
        return false;
      }),
    [],
  );
  const closeHelp = () => {
    setHelp(false);
    focusComposer();
  };

  /** Save `next` from the setup screen: busy meanwhile, the reason shown when it fails. */
  const saveFromSetup = async (next: Settings): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await api.settingsSet(next);
      setSettings(next);
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const useOllama = async () => {
    if (await saveFromSetup({ ...settings, activeProvider: "ollama" })) setRoute("chat");
  };

  // A key pasted on the setup screen is in the keychain: its provider becomes the active one.
  const useKey = async (provider: "anthropic" | "openai") => {
    if (await saveFromSetup({ ...settings, activeProvider: provider })) setRoute("chat");
  };

  // The composer's model menu: saved like Settings saves it; the next message uses it.
  const chooseModel = async (model: string | null) => {
    const provider = settings.activeProvider ?? "anthropic";
    const next = setProvider(settings, provider, { model, contextWindow: null });
    await api.settingsSet(next);
    setSettings(next);
  };

  if (route === "setup") {
    return (
      <Setup
        ollamaReachable={ollamaReachable}
        notReady={readiness.reason}
        projectDir={settings.projectDir ?? null}
        busy={busy}
        error={error}
        onProjectChosen={(dir) => void saveFromSetup({ ...settings, projectDir: dir })}
        onUseOllama={() => void useOllama()}
        onKeySaved={(provider) => void useKey(provider)}
        onOpenSettings={() => void openSettings()}
        onSkip={() => setRoute("chat")}
      />
    );
  }

  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Warden</span>
        {settings.projectDir ? (
          <span className="topbar-project" title={settings.projectDir}>
            {settings.projectDir}
          </span>
        ) : (
          <button
            type="button"
            className="link topbar-project topbar-no-project"
            data-testid={TID.noProject}
            title="Choose the folder Warden may work in"
            onClick={() => void openSettings()}
          >
            No project folder: file tools and commands are off — choose one
          </button>
        )}
        {/* Asked again after Settings closes: the folder or the global text may have changed. */}
        <InstructionsIndicator refreshKey={`${settings.projectDir ?? ""}#${settings.globalInstructions ?? ""}#${route}`} />
        <button
          type="button"
          className="link"
          data-testid={TID.settingsOpen}
          aria-pressed={route === "settings"}
          onClick={toggleSettings}
        >
          Settings
        </button>
        <button type="button" className="link" data-testid={TID.shortcutsOpen} onClick={() => setHelp(true)}>
          Shortcuts
        </button>
      </header>
      <UpdateNotice updates={updates} />
      {route === "chat" && <BoxHomeNoticeBar projectDir={settings.projectDir ?? null} onOpenSettings={() => void openSettings()} />}
      {help && <ShortcutsHelp onClose={closeHelp} />}
      {about && (
        <AboutDialog
          onClose={() => {
            setAbout(false);
            focusComposer();
          }}
        />
      )}
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
        <ChatScreen
          onOpenSettings={() => void openSettings()}
          modelChoice={{
            provider: settings.activeProvider ?? "anthropic",
            model: providerSettings(settings, settings.activeProvider ?? "anthropic").model ?? null,
            onChange: chooseModel,
          }}
        />
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
