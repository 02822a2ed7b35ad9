// The completion list of slash commands under the caret: open while the message field's text starts
// with "/" and the caret is in its first word, filtered by what is typed. ↓ and ↑ move the choice
// (the caret stays in the field: aria-activedescendant), Tab or Enter completes the name (Enter on a
// built-in typed whole runs it), Esc closes the list and keeps the text. Per keystroke it does no
// more than filter a small array.
import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { completed, matchSlash, slashPrefix, type BuiltInName, type SlashItem } from "./slashCommands";

/** What the message field needs from the completion. */
export interface SlashFieldProps {
  /** Called first on each key; true when the completion took it. */
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Where the caret is now in `value` (after typing, a click, an arrow key). */
  onCaret: (caret: number, value: string) => void;
  expanded: boolean;
  listId?: string;
  activeId?: string;
}

export function useSlashCompletion({
  text,
  setText,
  input,
  items,
  onRun,
}: {
  text: string;
  setText: (text: string) => void;
  input: { current: HTMLTextAreaElement | null };
  items: readonly SlashItem[];
  /** Enter on a built-in typed whole. */
  onRun: (name: BuiltInName) => void;
}) {
  const listId = useId();
  // The caret in the text it was seen in; text put in from elsewhere (a rewind) has it at its end.
  const [seen, setSeen] = useState({ text, at: text.length });
  const caret = seen.text === text ? seen.at : text.length;
  // The choice belongs to what was typed: typing more starts again at the first entry.
  const [choice, setChoice] = useState<{ prefix: string | null; index: number }>({ prefix: null, index: 0 });
  // Esc closes the list for the text as it is; typing opens it again.
  const [closedFor, setClosedFor] = useState<string | null>(null);
  // Where the caret goes once a completion is in the field.
  const placeCaret = useRef<number | null>(null);

  const prefix = slashPrefix(text, caret);
  const matches = useMemo(() => (prefix === null ? [] : matchSlash(items, prefix)), [items, prefix]);
  const open = matches.length > 0 && closedFor !== text;
  const index = choice.prefix === prefix ? Math.min(choice.index, matches.length - 1) : 0;
  const optionId = useCallback((i: number) => `${listId}-option-${i}`, [listId]);

  useLayoutEffect(() => {
    const at = placeCaret.current;
    if (at === null) return;
    placeCaret.current = null;
    input.current?.setSelectionRange(at, at);
  });

  const complete = (item: SlashItem) => {
    const next = completed(text, item.name);
    placeCaret.current = next.caret;
    setSeen({ text: next.text, at: next.caret });
    setText(next.text);
    input.current?.focus();
  };

  const move = (step: 1 | -1) => setChoice({ prefix, index: (index + step + matches.length) % matches.length });

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    const item = matches[index];
    if (!open || !item || e.nativeEvent.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      move(e.key === "ArrowDown" ? 1 : -1);
    } else if ((e.key === "Tab" || e.key === "Enter") && !e.shiftKey) {
      if (e.key === "Enter" && item.kind === "builtin" && item.name === prefix) onRun(item.name);
      else complete(item);
    } else if (e.key === "Escape") {
      // Not a Stop of the answer running, nor anything else Esc does further up.
      e.stopPropagation();
      setClosedFor(text);
    } else {
      return false;
    }
    e.preventDefault();
    return true;
  };

  const field: SlashFieldProps = {
    onKeyDown,
    onCaret: (at, value) => setSeen((s) => (s.text === value && s.at === at ? s : { text: value, at })),
    expanded: open,
    listId: open ? listId : undefined,
    activeId: open ? optionId(index) : undefined,
  };
  return { field, open, matches, index, listId, optionId, complete };
}

export type SlashCompletion = ReturnType<typeof useSlashCompletion>;
