// "Conversation deleted — Undo", at the foot of the list for a few seconds after a delete. Undo
// asks the engine to bring the conversation back (it keeps a deleted one for a minute); when it
// cannot, the notice says so and stays until dismissed. Held while the pointer or focus is on it.
import { useEffect, useRef, useState } from "react";
import { messageOf } from "../../../shared/format";
import { CommandError } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";

/** How long the notice offers Undo. */
const UNDO_SHOWN_MS = 8000;

type Phase = { kind: "offered" } | { kind: "undoing" } | { kind: "failed"; message: string };

function failure(title: string, e: unknown): string {
  // The engine no longer has it (deleted more than a minute ago): its own message names an id.
  if (e instanceof CommandError && e.code === "INVALID_INPUT") return `“${title}” could not be brought back: it is deleted for good.`;
  return `“${title}” could not be brought back: ${messageOf(e)}`;
}

export function DeleteUndoNotice({
  title,
  onUndo,
  onDone,
}: {
  /** The deleted conversation's title. */
  title: string;
  /** Brings it back; rejects when the engine cannot. */
  onUndo: () => Promise<void>;
  /** Takes the notice away (timed out, dismissed, or undone). */
  onDone: () => void;
}) {
  const [phase, setPhase] = useState<Phase>({ kind: "offered" });
  const [held, setHeld] = useState(false);
  // The latest callback, so a parent's new function each render does not restart the clock.
  const done = useRef(onDone);
  done.current = onDone;

  useEffect(() => {
    if (phase.kind !== "offered" || held) return;
    const timer = setTimeout(() => done.current(), UNDO_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [phase.kind, held]);

  const undo = async () => {
    setPhase({ kind: "undoing" });
    try {
      await onUndo();
      done.current();
    } catch (e) {
      setPhase({ kind: "failed", message: failure(title, e) });
    }
  };

  return (
    <div
      className="delete-undo"
      role="status"
      data-testid={TID.conversationDeleted}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      {phase.kind === "failed" ? (
        <>
          <span className="delete-undo-text">{phase.message}</span>{" "}
          <button type="button" className="link" onClick={() => done.current()}>
            Dismiss
          </button>
        </>
      ) : (
        <>
          <span className="delete-undo-text" title={title}>
            Conversation deleted —
          </span>{" "}
          <button
            type="button"
            className="link"
            data-testid={TID.conversationUndo}
            disabled={phase.kind === "undoing"}
            onClick={() => void undo()}
          >
            Undo
          </button>
        </>
      )}
    </div>
  );
}
