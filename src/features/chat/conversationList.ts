// The list of conversations this window knows, kept in localStorage (ids and titles only; the
// messages themselves come back through `chat_history`).
import { useCallback, useState } from "react";
import { newId } from "../../shared/format";

export interface ConversationEntry {
  id: string;
  title: string;
  createdAt: number;
}

const KEY = "warden.conversations";

function load(): ConversationEntry[] {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed)
      ? parsed.filter((e): e is ConversationEntry => !!e && typeof e.id === "string" && typeof e.title === "string")
      : [];
  } catch {
    return [];
  }
}

function save(list: ConversationEntry[]) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // Storage full or unavailable: the list lives for this session only.
  }
}

export function titleFrom(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 48 ? `${line.slice(0, 47)}…` : line || "New conversation";
}

export function useConversationList() {
  const [list, setList] = useState<ConversationEntry[]>(() => {
    const l = load();
    return l.length ? l : [{ id: newId("conv"), title: "New conversation", createdAt: Date.now() }];
  });
  const [activeId, setActiveId] = useState(() => list[0]!.id);

  const update = useCallback((f: (l: ConversationEntry[]) => ConversationEntry[]) => {
    setList((prev) => {
      const next = f(prev);
      save(next);
      return next;
    });
  }, []);

  const create = useCallback(() => {
    const entry = { id: newId("conv"), title: "New conversation", createdAt: Date.now() };
    update((l) => [entry, ...l]);
    setActiveId(entry.id);
  }, [update]);

  const rename = useCallback(
    (id: string, title: string) => update((l) => l.map((e) => (e.id === id ? { ...e, title } : e))),
    [update],
  );

  return { list, activeId, setActiveId, create, rename };
}
