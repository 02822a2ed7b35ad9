// "Compact now", beside the context gauge: the model is sent a summary of the older messages from
// now on (the divider shows where, once `chat:compacted` says so). The user still sees them all.
import { useState } from "react";
import { messageOf } from "../../../shared/format";
import { api } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";

export function CompactControl({
  conversationId,
  hasHistory,
  running,
}: {
  conversationId: string;
  /** Something was said in the conversation: there may be something to summarize. */
  hasHistory: boolean;
  /** It is answering: the engine refuses to compact until it is done. */
  running: boolean;
}) {
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const compact = async () => {
    setWorking(true);
    setError(null);
    try {
      await api.chatCompact(conversationId);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setWorking(false);
    }
  };

  const title = running
    ? "Wait for the answer to finish"
    : "Send the model a summary of the older messages from now on, to free room in its context (you keep the whole history)";
  return (
    <span className="compact-control">
      <button
        type="button"
        className="link small"
        data-testid={TID.compactNow}
        disabled={!hasHistory || running || working}
        aria-busy={working}
        title={title}
        onClick={() => void compact()}
      >
        {working ? "Compacting…" : "Compact now"}
      </button>
      {error && (
        <span className="compact-error" role="alert" data-testid={TID.compactError}>
          Not compacted. {error}
        </span>
      )}
    </span>
  );
}
