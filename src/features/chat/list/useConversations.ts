// The conversation list is the engine's (`chat_list`): every conversation saved under Warden's
// home, newest first, whatever this window remembers. The window adds only the conversations it
// started that have no saved turn yet ("drafts"), until the engine lists them, older ones opened
// from a search, and the remote projects opened in this window (listed first, for the window's
// session: their sessions run on another machine). The messages themselves come back through
// `chat_history`. The list is asked for again when a turn ends and when the user comes back to
// the window (a terminal's `warden exec` saves into the same store).
import { useCallback, useEffect, useRef, useState } from "react";
import { newId } from "../../../shared/format";
import { focusComposer } from "../../../shared/keyboard";
import { useChatStore } from "../../../shared/store/store";
import { useListEdits } from "./useListEdits";
import { useRemoteEntries } from "./useRemoteEntries";
import { useSavedConversations } from "./useSavedConversations";

export interface ConversationEntry {
  id: string;
  title: string;
  /** Listed by the engine (a turn was saved); `false` for a conversation only this window has. */
  saved: boolean;
  /** Runs on another machine (`remote_open`): this machine's engine neither lists nor deletes it; it is renamed there. */
  remote?: boolean;
  /** A remote conversation's `host:/path`. */
  place?: string;
  /** Found by a search of a linked remote project: the conversation of its link here. */
  via?: string;
}

/** The conversation deleted last, while its Undo is offered; `serial` tells two deletes apart. */
export interface DeletedConversation {
  id: string;
  title: string;
  serial: number;
}

const UNTITLED = "New conversation";
/** As long as the engine's titles made from a first message. */
const TITLE_CHARS = 60;

export function titleFrom(text: string): string {
  const line =
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l) ?? "";
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1).trimEnd()}…` : line || UNTITLED;
}

export function useConversations() {
  // The engine's list: `null` until it first answered.
  const { saved, refresh } = useSavedConversations();
  const [drafts, setDrafts] = useState<ConversationEntry[]>([]);
  // Opened from a search, older than the page the list asks for: listed at the end.
  const [found, setFound] = useState<ConversationEntry[]>([]);
  const [chosenId, setActiveId] = useState<string | null>(null);
  // The list as last rendered (set below), for what is decided when asked, not when last rendered.
  const current = useRef({ drafts, savedIds: new Set<string>(), list: [] as ConversationEntry[], activeId: chosenId });
  const { remotes, openRemote, retitle } = useRemoteEntries(setActiveId, useCallback(() => current.current.activeId, []));
  const { removed, deleting, error, rename, deleted, remove, restore, dismissDeleted } = useListEdits(
    refresh,
    current,
    setDrafts,
    retitle,
  );

  const savedIds = new Set((saved ?? []).map((c) => c.id));
  const unsaved = drafts.filter((d) => !savedIds.has(d.id));
  const older = found.filter((f) => !savedIds.has(f.id));
  const list = [...remotes, ...unsaved, ...(saved ?? []), ...older].filter((c) => !removed.has(c.id));

  // The first start with nothing saved, or the active conversation was deleted: a new one (not
  // while a delete is unanswered: a refused one comes back).
  const activeId = chosenId && list.some((c) => c.id === chosenId) ? chosenId : (list[0]?.id ?? null);
  useEffect(() => {
    if (saved !== null && list.length === 0 && deleting === 0) {
      setDrafts([{ id: newId("conv"), title: UNTITLED, saved: false }]);
    }
  }, [saved, list.length, deleting]);

  /** Opens a conversation a search found, listing it when it is older than the list goes. */
  const open = useCallback((entry: ConversationEntry) => {
    setFound((f) => (f.some((e) => e.id === entry.id) ? f : [...f, entry]));
    setActiveId(entry.id);
  }, []);

  // A new conversation when one not yet written in is at hand is that one: "New" never piles up
  // empty entries.
  // Decided when asked (the store and the list as they are then), not when last rendered.
  const store = useChatStore();
  current.current = { drafts, savedIds, list, activeId };
  const create = useCallback(() => {
    const { drafts: unsaved, savedIds: listed } = current.current;
    const empty = unsaved.find((d) => !listed.has(d.id) && !store.getState().conversations[d.id]?.messageIds.length);
    if (empty) {
      setActiveId(empty.id);
      // Nothing is remounted when it is the one shown: the caret goes to its message field anyway.
      focusComposer();
      return;
    }
    const entry = { id: newId("conv"), title: UNTITLED, saved: false };
    setDrafts((d) => [entry, ...d]);
    setActiveId(entry.id);
    void refresh();
  }, [refresh, store]);

  /** The first message of a conversation not saved yet names it until the engine lists it. */
  const titleDraft = useCallback((id: string, text: string) => {
    setDrafts((d) => d.map((e) => (e.id === id ? { ...e, title: titleFrom(text) } : e)));
  }, []);

  return {
    list,
    loaded: saved !== null,
    activeId,
    setActiveId,
    open,
    openRemote,
    create,
    titleDraft,
    rename,
    remove,
    restore,
    deleted,
    dismissDeleted,
    error,
    refresh,
  };
}
