import { useEffect } from "react";
import { focusComposer, focusConversationSearch, listenShortcuts } from "../../shared/keyboard";

/**
 * The chat screen's shortcuts, and the menu's items alike: Ctrl/Cmd+N a new conversation, Ctrl/Cmd+L
 * the message field, Ctrl/Cmd+B the list, Ctrl/Cmd+K the conversation search (the list opens for it).
 */
export function useChatShortcuts(
  create: () => void,
  sidebarHidden: boolean,
  setSidebarHidden: (hidden: boolean) => void,
) {
  useEffect(() =>
    listenShortcuts((shortcut) => {
      if (shortcut === "newConversation") {
        create();
      } else if (shortcut === "focusComposer") {
        focusComposer();
      } else if (shortcut === "toggleSidebar") {
        setSidebarHidden(!sidebarHidden);
      } else if (shortcut === "searchConversations") {
        setSidebarHidden(false);
        focusConversationSearch();
      } else {
        return false;
      }
      return true;
    }),
  );
}
