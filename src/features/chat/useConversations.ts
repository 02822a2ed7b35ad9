// The conversation list is the engine's (`chat_list`): every conversation saved under Warden's
// home, newest first, whatever this window remembers. The window adds only the conversations it
// started that have no saved turn yet ("drafts"), until the engine lists them, and older ones
// opened from a search. The messages themselves come back through `chat_history`. The list is
// asked for again when a turn ends and when the user comes back to the window (a terminal's
// `warden exec` saves into the same store).
import { useCallback, useEffect, useRef, useState } from "react";
import { messageOf, newId } from "../../shared/format";
import { focusComposer } from "../../shared/keyboard";
import { api } from "../../shared/ipc";
import { useChat, useChatStore } from "../../shared/store/store";
import type { ChatState } from "../../shared/store/types";
import { useWindowReturn } from "./useWindowReturn";

export interface ConversationEntry {
  id: string;
  title: string;
  /** Listed by the engine (a turn was saved); `false` for a conversation only this window has. */
  saved: boolean;
}

/** The conversation deleted last, while its Undo is offered; `serial` tells two deletes apart. */
export interface DeletedConversation {
  id: string;
  title: string;
  serial: number;
}

/** How many conversations the list asks for. */
const PAGE = 200;
/** When to ask again for a conversation whose turn ended but that is not listed yet. */
const RETRY_MS = 800;
/** Where the window kept its own list before the engine kept it: dropped at start. */
const OLD_LIST_KEY = "warden.conversations";
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

function dropOldList() {
  try {
    localStorage.removeItem(OLD_LIST_KEY);
  } catch {
    // Storage unavailable: there is nothing to drop.
  }
}

/** The saved conversations, or `null` when the engine could not be asked. */
async function fetchSaved(): Promise<ConversationEntry[] | null> {
  try {
    const page = await api.chatList(0, PAGE);
    const list: unknown = page?.conversations;
    if (!Array.isArray(list)) return [];
    return list
      .filter((c): c is { id: string; title: string } => !!c && typeof c.id === "string" && typeof c.title === "string")
      .map(({ id, title }) => ({ id, title, saved: true }));
  } catch (e) {
    console.warn("chat_list failed", e);
    return null;
  }
}

function without(ids: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(ids);
  next.delete(id);
  return next;
}

/** The ids of the conversations with a turn running, as one string (a stable store slice). */
function runningIds(s: ChatState): string {
  return Object.keys(s.conversations)
    .filter((id) => s.conversations[id]?.running)
    .sort()
    .join("\n");
}

export function useConversations() {
  // `null` until the engine first answered.
  const [saved, setSaved] = useState<ConversationEntry[] | null>(null);
  const [drafts, setDrafts] = useState<ConversationEntry[]>([]);
  // Opened from a search, older than the page the list asks for: listed at the end.
  const [found, setFound] = useState<ConversationEntry[]>([]);
  // Deleted in this window: off the list at once, before the engine answers (back if it refuses
  // or the delete is undone).
  const [removed, setRemoved] = useState<ReadonlySet<string>>(() => new Set());
  const [deleting, setDeleting] = useState(0);
  const [chosenId, setActiveId] = useState<string | null>(null);
  const live = useRef(true);
  const retry = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Counts the list's requests: an answer overtaken by a later request is not shown.
  const asked = useRef(0);

  /** Asks the engine again; resolves with what it listed (`null`: it could not be asked). */
  const refresh = useCallback(async () => {
    const n = ++asked.current;
    const next = await fetchSaved();
    // A failed refresh keeps what was listed; a failed first load lists nothing.
    if (live.current && n === asked.current) setSaved((prev) => next ?? prev ?? []);
    return next;
  }, []);

  useEffect(() => {
    live.current = true;
    dropOldList();
    void refresh();
    return () => {
      live.current = false;
      clearTimeout(retry.current);
    };
  }, [refresh]);

  useWindowReturn(() => void refresh());

  // A turn that ended is saved: its conversation is listed (or moves up). The engine writes the
  // file just after the turn's last event, so a conversation not listed yet is asked for again.
  const running = useChat(runningIds);
  const wasRunning = useRef(running);
  useEffect(() => {
    const before = wasRunning.current ? wasRunning.current.split("\n") : [];
    const now = new Set(running ? running.split("\n") : []);
    wasRunning.current = running;
    const ended = before.filter((id) => !now.has(id));
    if (!ended.length) return;
    void refresh().then((listed) => {
      if (!live.current || ended.every((id) => listed?.some((c) => c.id === id))) return;
      clearTimeout(retry.current);
      retry.current = setTimeout(() => void refresh(), RETRY_MS);
    });
  }, [running, refresh]);

  const savedIds = new Set((saved ?? []).map((c) => c.id));
  const unsaved = drafts.filter((d) => !savedIds.has(d.id));
  const older = found.filter((f) => !savedIds.has(f.id));
  const list = [...unsaved, ...(saved ?? []), ...older].filter((c) => !removed.has(c.id));

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
  const current = useRef({ drafts, savedIds, list });
  current.current = { drafts, savedIds, list };
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

  // What went wrong with the last rename or delete, for the list to show.
  const [error, setError] = useState<string | null>(null);
  const act = useCallback(
    async (run: () => Promise<unknown>) => {
      setError(null);
      try {
        await run();
      } catch (e) {
        setError(messageOf(e));
      }
      await refresh();
    },
    [refresh],
  );

  const rename = useCallback((id: string, title: string) => act(() => api.chatRename(id, title)), [act]);

  // The last delete, while its Undo is offered (an earlier one simply stays deleted).
  const [deleted, setDeleted] = useState<DeletedConversation | null>(null);
  const deletes = useRef(0);

  const remove = useCallback(
    async (id: string) => {
      const entry = current.current.list.find((c) => c.id === id);
      setError(null);
      setRemoved((r) => new Set(r).add(id));
      setDeleting((n) => n + 1);
      try {
        await api.chatDelete(id);
        setDrafts((d) => d.filter((e) => e.id !== id));
        // Only a saved conversation can come back; one never written in had nothing to lose.
        if (entry?.saved) setDeleted({ id, title: entry.title, serial: ++deletes.current });
      } catch (e) {
        setRemoved((r) => without(r, id));
        setError(messageOf(e));
      } finally {
        setDeleting((n) => n - 1);
      }
      await refresh();
    },
    [refresh],
  );

  /** Undo of a delete: the engine brings the conversation back (rejects when it cannot). */
  const restore = useCallback(
    async (id: string) => {
      await api.chatRestore(id);
      setRemoved((r) => without(r, id));
      await refresh();
    },
    [refresh],
  );

  /** Takes the Undo of delete `serial` away (not a later delete's). */
  const dismissDeleted = useCallback((serial: number) => {
    setDeleted((d) => (d?.serial === serial ? null : d));
  }, []);

  return {
    list,
    loaded: saved !== null,
    activeId,
    setActiveId,
    open,
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
