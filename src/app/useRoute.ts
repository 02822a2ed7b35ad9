import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from "react";
import type { SettingsFocus } from "../features/settings/SettingsPanel";
import { api, type Settings } from "../shared/ipc";
import { listenShortcuts } from "../shared/keyboard";

export type Route = "setup" | "chat" | "settings";

/**
 * Which screen the window shows: first-run setup (when the provider is not `ready`), the chat, or
 * Settings. Ctrl/Cmd+, opens and closes Settings; Ctrl/Cmd+/ shows or hides the shortcuts (`setHelp`);
 * Ctrl/Cmd+N in Settings closes them and starts a new conversation (`onNewConversation`; in the
 * chat, the chat's own shortcut does it).
 */
export function useRoute(
  ready: boolean,
  setSettings: (settings: Settings) => void,
  setHelp: Dispatch<SetStateAction<boolean>>,
  onNewConversation: () => void,
) {
  const [route, setRoute] = useState<Route>(() => (ready ? "chat" : "setup"));
  // What Settings put the focus on when they open (the key field, from a refused key's error).
  const [focus, setFocus] = useState<SettingsFocus | null>(null);

  // Settings open on the engine's settings as they are now, not as the window last saw them: the
  // engine saves some answers itself ("Always for this project" about a host, what it learned of a
  // model), and Settings saving an older copy would drop them.
  const openSettings = async (focusOn: SettingsFocus | null = null) => {
    try {
      setSettings(await api.settingsGet());
    } catch {
      // The copy in hand is the best left; Settings says so if saving it fails.
    }
    setFocus(focusOn);
    setRoute("settings");
  };
  const toggleSettings = () => (route === "settings" ? setRoute("chat") : void openSettings());
  // The shortcut listener is set up once; it calls what the latest render made.
  const latest = useRef({ route, toggleSettings, onNewConversation });
  latest.current = { route, toggleSettings, onNewConversation };

  useEffect(
    () =>
      listenShortcuts((shortcut) => {
        if (shortcut === "settings") {
          latest.current.toggleSettings();
          return true;
        }
        if (shortcut === "help") {
          setHelp((h) => !h);
          return true;
        }
        if (shortcut === "newConversation" && latest.current.route === "settings") {
          // Leaving Settings saves what is pending (the panel does it as it closes).
          setRoute("chat");
          latest.current.onNewConversation();
          return true;
        }
        return false;
      }),
    [setHelp],
  );

  return { route, setRoute, openSettings, toggleSettings, settingsFocus: focus };
}
