// What a conversation search found, in place of the list: each conversation's title and, when a
// message matched, a line of it as plain text, the words searched for marked. A listbox: the search
// field's ↓, ↑ and Enter choose and open a result (ConversationSearch.tsx).
import { useEffect } from "react";
import { VisibleText } from "../../../shared/ui/VisibleText";
import { TID } from "../../../shared/testids";
import { RunningDot } from "./RunningDot";
import { plainSnippet } from "./plainSnippet";
import { markWords, searchWords } from "./searchWords";
import type { SearchChoice } from "./useSearchChoice";
import type { SearchAnswer } from "./useConversationSearch";
import type { ConversationEntry } from "./useConversations";

/** `text` with the searched words in <mark> (text nodes only: nothing in it is markup). */
function Marked({ text, words }: { text: string; words: string[] }) {
  return (
    <>
      {markWords(text, words).map((part, i) =>
        part.matched ? (
          <mark key={i} className="search-mark">
            <VisibleText text={part.text} />
          </mark>
        ) : (
          <VisibleText key={i} text={part.text} />
        ),
      )}
    </>
  );
}

export function SearchResults({
  answer,
  error,
  activeId,
  onOpen,
  choice,
}: {
  /** The newest answer; `null` while the first one is awaited. */
  answer: SearchAnswer | null;
  /** Why the newest search failed. */
  error: string | null;
  activeId: string | null;
  onOpen: (entry: ConversationEntry) => void;
  /** The result the keyboard chose from the search field, and the listbox's ids. */
  choice: SearchChoice;
}) {
  const { chosen, optionId } = choice;
  useEffect(() => {
    if (chosen !== -1) document.getElementById(optionId(chosen))?.scrollIntoView?.({ block: "nearest" });
  }, [chosen, optionId]);
  if (error) {
    return (
      <p className="conversation-error" role="alert" data-testid={TID.conversationSearchError}>
        The search failed: {error}
      </p>
    );
  }
  if (!answer) {
    return (
      <p className="search-note muted small" role="status">
        Searching…
      </p>
    );
  }
  if (!answer.hits.length) {
    return (
      <p className="search-note muted small" role="status" data-testid={TID.conversationSearchEmpty}>
        No conversations match “{answer.query.trim()}”
      </p>
    );
  }
  const words = searchWords(answer.query);
  return (
    <ul role="listbox" id={choice.listboxId} aria-label="Search results">
      {answer.hits.map(({ conversation: c, snippet }, i) => (
        <li
          key={c.id}
          id={optionId(i)}
          role="option"
          aria-selected={i === chosen}
          className={`conversation-item search-hit${c.id === activeId ? " active" : ""}${i === chosen ? " chosen" : ""}`}
          aria-current={c.id === activeId ? "page" : undefined}
          data-testid={TID.conversationHit}
          data-conversation-id={c.id}
          // The caret stays in the search field, where ↓, Enter and Esc go on working.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onOpen({ id: c.id, title: c.title, saved: true })}
        >
          <span className="search-hit-head">
            <span className="conversation-title">
              <Marked text={c.title} words={words} />
            </span>
            <RunningDot id={c.id} />
          </span>
          {snippet && (
            <span className="search-snippet" data-testid={TID.conversationSnippet}>
              <Marked text={plainSnippet(snippet)} words={words} />
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
