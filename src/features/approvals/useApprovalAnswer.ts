import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { AlwaysRule, ApproveArgs, Remember, ToolConfirm } from "../../shared/ipc";

/**
 * Answering an approval card: the reason a rejection gives, the "Always allow…" rule editor (open
 * or not; nothing is saved until it is confirmed), and the answers; Esc on the card rejects, unless
 * the time ran out (`expired`). A new question starts afresh.
 */
export function useApprovalAnswer(request: ToolConfirm, onAnswer: (answer: ApproveArgs) => void, expired: boolean) {
  const [reason, setReason] = useState("");
  const [editingRule, setEditingRule] = useState(false);
  const alwaysButtonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setReason("");
    setEditingRule(false);
  }, [request.confirmId]);

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
  const approve = (remember: Remember) => onAnswer({ ...answering, approved: true, remember });
  const approveAlways = (always: AlwaysRule) => onAnswer({ ...answering, approved: true, remember: "always", always });

  const toggleEditor = () => setEditingRule((open) => !open);
  const closeEditor = () => {
    setEditingRule(false);
    requestAnimationFrame(() => alwaysButtonRef.current?.focus());
  };

  return {
    reason,
    setReason,
    reject,
    onKeyDown,
    approve,
    approveAlways,
    editingRule,
    toggleEditor,
    closeEditor,
    alwaysButtonRef,
  };
}
