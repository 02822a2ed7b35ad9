// The conversation list's search: what is typed, asked once typing pauses of this machine's engine
// (`chat_search`) and of each linked remote project's there (`remote_search`), and what they found.
// Answers can come back out of order: only the newest question's answer is ever shown.
import { useCallback, useEffect, useRef, useState } from "react";
import { messageOf } from "../../../shared/format";
import { api, type ConversationHit, type RemoteSearchHits } from "../../../shared/ipc";
import type { ConversationEntry } from "./useConversations";

/** How long typing pauses before the engine is asked. */
const SEARCH_DELAY_MS = 150;
/** How many conversations one search lists. */
const LIMIT = 100;

/** A conversation found: this machine's, or (`via`, `place`) one saved in a linked remote project there. */
export type FoundHit = ConversationHit & { via?: string; place?: string };

/** What was found for `query`: this machine's conversations first, then each remote project's. */
export interface SearchAnswer {
  query: string;
  hits: FoundHit[];
  /** The linked remote projects that could not be searched, and why. */
  unsearched: { target: string; error: string }[];
}

/** The list's entry of a conversation found. */
export function foundEntry({ conversation: c, via, place }: FoundHit): ConversationEntry {
  return via ? { id: c.id, title: c.title, saved: false, remote: true, place, via } : { id: c.id, title: c.title, saved: true };
}

/** This machine's hits and the remote projects' in one answer. */
function answerOf(query: string, here: unknown, there: unknown): SearchAnswer {
  const remote: RemoteSearchHits[] = Array.isArray(there) ? there : [];
  const local: FoundHit[] = Array.isArray(here) ? (here as ConversationHit[]) : [];
  return {
    query,
    // Each conversation once: `remote_search` asks each project there once.
    hits: [...local, ...remote.flatMap((r) => r.hits.map((hit) => ({ ...hit, via: r.via, place: r.target })))],
    unsearched: remote.flatMap((r) => (r.error ? [{ target: r.target, error: r.error }] : [])),
  };
}

export interface ConversationSearch {
  /** What is typed in the field. */
  query: string;
  setQuery: (query: string) => void;
  /** Whether something is typed: the list shows the results instead. */
  active: boolean;
  /** The newest answer (kept while the next one is asked), `null` before the first. */
  answer: SearchAnswer | null;
  /** Why the newest search failed. */
  error: string | null;
}

export function useConversationSearch(): ConversationSearch {
  const [query, setQueryState] = useState("");
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Counts the questions: an answer to any but the last one asked is dropped.
  const asked = useRef(0);
  const active = query.trim() !== "";

  useEffect(() => {
    const n = ++asked.current;
    if (!active) return;
    const timer = setTimeout(() => {
      // A remote project that cannot be asked is said so beside the results, never in their place.
      const there = api.remoteSearch(query, LIMIT).catch(() => []);
      Promise.all([api.chatSearch(query, LIMIT), there])
        .then(([here, found]) => {
          if (n !== asked.current) return;
          setAnswer(answerOf(query, here, found));
          setError(null);
        })
        .catch((e: unknown) => {
          if (n === asked.current) setError(messageOf(e));
        });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, active]);

  const setQuery = useCallback((next: string) => {
    setQueryState(next);
    if (next.trim() === "") {
      // Cleared: the next search starts from nothing, not from the last one's results.
      setAnswer(null);
      setError(null);
    }
  }, []);

  return { query, setQuery, active, answer, error };
}
