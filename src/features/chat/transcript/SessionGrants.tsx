// What "Allow for this session" remembered in this conversation, each with a way to take it back:
// a revoked tool or command asks again from its next call. Read from the engine when shown, once
// each turn ends and when an approval is answered (the grant is given while the turn runs).
import { useEffect, useState } from "react";
import type { SessionGrant } from "../../../shared/ipc";
import { api } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { messageOf } from "../../../shared/format";
import { useTurnEnds } from "../../../shared/store/useTurnEnds";

export function grantLabel(grant: SessionGrant): string {
  return grant.kind === "tool" ? grant.name : `${grant.prefix} …`;
}

/** `running`: whether a turn runs; `pending`: how many of the conversation's approvals wait. */
export function SessionGrants({ conversationId, running, pending }: { conversationId: string; running: boolean; pending: number }) {
  const [grants, setGrants] = useState<SessionGrant[]>([]);
  const turnEnds = useTurnEnds(running);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    // Started inside the promise so that a window without the engine (a test, a broken bridge)
    // shows no grants instead of failing the whole conversation view.
    Promise.resolve()
      .then(() => api.chatGrants(conversationId))
      .then((list) => {
        if (live) setGrants(Array.isArray(list) ? list : []);
      })
      .catch(() => {
        // Nothing to show: the conversation is not open, or the engine cannot be reached.
      });
    return () => {
      live = false;
    };
  }, [conversationId, turnEnds, pending]);

  if (grants.length === 0) return null;
  const revoke = (grant: SessionGrant) => {
    setError(null);
    api
      .chatGrantRevoke(conversationId, grant)
      .then(() => setGrants((all) => all.filter((g) => g !== grant)))
      .catch((e: unknown) => setError(messageOf(e)));
  };
  return (
    <div className="session-grants" data-testid={TID.sessionGrants}>
      <span className="muted">Allowed without asking in this conversation:</span>
      {grants.map((grant) => (
        <span key={`${grant.kind}:${grantLabel(grant)}`} className="grant" data-testid={TID.sessionGrant} data-kind={grant.kind}>
          <code>{grantLabel(grant)}</code>
          <button
            type="button"
            className="link"
            data-testid={TID.revokeGrant}
            aria-label={`Ask again before ${grant.kind === "tool" ? grant.name : `commands starting ${grant.prefix}`}`}
            onClick={() => revoke(grant)}
          >
            Ask again
          </button>
        </span>
      ))}
      {error && (
        <span role="alert" className="error-text">
          {error}
        </span>
      )}
    </div>
  );
}
