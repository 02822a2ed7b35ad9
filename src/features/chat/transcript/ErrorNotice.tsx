// An error in the conversation, with what the user can do about it. While the engine retries by
// itself (`retrying`), the box is news, not an alarm: a status that says what went wrong and, once,
// when the next try goes (the engine's message carries no countdown, so it is said here only). A
// failure that ended the turn is an alert with one action: Open settings for a key or plan problem;
// for the rest, Retry under the answer (RetryLast), not repeated here. What the engine underneath
// said (`detail`) is there on request, behind "Details".
import { useState } from "react";
import type { ChatError } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { useCountdown } from "../../approvals/useCountdown";
import "./errorNotice.css";

function RetryCountdown({ since, seconds }: { since: number; seconds: number }) {
  const left = useCountdown(since, seconds);
  return <span className="error-retry">{left > 0 ? `Retrying in ${left} s…` : "Retrying…"}</span>;
}

/** Codes whose fix is in the settings: the key, or the account behind it. */
const SETTINGS_CODES: ReadonlySet<ChatError["code"]> = new Set(["AUTH_FAILED", "MISSING_CREDENTIALS", "QUOTA_EXCEEDED"]);

export function ErrorNotice({ error, onOpenSettings }: { error: ChatError; onOpenSettings?: () => void }) {
  // Errors render as they arrive, so the first render is when the retry clock started.
  const [receivedAt] = useState(Date.now);
  const retrying = !!error.retrying;
  const needsSettings = !retrying && SETTINGS_CODES.has(error.code);
  return (
    <div
      className={retrying ? "chat-error chat-error-retrying" : "chat-error"}
      role={retrying ? "status" : "alert"}
      data-testid={TID.chatError}
      data-code={error.code}
      data-retrying={retrying}
    >
      <span className="chat-error-message">{error.message}</span>
      {/* A space between the sentences for whoever reads the text, not only the layout's gap. */}
      {retrying && " "}
      {retrying && <RetryCountdown since={receivedAt} seconds={error.retryAfterSecs ?? 1} />}
      {needsSettings && onOpenSettings && (
        <button type="button" className="link" data-testid={TID.chatErrorAction} onClick={onOpenSettings}>
          Open settings
        </button>
      )}
      {error.detail && (
        <details className="chat-error-detail">
          <summary>Details</summary>
          <pre>{error.detail}</pre>
        </details>
      )}
    </div>
  );
}
