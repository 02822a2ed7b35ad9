// Under the last answer: "Retry" after a failure or a Stop, "Regenerate" after an answer. Either
// drops the last message the user wrote and what followed it (as "Rewind conversation to here"
// does; files stay as they are) and sends the same text again.
import { useState } from "react";
import { useChatStore } from "../../../shared/store/store";
import type { Conversation } from "../../../shared/store/types";
import { TID } from "../../../shared/testids";
import { reloadConversation, rewindConversation } from "./RewindControl";
import { messageOf } from "../../../shared/format";
import { focusComposer } from "../../../shared/keyboard";
import type { ToolImage } from "../../../shared/ipc";

/** The last user message's text, images and index among the user's messages, and whether its turn failed. */
export function lastTurn(
  conversation: Conversation,
): { text: string; images: readonly ToolImage[]; userIndex: number; answered: boolean; failed: boolean } | null {
  let userIndex = -1;
  let lastUser: { id: string; text: string; images: readonly ToolImage[] } | null = null;
  for (const id of conversation.messageIds) {
    const m = conversation.messages[id];
    if (m?.kind === "user") {
      userIndex += 1;
      lastUser = { id, text: m.text, images: m.images ?? [] };
    }
  }
  if (!lastUser) return null;
  const after = conversation.messageIds.slice(conversation.messageIds.indexOf(lastUser.id) + 1);
  const answers = after.map((id) => conversation.messages[id]).filter((m) => m?.kind === "assistant");
  const last = answers[answers.length - 1];
  const failed =
    conversation.errors.length > 0 ||
    answers.length === 0 ||
    (last?.kind === "assistant" && (last.errors.length > 0 || last.stopReason === "cancelled" || last.stopReason === "error"));
  return { text: lastUser.text, images: lastUser.images, userIndex, answered: answers.length > 0, failed };
}

export function RetryLast({
  conversationId,
  conversation,
  send,
}: {
  conversationId: string;
  conversation: Conversation;
  send: (text: string, images: readonly ToolImage[]) => void;
}) {
  const store = useChatStore();
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const turn = lastTurn(conversation);
  if (!turn || conversation.running) return null;

  const again = async () => {
    setWorking(true);
    setError(null);
    try {
      const resend = () => send(turn.text, turn.images);
      try {
        await rewindConversation(store, conversationId, turn.userIndex, resend);
      } catch (e) {
        // A send refused before the engine saved it (no key, say) has nothing to take back there:
        // show what the engine has and send it again. An answered turn must be taken back first.
        if (turn.answered) throw e;
        await reloadConversation(store, conversationId, resend);
      }
      // This button disabled itself and goes with the turn it retried: the caret goes back to
      // the message field, not to the page.
      focusComposer();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setWorking(false);
    }
  };

  return (
    <div className="retry-last">
      <button
        type="button"
        className="link small"
        data-testid={TID.retryLast}
        disabled={working}
        title="Send your last message again (what it changed in the files stays)"
        onClick={() => void again()}
      >
        {turn.failed ? "Retry" : "Regenerate"}
      </button>
      {error && (
        <p className="small error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
