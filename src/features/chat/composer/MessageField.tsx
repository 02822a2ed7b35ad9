import { useEffect, useLayoutEffect, type ClipboardEvent, type KeyboardEvent, type RefObject } from "react";
import { TID } from "../../../shared/testids";
import type { SlashFieldProps } from "./useSlashCompletion";

/** The field grows with its text up to this share of the window, then scrolls. */
const MAX_HEIGHT_SHARE = 0.4;

/**
 * The composer's message field: it grows with its text, is focused when shown, and Enter sends. With
 * `slash`, it drives the slash commands' completion list (a combobox: the list's choice is its
 * active descendant) and hands that the keys first.
 */
export function MessageField({
  input,
  text,
  running,
  disabled,
  placeholder,
  onText,
  onEnter,
  onPaste,
  slash,
}: {
  input: RefObject<HTMLTextAreaElement | null>;
  text: string;
  running: boolean;
  disabled: boolean;
  placeholder?: string;
  onText: (text: string) => void;
  onEnter: () => void;
  onPaste: (e: ClipboardEvent<HTMLTextAreaElement>) => void;
  slash?: SlashFieldProps;
}) {
  // The field grows with what is typed (wrapped lines too, not only newlines), up to a limit.
  useLayoutEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = "auto";
    const max = Math.round(window.innerHeight * MAX_HEIGHT_SHARE);
    if (el.scrollHeight > 0) el.style.height = `${Math.min(el.scrollHeight, max)}px`;
    el.style.overflowY = el.scrollHeight > max ? "auto" : "hidden";
  }, [input, text]);
  // A conversation shown (at launch, new, switched to, Settings closed) is ready to type into.
  useEffect(() => {
    input.current?.focus();
  }, [input]);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash?.onKeyDown(e)) return;
    // Enter sends, Shift+Enter is a newline; Enter while composing an IME word is neither.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      onEnter();
    }
  };

  return (
    <textarea
      ref={input}
      className="composer-input"
      data-testid={TID.composerInput}
      aria-label="Message"
      role={slash ? "combobox" : undefined}
      aria-autocomplete={slash ? "list" : undefined}
      aria-expanded={slash ? slash.expanded : undefined}
      aria-controls={slash?.listId}
      aria-activedescendant={slash?.activeId}
      placeholder={placeholder ?? (running ? "Working… (Stop to interrupt)" : "Ask Warden to do something in your project")}
      rows={2}
      value={text}
      disabled={disabled}
      onChange={(e) => {
        onText(e.target.value);
        slash?.onCaret(e.target.selectionStart, e.target.value);
      }}
      onSelect={(e) => {
        // Only a caret in the text the field holds: a value set from outside without an input event
        // (a WebDriver clear) must not re-render the field back to the text it had.
        if (e.currentTarget.value === text) slash?.onCaret(e.currentTarget.selectionStart, text);
      }}
      onKeyDown={onKeyDown}
      onPaste={onPaste}
    />
  );
}
