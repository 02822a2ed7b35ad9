// What the window says when the conversation store fails: a saved conversation that cannot be
// read whole is open read-only (why, and a way to read it again), and a conversation whose
// messages cannot be saved says so until they are (docs/ARCHITECTURE.md §10).
import { TID } from "../../../shared/testids";

/** Above a conversation that cannot be read whole: it is shown as far as it can be read, and nothing is sent into it. */
export function ReadOnlyBanner({ reason, onRetry }: { reason: string; onRetry?: () => void }) {
  return (
    <div className="store-notice read-only-banner" role="status" data-testid={TID.readOnlyBanner}>
      <strong>Read-only: this conversation cannot be read whole.</strong>{" "}
      <span>
        Warden shows what it could read and will not write to it, so nothing saved in it is lost. Why: {reason}
      </span>
      {onRetry && (
        <button type="button" className="link" data-testid={TID.readOnlyRetry} onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Above the composer while messages of this conversation cannot be saved (`chat:saving`). */
export function NotSavedNotice({ reason }: { reason: string }) {
  return (
    <div className="store-notice not-saved" role="alert" data-testid={TID.notSaved}>
      <strong>This conversation is not being saved.</strong>{" "}
      <span>
        Its messages from now on are kept only while Warden stays open, and saved when the store takes them again. Why:{" "}
        {reason}
      </span>
    </div>
  );
}

/** In place of a saved message that could not be read. */
export function UnreadableMessageView({ id, reason }: { id: string; reason: string }) {
  return (
    <article className="message message-unreadable muted small" role="note" data-testid={TID.messageUnreadable} data-message-id={id}>
      A message here could not be read: {reason}
    </article>
  );
}

/** In place of a part a newer Warden saved, of a kind this version cannot show. */
export function NewerPart({ blockType }: { blockType: string }) {
  return (
    <p className="message-newer muted small" role="note" data-testid={TID.messageNewer} data-block-type={blockType}>
      From a newer Warden: a part of this message (“{blockType}”) that this version cannot show. It is kept as it was.
    </p>
  );
}
