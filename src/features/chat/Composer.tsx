import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { TID } from "../../shared/testids";
import { draftOf, keepDraft } from "./drafts";

/** The field grows with its text up to this share of the window, then scrolls. */
const MAX_HEIGHT_SHARE = 0.4;

export function Composer({
  conversationId,
  running,
  disabled = false,
  onSend,
  onStop,
  draft = null,
}: {
  /** Whose draft the field holds: what was typed and not sent stays with its conversation. */
  conversationId: string;
  running: boolean;
  disabled?: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Text to put in the field (a message taken back by a rewind); each new object replaces it. */
  draft?: { text: string } | null;
}) {
  const [text, setTextState] = useState(() => draftOf(conversationId));
  const setText = (next: string) => {
    setTextState(next);
    keepDraft(conversationId, next);
  };
  const input = useRef<HTMLTextAreaElement>(null);
  // The field grows with what is typed (wrapped lines too, not only newlines), up to a limit.
  useLayoutEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = "auto";
    const max = Math.round(window.innerHeight * MAX_HEIGHT_SHARE);
    if (el.scrollHeight > 0) el.style.height = `${Math.min(el.scrollHeight, max)}px`;
    el.style.overflowY = el.scrollHeight > max ? "auto" : "hidden";
  }, [text]);
  // A conversation shown (at launch, new, switched to, Settings closed) is ready to type into.
  useEffect(() => {
    input.current?.focus();
  }, []);
  useEffect(() => {
    if (draft) {
      setTextState(draft.text);
      keepDraft(conversationId, draft.text);
    }
  }, [draft, conversationId]);
  const canSend = !running && !disabled && text.trim().length > 0;

  const send = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter is a newline; Enter while composing an IME word is neither.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  return (
    <div className="composer">
      <textarea
        ref={input}
        className="composer-input"
        data-testid={TID.composerInput}
        aria-label="Message"
        placeholder={running ? "Working… (Stop to interrupt)" : "Ask Warden to do something in your project"}
        rows={2}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {running ? (
        <button
          type="button"
          className="danger"
          data-testid={TID.stop}
          onClick={() => {
            onStop();
            // The Stop button goes away with the turn: the caret goes back to the message field.
            input.current?.focus();
          }}
        >
          Stop
        </button>
      ) : (
        <button type="button" className="primary" data-testid={TID.send} disabled={!canSend} onClick={send}>
          Send
        </button>
      )}
    </div>
  );
}
