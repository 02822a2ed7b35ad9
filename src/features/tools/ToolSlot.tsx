// One tool block read straight from the store: a tool event re-renders its own block, not the
// message around it nor the other blocks of that message.
import { useChat } from "../../shared/store/store";
import { ToolCallBlock } from "./ToolCallBlock";

export function ToolSlot({ conversationId, toolId }: { conversationId: string; toolId: string }) {
  const tool = useChat((s) => s.conversations[conversationId]?.tools[toolId]);
  // A call's id is unique only within its conversation (servers may number calls from call_0 in each).
  const highlighted = useChat((s) => s.approvals[0]?.conversationId === conversationId && s.approvals[0]?.toolId === toolId);
  return tool ? <ToolCallBlock tool={tool} highlighted={highlighted} /> : null;
}
