// The search field at the top of the conversation list, and the combobox of its results: the caret
// stays in the field while ↓ and ↑ choose a result (aria-activedescendant), Enter opens the one
// chosen (the first when none is), and Esc empties the field (the list comes back).
import type { KeyboardEvent } from "react";
import { TID } from "../../../shared/testids";

export interface ResultKeys {
  /** The results' listbox while results show. */
  listboxId?: string;
  /** The chosen result's element id. */
  activeOptionId?: string;
  /** ↓ (1) or ↑ (-1): the next or previous result. */
  move: (step: 1 | -1) => void;
  /** Enter: opens the chosen result; false when there is none to open. */
  openChosen: () => boolean;
}

export function ConversationSearch({
  query,
  onChange,
  results,
}: {
  query: string;
  onChange: (query: string) => void;
  results: ResultKeys;
}) {
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // Handled here, so a running answer is not stopped by the same Esc.
    if (e.key === "Escape" && query) {
      e.preventDefault();
      onChange("");
    } else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && results.listboxId) {
      e.preventDefault();
      results.move(e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter" && !e.nativeEvent.isComposing && results.openChosen()) {
      e.preventDefault();
    }
  };
  return (
    <input
      type="search"
      role="combobox"
      aria-autocomplete="list"
      aria-expanded={results.listboxId !== undefined}
      aria-controls={results.listboxId}
      aria-activedescendant={results.activeOptionId}
      className="conversation-search"
      data-testid={TID.conversationSearch}
      aria-label="Search conversations"
      placeholder="Search conversations"
      value={query}
      spellCheck={false}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onKeyDown}
    />
  );
}
