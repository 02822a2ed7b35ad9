// What a conversation search found, in place of the list: each conversation's title (a linked
// remote project's with its `host:/path`) and, when a message matched, a line of it as plain text,
// the words searched for marked; and the remote projects that could not be searched. A listbox:
// the search field's ↓, ↑ and Enter choose and open a result (ConversationSearch.tsx).
import { useEffect } from "react";
import { VisibleText } from "../../../shared/ui/VisibleText";
import { TID } from "../../../shared/testids";
import { RunningDot } from "./RunningDot";
import { plainSnippet } from "./plainSnippet";
import { markWords, searchWords } from "./searchWords";
import type { SearchChoice } from "./useSearchChoice";
import { foundEntry, type FoundHit, type SearchAnswer } from "./useConversationSearch";
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

/** One conversation found, as an option of the listbox. */
function Hit({
  hit,
  words,
  optionId,
  chosen,
  active,
  onOpen,
}: {
  hit: FoundHit;
  words: string[];
  optionId: string;
  chosen: boolean;
  active: boolean;
  onOpen: (entry: ConversationEntry) => void;
}) {
  const { conversation: c, snippet, place } = hit;
  return (
    <li
      id={optionId}
      role="option"
      aria-selected={chosen}
      className={`conversation-item search-hit${active ? " active" : ""}${chosen ? " chosen" : ""}`}
      aria-current={active ? "page" : undefined}
      data-testid={TID.conversationHit}
      data-conversation-id={c.id}
      // The caret stays in the search field, where ↓, Enter and Esc go on working.
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => onOpen(foundEntry(hit))}
    >
      <span className="search-hit-head">
        <span className="conversation-title">
          <Marked text={c.title} words={words} />
        </span>
        {place && (
          <span className="conversation-place" title={`On another machine: ${place}`}>
            <VisibleText text={place} />
          </span>
        )}
        <RunningDot id={c.id} />
      </span>
      {snippet && (
        <span className="search-snippet" data-testid={TID.conversationSnippet}>
          <Marked text={plainSnippet(snippet)} words={words} />
        </span>
      )}
    </li>
  );
}

/** The linked remote projects that could not be searched (a link down, a machine slow to answer). */
function Unsearched({ list }: { list: SearchAnswer["unsearched"] }) {
  return list.map(({ target, error }) => (
    <p key={target} className="search-note muted small" role="status" data-testid={TID.conversationSearchUnsearched}>
      Not searched: {target} ({error})
    </p>
  ));
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
  const words = searchWords(answer.query);
  return (
    <>
      {answer.hits.length ? (
        <ul role="listbox" id={choice.listboxId} aria-label="Search results">
          {answer.hits.map((hit, i) => (
            <Hit
              key={hit.conversation.id}
              hit={hit}
              words={words}
              optionId={optionId(i)}
              chosen={i === chosen}
              active={hit.conversation.id === activeId}
              onOpen={onOpen}
            />
          ))}
        </ul>
      ) : (
        <p className="search-note muted small" role="status" data-testid={TID.conversationSearchEmpty}>
          No conversations match “{answer.query.trim()}”
        </p>
      )}
      <Unsearched list={answer.unsearched} />
    </>
  );
}
