// Which search result the keyboard has chosen: ↓ and ↑ from the search field move the choice,
// Enter opens it. A new answer starts with none chosen (an index into the old hits would point at
// another conversation).
import { useCallback, useId, useState } from "react";
import type { ResultKeys } from "./ConversationSearch";
import { foundEntry, type ConversationSearch, type SearchAnswer } from "./useConversationSearch";
import type { ConversationEntry } from "./useConversations";

export interface SearchChoice extends ResultKeys {
  /** The chosen result's place among the hits; -1 when none is. */
  chosen: number;
  /** The element id of the result at `index`. */
  optionId: (index: number) => string;
}

export function useSearchChoice(
  { query, answer, active, error }: ConversationSearch,
  onOpen: (entry: ConversationEntry) => void,
): SearchChoice {
  const listboxId = useId();
  const [choice, setChoice] = useState<{ answer: SearchAnswer | null; index: number }>({ answer: null, index: -1 });
  // The results as shown: none while the field is empty or the search failed.
  const hits = active && !error ? (answer?.hits ?? []) : [];
  const chosen = answer && choice.answer === answer ? choice.index : -1;
  const optionId = useCallback((index: number) => `${listboxId}-hit-${index}`, [listboxId]);

  const move = (step: 1 | -1) => {
    if (!answer || hits.length === 0) return;
    const from = chosen === -1 ? (step === 1 ? -1 : hits.length) : chosen;
    setChoice({ answer, index: Math.min(hits.length - 1, Math.max(0, from + step)) });
  };

  const openChosen = () => {
    // With none chosen, Enter opens the first result, once the results are those of what is typed.
    const index = chosen !== -1 ? chosen : answer?.query === query ? 0 : -1;
    const hit = hits[index];
    if (!hit) return false;
    onOpen(foundEntry(hit));
    return true;
  };

  return {
    listboxId: hits.length > 0 ? listboxId : undefined,
    activeOptionId: chosen !== -1 ? optionId(chosen) : undefined,
    move,
    openChosen,
    chosen,
    optionId,
  };
}
