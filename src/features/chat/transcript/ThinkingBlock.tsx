import { useState } from "react";
import { TID } from "../../../shared/testids";

/** Reasoning, collapsed by default; shows its last line while it streams. */
export function ThinkingBlock({ text, streaming }: { text: string; streaming: boolean }) {
  const [open, setOpen] = useState(false);
  const lastLine = text.trimEnd().split("\n").pop() ?? "";
  return (
    <div className="thinking" data-testid={TID.thinkingBlock}>
      <button type="button" className="thinking-toggle" data-testid={TID.thinkingToggle} aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden>{open ? "▾" : "▸"}</span> {streaming ? "Thinking…" : "Thought"}
        {!open && streaming && <span className="thinking-peek"> {lastLine.slice(-120)}</span>}
      </button>
      {open && <div className="thinking-text">{text}</div>}
    </div>
  );
}
