// The list's entries for the remote projects opened in this window (`remote_open`): their sessions
// run on another machine, so this machine's engine does not list them. Kept for the window's
// session, newest first (at the top of the list), each titled with its `host:/path`.
import { useCallback, useState } from "react";
import type { ConversationEntry } from "./useConversations";

/** `shownNow`: the conversation shown as the list is now, kept shown when a new entry is not. */
export function useRemoteEntries(setActiveId: (id: string | null) => void, shownNow: () => string | null) {
  const [remotes, setRemotes] = useState<ConversationEntry[]>([]);
  /** Lists a remote project's conversation, and shows it when `show` (else the one shown stays). */
  const openRemote = useCallback(
    (id: string, target: string, show: boolean) => {
      setRemotes((r) => (r.some((e) => e.id === id) ? r : [{ id, title: target, saved: false, remote: true }, ...r]));
      setActiveId(show ? id : shownNow());
    },
    [setActiveId, shownNow],
  );
  return { remotes, openRemote };
}
