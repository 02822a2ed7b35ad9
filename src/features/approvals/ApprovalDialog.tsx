// Asks the user about one tool call. Focus starts on the dialog itself, not on Approve, so an Enter
// meant for something else never approves; Enter approves only on the focused Approve button
// (native button behaviour), Esc rejects.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { ApproveArgs } from "../../shared/ipc";
import type { PendingApproval } from "../../shared/store/types";
import { TID } from "../../shared/testids";
import { DiffView } from "../tools/renderers/DiffView";
import { JsonView } from "../tools/renderers/JsonView";
import { mcpParts, toolSummary } from "../tools/summary";
import { useCountdown } from "./useCountdown";
import { AlwaysAllowEditor } from "./AlwaysAllowEditor";
import { askedBecauseText } from "./askedBecause";
import { VisibleText, WRAP } from "./VisibleText";
import { badgeLabel, hiddenIn, stringsIn } from "./hiddenChars";
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
  // 0: no time limit (the setting "never"): the card waits for the answer.
  const limited = request.timeoutSecs > 0;
  const remaining = useCountdown(pending.receivedAt, limited ? request.timeoutSecs : Number.MAX_SAFE_INTEGER / 1000);
  const [reason, setReason] = useState("");
  // "Always allow…" opens the rule editor in the card; nothing is saved until it is confirmed.
  const [editingRule, setEditingRule] = useState(false);
  const alwaysButtonRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const expired = limited && remaining === 0;
  // The last ten seconds are shown as urgent, so a request about to lapse is noticed.
  const urgent = limited && !expired && remaining <= 10;

  useEffect(() => {
    dialogRef.current?.focus();
    setReason("");
    setEditingRule(false);
  }, [request.confirmId]);

  useEffect(() => {
    if (expired) onExpire(request.confirmId);
  }, [expired, onExpire, request.confirmId]);

  // The answer names the question and the conversation that asked (the window sends it there).
  const answering = { conversationId: request.conversationId, confirmId: request.confirmId };
  const reject = () => {
    const r = reason.trim();
    onAnswer({ ...answering, approved: false, ...(r ? { reason: r } : {}) });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      if (!expired) reject();
    }
  };

  const preview = request.preview;
  const summary = toolSummary(request.toolName, request.input);
  // A host the session's sandbox wants to reach while a command runs (not a call to run).
  const network = request.kind === "network" ? (request.network ?? null) : null;
  const suggested = network ? null : (request.suggestedRule ?? null);
  const askedBecause = !request.reason && request.askedBecause ? askedBecauseText(request.askedBecause) : "";
  const closeEditor = () => {
    setEditingRule(false);
    requestAnimationFrame(() => alwaysButtonRef.current?.focus());
  };
  // Everything the dialog shows, scanned for characters that would make it show something else.
  const shown = [
    summary,
    ...stringsIn(request.input),
    ...(preview?.kind === "command" ? [preview.command, preview.cwd] : []),
    ...(preview?.kind === "diff" ? [preview.path, preview.diff] : []),
  ];
  const hidden = hiddenIn(shown.join(""));
  const command = preview?.kind === "command" ? preview.command : null;
  const commandLines = command === null ? 0 : command.split("\n").length;
  const longCommand = command !== null && (commandLines > 15 || command.length > 1000);
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
        {network ? (
          <h2 id={titleId}>
            Allow the sandbox to reach{" "}
            <code className="approval-text" data-testid={TID.approvalHost}>
              <VisibleText text={`${network.host}:${network.port}`} />
            </code>
            ?
          </h2>
        ) : (
          <h2 id={titleId}>
            Allow <code>{mcpParts(request.toolName)?.tool ?? request.toolName}</code>
            {mcpParts(request.toolName) && <> from the MCP server <strong>{mcpParts(request.toolName)?.server}</strong></>}?
          </h2>
        )}
        <span className={`badge badge-${request.dangerLevel}`} data-testid={TID.approvalDanger}>
          {network ? "network" : request.dangerLevel === "dangerous" ? "can change your machine" : "read-only"}
        </span>
        {total > 1 && (
          <span className="approval-position" data-testid={TID.approvalPosition}>
            {position} of {total}
          </span>
        )}
        <span
          className={urgent ? "approval-countdown approval-urgent" : "approval-countdown"}
          data-testid={TID.approvalCountdown}
          data-urgent={urgent || undefined}
          aria-live={urgent ? "assertive" : "polite"}
        >
          {!limited ? "no time limit" : expired ? "Timed out — not run" : urgent ? `${remaining} s left` : `${remaining} s`}
        </span>
      </header>

      {request.reason && (
        <p
          className={request.reason.startsWith("Dangerous:") ? "approval-warning" : "approval-why"}
          role={request.reason.startsWith("Dangerous:") ? "alert" : undefined}
          data-testid={TID.approvalWhy}
        >
          {request.reason}
        </p>
      )}
      {askedBecause && (
        <p className="approval-why" data-testid={TID.approvalWhy}>
          {askedBecause}
        </p>
      )}
      {request.rule && (
        <p className="approval-why" data-testid={TID.approvalRule}>
          Rule: <code>{request.rule}</code>
        </p>
      )}
      {hidden.length > 0 && (
        <p className="approval-warning" role="alert" data-testid={TID.approvalHiddenWarning}>
          Careful: this request contains {hidden.length === 1 ? "a character" : "characters"} that
          can hide or reorder what is shown ({hidden.map(badgeLabel).join(" ")}). They are marked in
          the command and paths below (not inside file contents); what runs is the text with them,
          not what it looks like.
        </p>
      )}
      {longCommand && (
        <p className="approval-warning" data-testid={TID.approvalLongWarning}>
          This command is long ({commandLines} {commandLines === 1 ? "line" : "lines"},{" "}
          {command?.length} characters): read all of it before approving.
        </p>
      )}

      {network ? (
        <div className="approval-body">
          {network.reach && (
            <p className="approval-warning" data-testid={TID.approvalReach}>
              {network.host} leads to {network.reach}, not the public internet.
            </p>
          )}
          {request.toolId && (
            <p className="muted">
              while <code className="approval-text">{toolSummary(request.toolName, request.input)}</code> runs; a
              command that gives up waiting can be run again once you answer.
            </p>
          )}
        </div>
      ) : preview?.kind === "command" ? (
        <div className="approval-body">
          <pre className="code-line approval-text" style={WRAP} data-testid={TID.approvalCommand}>
            <VisibleText text={preview.command} />
          </pre>
          <p className="muted">
            in{" "}
            <code className="approval-text" style={WRAP} data-testid={TID.approvalCwd}>
              <VisibleText text={preview.cwd} />
            </code>
          </p>
        </div>
      ) : preview?.kind === "diff" ? (
        <div className="approval-body">
          <p>
            <code className="approval-text" style={WRAP} data-testid={TID.approvalPath}>
              <VisibleText text={preview.path} />
            </code>
          </p>
          <DiffView diff={preview.diff} path={preview.path} />
        </div>
      ) : (
        <div className="approval-body">
          <p className="approval-text" style={WRAP} data-testid={TID.approvalPath}>
            <VisibleText text={summary} />
          </p>
          <JsonView value={request.input} />
        </div>
      )}

      {onShowTool && request.toolId && (
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
          {network ? "Deny" : "Reject"}
        </button>
        {network ? (
          <>
            <button
              type="button"
              data-testid={TID.allowProject}
              disabled={expired}
              onClick={() => onAnswer({ ...answering, approved: true, remember: "project" })}
            >
              Always for this project
            </button>
            <button
              type="button"
              className="primary"
              data-testid={TID.approve}
              disabled={expired}
              onClick={() => onAnswer({ ...answering, approved: true, remember: "once" })}
            >
              Allow once
            </button>
          </>
        ) : (
          <>
            {suggested && (
              <button
                ref={alwaysButtonRef}
                type="button"
                data-testid={TID.allowAlways}
                aria-expanded={editingRule}
                disabled={expired}
                onClick={() => setEditingRule((open) => !open)}
              >
                Always allow…
              </button>
            )}
            <button
              type="button"
              data-testid={TID.allowSession}
              disabled={expired}
              onClick={() => onAnswer({ ...answering, approved: true, remember: "session" })}
            >
              Allow for this session
            </button>
            <button
              type="button"
              className="primary"
              data-testid={TID.approve}
              disabled={expired}
              onClick={() => onAnswer({ ...answering, approved: true, remember: "once" })}
            >
              Approve
            </button>
          </>
        )}
      </div>
      {suggested && editingRule && (
        <AlwaysAllowEditor
          suggested={suggested}
          disabled={expired}
          onCancel={closeEditor}
          onSave={(always) => onAnswer({ ...answering, approved: true, remember: "always", always })}
        />
      )}
    </div>
  );
}
