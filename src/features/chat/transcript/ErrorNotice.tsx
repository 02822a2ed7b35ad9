// An error in the conversation, with what the user can do about it.
import { useState } from "react";
import type { ChatError } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { useCountdown } from "../../approvals/useCountdown";

function RetryCountdown({ since, seconds }: { since: number; seconds: number }) {
  const left = useCountdown(since, seconds);
  return <span className="error-retry">{left > 0 ? `retrying in ${left} s` : "retrying…"}</span>;
}

export function ErrorNotice({ error, onOpenSettings }: { error: ChatError; onOpenSettings?: () => void }) {
  // Errors render as they arrive, so the first render is when the retry clock started.
  const [receivedAt] = useState(Date.now);
  const needsSettings = error.code === "AUTH_FAILED" || error.code === "MISSING_CREDENTIALS" || error.code === "QUOTA_EXCEEDED";
  const retrying = (error.code === "RATE_LIMITED" || error.code === "OVERLOADED") && error.retryAfterSecs != null;
  return (
    <div className="chat-error" role="alert" data-testid={TID.chatError} data-code={error.code}>
      <span className="chat-error-message">{error.message}</span>
      {retrying && <RetryCountdown since={receivedAt} seconds={error.retryAfterSecs!} />}
      {needsSettings && onOpenSettings && (
        <button type="button" className="link" data-testid={TID.chatErrorAction} onClick={onOpenSettings}>
          Open settings
        </button>
      )}
    </div>
  );
}
