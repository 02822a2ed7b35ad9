// The list's entries for the remote projects opened in this window (`remote_open`): their sessions
// run on another machine, so this machine's engine does not list them. Kept for the window's
// session, newest first (at the top of the list), each with its `host:/path` (`place`) and titled
// with it until the user names its conversation.
import { useCallback, useState } from "react";
import type { ConversationEntry } from "./useConversations";

/** `shownNow`: the conversation shown as the list is now, kept shown when a new entry is not. */
export function useRemoteEntries(setActiveId: (id: string | null) => void, shownNow: () => string | null) {
  const [remotes, setRemotes] = useState<ConversationEntry[]>([]);
  /**
   * Lists a remote project's conversation (titled `title` when the user named it, else `target`),
   * and shows it when `show` (else the one shown stays).
   */
  const openRemote = useCallback(
    (id: string, target: string, show: boolean, title?: string | null) => {
      const entry = { id, title: title || target, place: target, saved: false, remote: true };
      setRemotes((r) => (r.some((e) => e.id === id) ? r : [entry, ...r]));
      setActiveId(show ? id : shownNow());
    },
    [setActiveId, shownNow],
  );
  /** A remote conversation was renamed (there): an empty title shows its target again. */
  const retitle = useCallback((id: string, title: string) => {
    setRemotes((r) => r.map((e) => (e.id === id ? { ...e, title: title.trim() || (e.place ?? e.title) } : e)));
  }, []);
  return { remotes, openRemote, retitle };
}
