// Which messages of a conversation are mounted. A long conversation keeps only its newest
// messages in the DOM (WINDOW of them) while the view follows the bottom; scrolling to the top
// (or "Show earlier") mounts STEP more at a time, and the window stays put while the user reads
// above the bottom, so new messages do not shift what they are looking at.
import { useCallback, useState } from "react";

export const WINDOW = 60;
export const STEP = 60;

export interface MessageWindow {
  /** Index of the first mounted message. */
  start: number;
  /** Mount STEP older messages. */
  showEarlier(): void;
  /** The user left the bottom (freeze the window) or came back to it (follow again). */
  setFollowing(following: boolean): void;
}

export function useMessageWindow(total: number): MessageWindow {
  // null: follow the newest messages; a number: the user is reading, keep this start.
  const [frozen, setFrozen] = useState<number | null>(null);
  const following = Math.max(0, total - WINDOW);
  const start = frozen === null ? following : Math.min(frozen, following);

  const showEarlier = useCallback(() => {
    setFrozen((f) => Math.max(0, (f ?? Math.max(0, total - WINDOW)) - STEP));
  }, [total]);

  const setFollowing = useCallback(
    (follow: boolean) => {
      setFrozen((f) => {
        if (follow) return null;
        return f ?? Math.max(0, total - WINDOW);
      });
    },
    [total],
  );

  return { start, showEarlier, setFollowing };
}
