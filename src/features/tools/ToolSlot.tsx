// One tool block read straight from the store: a tool event re-renders its own block, not the
// message around it nor the other blocks of that message.
import { useChat } from "../../shared/store/store";
import { ToolCallBlock } from "./ToolCallBlock";
import { HookRunRows } from "../hooks/HookRunRow";

export function ToolSlot({ conversationId, toolId }: { conversationId: string; toolId: string }) {
  const tool = useChat((s) => s.conversations[conversationId]?.tools[toolId]);
  // A call's id is unique only within its conversation (servers may number calls from call_0 in each).
  const highlighted = useChat((s) => s.approvals[0]?.conversationId === conversationId && s.approvals[0]?.toolId === toolId);
  // While this call waits for its checkpoint (the first look at the project's files): how far it has come.
  const waitingFiles = useChat((s) => {
    const look = s.conversations[conversationId]?.firstLook;
    return look && !look.done && look.waitingToolId === toolId ? look.files : null;
  });
  if (!tool) return null;
  return (
    <>
      <ToolCallBlock tool={tool} highlighted={highlighted} waitingFiles={waitingFiles} />
      {/* The hooks that ran for this call (docs/HOOKS.md), under its block; most calls have none. */}
      <HookRunRows runs={tool.hooks} place="tool" />
    </>
  );
}
