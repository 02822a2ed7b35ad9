import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { TID } from "../../shared/testids";

export function Composer({
  running,
  disabled = false,
  onSend,
  onStop,
  draft = null,
}: {
  running: boolean;
  disabled?: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Text to put in the field (a message taken back by a rewind); each new object replaces it. */
  draft?: { text: string } | null;
}) {
  const [text, setText] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);
  // A conversation shown (at launch, new, switched to, Settings closed) is ready to type into.
  useEffect(() => {
    input.current?.focus();
  }, []);
  useEffect(() => {
    if (draft) setText(draft.text);
  }, [draft]);
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
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
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
