// The native menu's items, carried out in the window: those with a shortcut do what their keys do
// (listenShortcuts), the others open what they name.
import { useRef } from "react";
import { api, subscribeMenu, type MenuAction } from "../shared/ipc";
import { runMenuShortcut } from "../shared/keyboard";
import { useListener } from "../shared/useListener";

export function useMenu(handlers: { onAbout: () => void; onCheckForUpdates: () => void }): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useListener(
    () =>
      subscribeMenu((action: MenuAction) => {
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
      }),
    "the menu",
  );
}
