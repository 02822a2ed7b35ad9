import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from "react";
import { api, type Settings } from "../shared/ipc";
import { listenShortcuts } from "../shared/keyboard";

export type Route = "setup" | "chat" | "settings";

/**
 * Which screen the window shows: first-run setup (when the provider is not `ready`), the chat, or
 * Settings. Ctrl/Cmd+, opens and closes Settings; Ctrl/Cmd+/ shows or hides the shortcuts (`setHelp`).
 */
export function useRoute(
  ready: boolean,
  setSettings: (settings: Settings) => void,
  setHelp: Dispatch<SetStateAction<boolean>>,
) {
  const [route, setRoute] = useState<Route>(() => (ready ? "chat" : "setup"));

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
    [setHelp],
  );

  return { route, setRoute, openSettings, toggleSettings };
}
