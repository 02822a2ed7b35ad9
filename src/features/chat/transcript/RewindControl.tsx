// On a user message: "Rewind conversation to here" — drop this message and everything after it,
// and put its text back in the composer. The project's files stay as they are: restoring them is
// the separate "Restore project to before this message".
import { useState } from "react";
import { api } from "../../../shared/ipc";
import { useChatStore, type ChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { messageOf } from "../../../shared/format";
import { focusComposer } from "../../../shared/keyboard";
import { loadCompaction } from "./loadCompaction";
import { readSaved } from "./readSaved";

/**
 * Show the conversation as the engine has saved it now (each result with what its call changed),
 * then hand `then` the dropped text in the same step (the view and the composer change together).
 */
export async function reloadConversation(store: ChatStore, conversationId: string, then: () => void): Promise<void> {
  const { history, stamps } = await readSaved(conversationId);
  store.dispatch({ type: "conversation-rewound", conversationId, history, stamps });
  then();
  // A rewind drops the compactions of what it dropped: the divider goes where one still holds.
  void loadCompaction(store, conversationId);
}

/** Drop the `userIndex`-th message the user wrote and all after it; `offer` gets its text. */
export async function rewindConversation(
  store: ChatStore,
  conversationId: string,
  userIndex: number,
  offer: (text: string) => void,
): Promise<void> {
  const text = await api.chatRewind(conversationId, userIndex);
  await reloadConversation(store, conversationId, () => offer(text));
}

export function RewindControl({
  conversationId,
  userIndex,
  disabled,
  onRewound,
}: {
  conversationId: string;
  /** Which message the user wrote this is, from the first (0). */
  userIndex: number;
  disabled: boolean;
  /** The dropped message's text, to offer again. */
  onRewound: (text: string) => void;
}) {
  const store = useChatStore();
  const [phase, setPhase] = useState<"idle" | "asking" | "working">("idle");
  const [error, setError] = useState<string | null>(null);

  const rewind = async () => {
    setPhase("working");
    setError(null);
    try {
      await rewindConversation(store, conversationId, userIndex, onRewound);
      // The message and this control are gone; its text is back in the message field, and so is the caret.
      focusComposer();
    } catch (e) {
      setError(messageOf(e));
      setPhase("idle");
    }
  };

  if (phase === "asking" || phase === "working") {
    return (
      <div className="rewind-control" role="group" aria-label="Rewind the conversation">
        <span className="small">Drop this message and everything after it? Files are not changed.</span>{" "}
        <button
          type="button"
          className="link small"
          data-testid={TID.rewindConfirm}
          disabled={phase === "working"}
          onClick={() => void rewind()}
        >
          Rewind
        </button>{" "}
        <button type="button" className="link small" disabled={phase === "working"} onClick={() => setPhase("idle")}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div className="rewind-control">
      <button
        type="button"
        className="link small"
        data-testid={TID.rewindConversation}
        disabled={disabled}
        title={disabled ? "Wait for the answer to finish" : "Drop this message and the rest of the conversation after it (files stay)"}
        onClick={() => setPhase("asking")}
      >
        Rewind conversation to here
      </button>
      {error && (
        <p className="small error" role="alert" data-testid={TID.rewindError}>
          {error}
        </p>
      )}
    </div>
  );
}
