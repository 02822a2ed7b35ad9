// Asks the user about one tool call. Focus starts on the dialog itself, not on Approve, so an Enter
// meant for something else never approves; Enter approves only on the focused Approve button
// (native button behaviour), Esc rejects.
import { useEffect, useId, useRef } from "react";
import type { ApproveArgs } from "../../shared/ipc";
import type { PendingApproval } from "../../shared/store/types";
import { TID } from "../../shared/testids";
import { toolSummary } from "../tools/summary";
import { AlwaysAllowEditor } from "./AlwaysAllowEditor";
import { ApprovalActions } from "./ApprovalActions";
import { ApprovalBody } from "./ApprovalBody";
import { ApprovalHead } from "./ApprovalHead";
import { ApprovalNotes } from "./ApprovalNotes";
import { useApprovalAnswer } from "./useApprovalAnswer";
import { useApprovalTimer } from "./useApprovalTimer";
import "./approvals.css";

export interface ApprovalDialogProps {
  pending: PendingApproval;
  position: number;
  total: number;
  onAnswer: (answer: ApproveArgs) => void;
  /** The countdown reached zero (the confirmation's id): the engine counts the call as rejected. */
  onExpire: (confirmId: string) => void;
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
  const timer = useApprovalTimer(pending, onExpire);
  const { expired } = timer;
  const answer = useApprovalAnswer(request, onAnswer, expired);
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    dialogRef.current?.focus();
  }, [request.confirmId]);

  const summary = toolSummary(request.toolName, request.input);
  // A host the session's sandbox wants to reach while a command runs (not a call to run).
  const network = request.kind === "network" ? (request.network ?? null) : null;
  const suggested = network ? null : (request.suggestedRule ?? null);
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
      onKeyDown={answer.onKeyDown}
    >
      <ApprovalHead
        request={request}
        network={network}
        titleId={titleId}
        position={position}
        total={total}
        timer={timer}
      />
      <ApprovalNotes request={request} summary={summary} />
      <ApprovalBody request={request} network={network} summary={summary} />

      {onShowTool && request.toolId && (
        <button type="button" className="link" onClick={() => onShowTool(request.toolId)}>
          {fromOtherConversation ? "Asked in another conversation — open it" : "Show in conversation"}
        </button>
      )}

      <ApprovalActions
        network={network !== null}
        suggested={suggested !== null}
        expired={expired}
        reason={answer.reason}
        onReason={answer.setReason}
        reject={answer.reject}
        approve={answer.approve}
        editingRule={answer.editingRule}
        onEditRule={answer.toggleEditor}
        alwaysButtonRef={answer.alwaysButtonRef}
      />
      {suggested && answer.editingRule && (
        <AlwaysAllowEditor
          suggested={suggested}
          disabled={expired}
          onCancel={answer.closeEditor}
          onSave={answer.approveAlways}
        />
      )}
    </div>
  );
}
