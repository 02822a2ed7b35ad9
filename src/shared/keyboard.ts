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

export type Shortcut = "newConversation" | "settings" | "focusComposer" | "help" | "toggleSidebar" | "searchConversations" | "togglePlanMode";

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
    case "p":
      // Ctrl+Shift+P: plain Ctrl+P is left to the system (print).
      return e.shiftKey ? "togglePlanMode" : null;
    default:
      return null;
  }
}

/** The DOM event a menu item with a shortcut sends, so it does what its keys do. */
const MENU_SHORTCUT = "warden:shortcut";
/** A menu item within this long after the same keys were seen in the page is those keys, once. */
const SAME_PRESS_MS = 500;
const lastPressed = new Map<Shortcut, number>();

/**
 * Calls `handle` for each shortcut, pressed in the page or chosen from the menu; the keys' default
 * is prevented when `handle` says it took them. Returns a function that stops listening.
 */
export function listenShortcuts(handle: (shortcut: Shortcut) => boolean): () => void {
  const onKey = (e: KeyboardEvent) => {
    const shortcut = shortcutOf(e);
    if (shortcut === null) return;
    lastPressed.set(shortcut, performance.now());
    if (handle(shortcut)) e.preventDefault();
  };
  const onMenu = (e: Event) => {
    const shortcut = (e as CustomEvent<Shortcut>).detail;
    handle(shortcut);
  };
  window.addEventListener("keydown", onKey);
  window.addEventListener(MENU_SHORTCUT, onMenu);
  return () => {
    window.removeEventListener("keydown", onKey);
    window.removeEventListener(MENU_SHORTCUT, onMenu);
  };
}

/**
 * A menu item with a shortcut was chosen: it does what its keys do. Where the system let the page
 * see the keys as well (the menu's accelerator did not take them), the page already acted: once.
 */
export function runMenuShortcut(shortcut: Shortcut): void {
  const pressed = lastPressed.get(shortcut);
  if (pressed !== undefined && performance.now() - pressed < SAME_PRESS_MS) return;
  window.dispatchEvent(new CustomEvent<Shortcut>(MENU_SHORTCUT, { detail: shortcut }));
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
  { keys: "Ctrl+Shift+P", what: "Plan mode on or off: the model only reads, then proposes a plan" },
  { keys: "/", what: "At the start of a message: commands and skills (↑ ↓ choose, Tab completes, Esc closes; /help lists them)" },
];
