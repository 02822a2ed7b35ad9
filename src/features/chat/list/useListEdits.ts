import { useCallback, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { messageOf } from "../../../shared/format";
import { api } from "../../../shared/ipc";
import type { ConversationEntry, DeletedConversation } from "./useConversations";

function without(ids: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(ids);
  next.delete(id);
  return next;
}

/**
 * What the user changes in the conversation list: a rename, a delete (off the list at once, back if
 * the engine refuses) and its Undo, and what went wrong with the last rename or delete. `refresh`
 * asks the engine for the list after each; `current` is the list as last rendered; a deleted
 * conversation's draft entry is dropped through `setDrafts`; `renamed` is told of each rename done
 * (a remote conversation's entry is kept here, not listed by the engine).
 */
export function useListEdits(
  refresh: () => Promise<unknown>,
  current: RefObject<{ list: ConversationEntry[] }>,
  setDrafts: Dispatch<SetStateAction<ConversationEntry[]>>,
  renamed: (id: string, title: string) => void = () => {},
) {
  // Deleted in this window: off the list at once, before the engine answers (back if it refuses
  // or the delete is undone).
  const [removed, setRemoved] = useState<ReadonlySet<string>>(() => new Set());
  const [deleting, setDeleting] = useState(0);

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

  const rename = useCallback(
    (id: string, title: string) =>
      act(async () => {
        await api.chatRename(id, title);
        renamed(id, title);
      }),
    [act, renamed],
  );

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
    [refresh, current, setDrafts],
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

  return { removed, deleting, error, rename, deleted, remove, restore, dismissDeleted };
}
