// The saved conversations, as the engine lists them (`chat_list`), newest first. Asked for at
// start, again when a turn ends (the conversation is listed, or moves up) and when the user comes
// back to the window (a terminal's `warden exec` saves into the same store).
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../../../shared/ipc";
import { useChat } from "../../../shared/store/store";
import type { ChatState } from "../../../shared/store/types";
import type { ConversationEntry } from "./useConversations";
import { useWindowReturn } from "./useWindowReturn";

/** How many conversations the list asks for. */
const PAGE = 200;
/** When to ask again for a conversation whose turn ended but that is not listed yet. */
const RETRY_MS = 800;
/** Where the window kept its own list before the engine kept it: dropped at start. */
const OLD_LIST_KEY = "warden.conversations";

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

/** The ids of the conversations with a turn running, as one string (a stable store slice). */
function runningIds(s: ChatState): string {
  return Object.keys(s.conversations)
    .filter((id) => s.conversations[id]?.running)
    .sort()
    .join("\n");
}

/** The engine's list (`null` until it first answered), and `refresh` to ask it again. */
export function useSavedConversations() {
  const [saved, setSaved] = useState<ConversationEntry[] | null>(null);
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

  return { saved, refresh };
}
