// Asks the user about one tool call. Focus starts on the dialog itself, not on Approve, so an Enter
// meant for something else never approves; Enter approves only on the focused Approve button
// (native button behaviour), Esc rejects.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { ApproveArgs } from "../../shared/ipc";
import type { PendingApproval } from "../../shared/store/types";
import { TID } from "../../shared/testids";
import { DiffView } from "../tools/renderers/DiffView";
import { JsonView } from "../tools/renderers/JsonView";
import { toolSummary } from "../tools/summary";
import { useCountdown } from "./useCountdown";
import "./approvals.css";

export interface ApprovalDialogProps {
  pending: PendingApproval;
  position: number;
  total: number;
  onAnswer: (answer: ApproveArgs) => void;
  /** The countdown reached zero: the engine counts the call as rejected. */
  onExpire: (toolId: string) => void;
  onShowTool?: (toolId: string) => void;
  /** The request comes from a conversation that is not on screen. */
  fromOtherConversation?: boolean;
}

export function ApprovalDialog({
  pending,
  position,
  total,
  onAnswer,
  onExpire,
  onShowTool,
  fromOtherConversation = false,
}: ApprovalDialogProps) {
  const { request } = pending;
  const remaining = useCountdown(pending.receivedAt, request.timeoutSecs);
  const [reason, setReason] = useState("");
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const expired = remaining === 0;

  useEffect(() => {
    dialogRef.current?.focus();
    setReason("");
  }, [request.toolId]);

  useEffect(() => {
    if (expired) onExpire(request.toolId);
  }, [expired, onExpire, request.toolId]);

  const reject = () => {
    const r = reason.trim();
    onAnswer({ toolId: request.toolId, approved: false, ...(r ? { reason: r } : {}) });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      if (!expired) reject();
    }
  };

  const preview = request.preview;
  return (
    <div
      ref={dialogRef}
      role="alertdialog"
      aria-modal="false"
      aria-labelledby={titleId}
      tabIndex={-1}
      className={`approval approval-${request.dangerLevel}`}
      data-testid={TID.approvalDialog}
      data-tool-id={request.toolId}
      onKeyDown={onKeyDown}
    >
      <header className="approval-head">
        <h2 id={titleId}>
          Allow <code>{request.toolName}</code>?
        </h2>
        <span className={`badge badge-${request.dangerLevel}`} data-testid={TID.approvalDanger}>
          {request.dangerLevel === "dangerous" ? "can change your machine" : "read-only"}
        </span>
        {total > 1 && (
          <span className="approval-position" data-testid={TID.approvalPosition}>
            {position} of {total}
          </span>
        )}
        <span className="approval-countdown" data-testid={TID.approvalCountdown} aria-live="polite">
          {expired ? "Timed out — not run" : `${remaining} s`}
        </span>
      </header>

      {preview?.kind === "command" ? (
        <div className="approval-body">
          <pre className="code-line" data-testid={TID.approvalCommand}>
            {preview.command}
          </pre>
          <p className="muted">
            in <code data-testid={TID.approvalCwd}>{preview.cwd}</code>
          </p>
        </div>
      ) : preview?.kind === "diff" ? (
        <div className="approval-body">
          <p>
            <code data-testid={TID.approvalPath}>{preview.path}</code>
          </p>
          <DiffView diff={preview.diff} path={preview.path} />
        </div>
      ) : (
        <div className="approval-body">
          <p data-testid={TID.approvalPath}>{toolSummary(request.toolName, request.input)}</p>
          <JsonView value={request.input} />
        </div>
      )}

      {onShowTool && (
        <button type="button" className="link" onClick={() => onShowTool(request.toolId)}>
          {fromOtherConversation ? "Asked in another conversation — open it" : "Show in conversation"}
        </button>
      )}

      <div className="approval-actions">
        <input
          type="text"
          className="approval-reason"
          placeholder="Reason (optional, told to the model)"
          aria-label="Reason for rejecting"
          data-testid={TID.rejectReason}
          value={reason}
          disabled={expired}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={(e) => {
            // Enter in the reason field rejects with that reason; it never approves.
            if (e.key === "Enter") {
              e.preventDefault();
              if (!expired) reject();
            }
          }}
        />
        <button type="button" data-testid={TID.reject} disabled={expired} onClick={reject}>
          Reject
        </button>
        <button
          type="button"
          data-testid={TID.allowSession}
          disabled={expired}
          onClick={() => onAnswer({ toolId: request.toolId, approved: true, remember: "session" })}
        >
          Allow for this session
        </button>
        <button
          type="button"
          className="primary"
          data-testid={TID.approve}
          disabled={expired}
          onClick={() => onAnswer({ toolId: request.toolId, approved: true, remember: "once" })}
        >
          Approve
        </button>
      </div>
    </div>
  );
}
