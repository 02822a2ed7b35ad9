// Shows the first pending approval of the queue, answers it through `chat_tool_approve`, and ties
// it to its tool block (scrolled into view; the block highlights itself from the same queue).
import { useCallback, useEffect } from "react";
import { api, type ApproveArgs } from "../../shared/ipc";
import { focusComposer } from "../../shared/keyboard";
import { useChat, useChatStore } from "../../shared/store/store";
import { toolBlockDomId } from "../tools/ToolCallBlock";
import { ApprovalDialog } from "./ApprovalDialog";

export function scrollToTool(toolId: string) {
  const el = document.getElementById(toolBlockDomId(toolId));
  if (el && typeof el.scrollIntoView === "function") el.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

export function ApprovalHost({
  activeConversationId,
  onOpenConversation,
}: {
  /** The conversation on screen; a request from another one offers to switch to it. */
  activeConversationId?: string;
  onOpenConversation?: (conversationId: string) => void;
} = {}) {
  const store = useChatStore();
  const approvals = useChat((s) => s.approvals);
  const first = approvals[0];
  const elsewhere = !!first && activeConversationId !== undefined && first.conversationId !== activeConversationId;

  useEffect(() => {
    if (first && !elsewhere) scrollToTool(first.toolId);
  }, [first, elsewhere]);

  const showTool = useCallback(
    (toolId: string) => {
      if (first && elsewhere && onOpenConversation) {
        onOpenConversation(first.conversationId);
        // The block renders with the other conversation; scroll once it is there.
        setTimeout(() => scrollToTool(toolId), 50);
      } else {
        scrollToTool(toolId);
      }
    },
    [first, elsewhere, onOpenConversation],
  );

  const onAnswer = useCallback(
    (answer: ApproveArgs) => {
      store.dispatch({ type: "approval-answered", confirmId: answer.confirmId, approved: answer.approved });
      focusComposer();
      api.approveTool(answer).catch((e: unknown) => {
        // The engine already settled this call (timeout or cancel); its tool-result tells the block.
        console.warn("chat_tool_approve failed", e);
      });
    },
    [store],
  );

  const onExpire = useCallback(
    (confirmId: string) => store.dispatch({ type: "approval-answered", confirmId, approved: false, code: "APPROVAL_TIMEOUT" }),
    [store],
  );

  if (!first) return null;
  return (
    <ApprovalDialog
      key={first.confirmId}
      pending={first}
      // The engine numbers the asks of one message ("2 of 3": they come one at a time); without
      // that, what is waiting here now.
      position={first.request.queue?.position ?? 1}
      total={first.request.queue?.total ?? approvals.length}
      onAnswer={onAnswer}
      onExpire={onExpire}
      fromOtherConversation={elsewhere}
      onShowTool={showTool}
    />
  );
}
