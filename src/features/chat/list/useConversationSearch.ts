// The conversation list's search: what is typed, asked of the engine (`chat_search`) once typing
// pauses, and what it found. Answers can come back out of order: only the newest question's
// answer is ever shown.
import { useCallback, useEffect, useRef, useState } from "react";
import { messageOf } from "../../../shared/format";
import { api, type ConversationHit } from "../../../shared/ipc";

/** How long typing pauses before the engine is asked. */
const SEARCH_DELAY_MS = 150;
/** How many conversations one search lists. */
const LIMIT = 100;

/** What the engine found for `query`. */
export interface SearchAnswer {
  query: string;
  hits: ConversationHit[];
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
      api
        .chatSearch(query, LIMIT)
        .then((hits) => {
          if (n !== asked.current) return;
          setAnswer({ query, hits: Array.isArray(hits) ? hits : [] });
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
