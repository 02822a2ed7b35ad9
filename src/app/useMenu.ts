// The native menu's items, carried out in the window: those with a shortcut do what their keys do
// (listenShortcuts), the others open what they name.
import { useEffect, useRef } from "react";
import { api, subscribeMenu, type MenuAction } from "../shared/ipc";
import { runMenuShortcut } from "../shared/keyboard";

export function useMenu(handlers: { onAbout: () => void; onCheckForUpdates: () => void }): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onAction = (action: MenuAction) => {
      switch (action) {
        case "newConversation":
        case "settings":
        case "searchConversations":
          runMenuShortcut(action);
          break;
        case "about":
          latest.current.onAbout();
          break;
        case "checkForUpdates":
          latest.current.onCheckForUpdates();
          break;
        case "openLogFolder":
          void api.logsOpen().catch((e: unknown) => console.error("could not open the log folder", e));
          break;
      }
    };
    let stop: (() => void) | null = null;
    let live = true;
    subscribeMenu(onAction).then(
      (s) => (live ? (stop = s) : s()),
      (e: unknown) => console.error("could not listen to the menu", e),
    );
    return () => {
      live = false;
      stop?.();
    };
  }, []);
}
