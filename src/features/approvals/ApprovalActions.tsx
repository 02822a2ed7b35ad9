import type { ReactNode, RefObject } from "react";
import type { Remember } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/**
 * The card's answers: a reason and Reject (Enter in the reason field rejects, never approves), then
 * the ways to allow (for a host the sandbox wants to reach, or for a call).
 */
export function ApprovalActions({
  network,
  suggested,
  expired,
  reason,
  onReason,
  reject,
  approve,
  editingRule,
  onEditRule,
  alwaysButtonRef,
}: {
  /** The card asks about a host the sandbox wants to reach. */
  network: boolean;
  /** A rule is suggested for "Always allow…". */
  suggested: boolean;
  expired: boolean;
  reason: string;
  onReason: (reason: string) => void;
  reject: () => void;
  approve: (remember: Remember) => void;
  editingRule: boolean;
  onEditRule: () => void;
  alwaysButtonRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <div className="approval-actions">
      <input
        type="text"
        className="approval-reason"
        placeholder="Reason (optional, told to the model)"
        aria-label="Reason for rejecting"
        data-testid={TID.rejectReason}
        value={reason}
        disabled={expired}
        onChange={(e) => onReason(e.target.value)}
        onKeyDown={(e) => {
          // Enter in the reason field rejects with that reason; it never approves.
          if (e.key === "Enter") {
            e.preventDefault();
            if (!expired) reject();
          }
        }}
      />
      <button type="button" data-testid={TID.reject} disabled={expired} onClick={reject}>
        {network ? "Deny" : "Reject"}
      </button>
      {network ? (
        <HostAnswers expired={expired} approve={approve} />
      ) : (
        <CallAnswers
          suggested={suggested}
          expired={expired}
          approve={approve}
          editingRule={editingRule}
          onEditRule={onEditRule}
          alwaysButtonRef={alwaysButtonRef}
        />
      )}
    </div>
  );
}

/** The card's primary answer: yes, this once. */
function ApproveOnce({ expired, approve, children }: { expired: boolean; approve: (remember: Remember) => void; children: ReactNode }) {
  return (
    <button type="button" className="primary" data-testid={TID.approve} disabled={expired} onClick={() => approve("once")}>
      {children}
    </button>
  );
}

/** A host the sandbox wants to reach: "Always for this project", or "Allow once". */
function HostAnswers({ expired, approve }: { expired: boolean; approve: (remember: Remember) => void }) {
  return (
    <>
      <button type="button" data-testid={TID.allowProject} disabled={expired} onClick={() => approve("project")}>
        Always for this project
      </button>
      <ApproveOnce expired={expired} approve={approve}>
        Allow once
      </ApproveOnce>
    </>
  );
}

/**
 * A call: "Always allow…" (when a rule is suggested: it opens the rule editor), "Allow for this
 * session", or Approve.
 */
function CallAnswers({
  suggested,
  expired,
  approve,
  editingRule,
  onEditRule,
  alwaysButtonRef,
}: {
  suggested: boolean;
  expired: boolean;
  approve: (remember: Remember) => void;
  editingRule: boolean;
  onEditRule: () => void;
  alwaysButtonRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <>
      {suggested && (
        <button
          ref={alwaysButtonRef}
          type="button"
          data-testid={TID.allowAlways}
          aria-expanded={editingRule}
          disabled={expired}
          onClick={onEditRule}
        >
          Always allow…
        </button>
      )}
      <button type="button" data-testid={TID.allowSession} disabled={expired} onClick={() => approve("session")}>
        Allow for this session
      </button>
      <ApproveOnce expired={expired} approve={approve}>
        Approve
      </ApproveOnce>
    </>
  );
}
