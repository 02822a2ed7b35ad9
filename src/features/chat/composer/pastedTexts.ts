// Long text pasted into the composer: past a threshold it becomes an attached chip instead of
// field text. WebKitGTK's textarea stalls a frame for a long while on one 200 KB paste (the e2e
// window_images logs the longest frame gap both ways), and nobody edits a log dump in a message
// field. The text goes with the message in a fenced block.
import { useEffect, useRef, useState, type ClipboardEvent } from "react";
import { fenceFor } from "./resources";

/** Pastes longer than this many characters become a chip. */
export const PASTE_CHIP_CHARS = 20_000;

/** A text pasted as a chip: what is sent, and its size for the label. */
export interface PastedText {
  id: string;
  text: string;
}

/** Chips not sent yet, per conversation: kept while the window is open, never in storage. */
const kept = new Map<string, readonly PastedText[]>();

let serial = 0;

/** Forget every chip (tests start empty). */
export function resetPastedForTests() {
  kept.clear();
}

/** "4,012 lines · 196 KB" */
export function sizeOf(text: string): string {
  const lines = text.split("\n").length;
  const kb = Math.max(1, Math.round(new Blob([text]).size / 1024));
  return `${lines.toLocaleString("en")} ${lines === 1 ? "line" : "lines"} · ${kb.toLocaleString("en")} KB`;
}

/** The message as sent: each pasted text in a fenced block, then what was typed. */
export function withPasted(text: string, pasted: readonly PastedText[]): string {
  const blocks = pasted.map((p) => {
    const fence = fenceFor(p.text);
    return `Pasted text (${sizeOf(p.text)}):\n${fence}\n${p.text}\n${fence}`;
  });
  return [...blocks, text].filter((part) => part.length > 0).join("\n\n");
}

/**
 * The conversation's pasted chips, and the paste handler that makes them: a paste of plain text
 * over the threshold is taken (the field never sees it); anything else is left to `next`.
 */
export function usePastedTexts(conversationId: string) {
  const [pasted, setPastedState] = useState<readonly PastedText[]>(() => kept.get(conversationId) ?? []);
  const current = useRef(pasted);
  useEffect(() => {
    const mine = kept.get(conversationId) ?? [];
    current.current = mine;
    setPastedState(mine);
  }, [conversationId]);

  const setPasted = (next: readonly PastedText[]) => {
    current.current = next;
    if (next.length) kept.set(conversationId, next);
    else kept.delete(conversationId);
    setPastedState(next);
  };

  /** Takes a long plain-text paste as a chip; true when it did. */
  const takePaste = (e: ClipboardEvent<HTMLTextAreaElement>): boolean => {
    const text = e.clipboardData?.getData("text/plain") ?? "";
    if (text.length <= PASTE_CHIP_CHARS) return false;
    e.preventDefault();
    serial += 1;
    setPasted([...current.current, { id: `pasted-${serial}`, text }]);
    return true;
  };

  return {
    pasted,
    takePaste,
    remove: (id: string) => setPasted(current.current.filter((p) => p.id !== id)),
    clear: () => setPasted([]),
  };
}
