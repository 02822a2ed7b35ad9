import { useChat } from "../../../shared/store/store";

/** Whether a conversation is answering, or waiting for an approval, as a dot beside its title. */
export function RunningDot({ id }: { id: string }) {
  const running = useChat((s) => s.conversations[id]?.running ?? false);
  const waiting = useChat((s) => s.approvals.some((a) => a.conversationId === id));
  if (waiting) return <span className="dot dot-waiting" title="Waiting for your approval" />;
  return running ? <span className="dot dot-running" title="Working" /> : null;
}
