// Where keyboard focus goes when the control that had it goes away (an answered approval, Stop, a
// closed Settings), and the window's shortcuts, spelled once for the handlers and the help list.
import { TID } from "./testids";

/** Put the caret in the message field, after the current render. */
export function focusComposer(): void {
  requestAnimationFrame(() => {
    // The next approval card of the queue takes focus itself: leave it there.
    if (aDialogIsOpen()) return;
    document.querySelector<HTMLTextAreaElement>(`[data-testid="${TID.composerInput}"]`)?.focus();
  });
}

/** Put the caret in the conversation search, after the current render (the list may be opening). */
export function focusConversationSearch(): void {
  requestAnimationFrame(() => {
    document.querySelector<HTMLInputElement>(`[data-testid="${TID.conversationSearch}"]`)?.focus();
  });
}

/** Whether a dialog that owns Esc is open (the approval card). */
export function aDialogIsOpen(): boolean {
  return document.querySelector('[role="alertdialog"], [role="dialog"]') !== null;
}

export type Shortcut = "newConversation" | "settings" | "focusComposer" | "help" | "toggleSidebar" | "searchConversations";

/** Ctrl on Linux and Windows, Cmd on macOS. */
export function shortcutOf(e: KeyboardEvent): Shortcut | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  switch (e.key.toLowerCase()) {
    case "n":
      return "newConversation";
    case ",":
      return "settings";
    case "l":
      return "focusComposer";
    case "/":
      return "help";
    case "b":
      return "toggleSidebar";
    case "k":
      return "searchConversations";
    default:
      return null;
  }
}

export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: "Enter", what: "Send the message (Shift+Enter: new line)" },
  { keys: "Esc", what: "Stop the answer; close Settings; reject the approval shown" },
  { keys: "Ctrl+N", what: "New conversation" },
  { keys: "Ctrl+,", what: "Open or close Settings" },
  { keys: "Ctrl+L", what: "Go to the message field" },
  { keys: "Ctrl+B", what: "Show or hide the conversation list" },
  { keys: "Ctrl+K", what: "Search the conversations" },
  { keys: "Ctrl+/", what: "Show these shortcuts" },
];
