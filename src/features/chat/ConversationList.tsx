import { useChat } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import type { ConversationEntry } from "./conversationList";

function RunningDot({ id }: { id: string }) {
  const running = useChat((s) => s.conversations[id]?.running ?? false);
  const waiting = useChat((s) => s.approvals.some((a) => a.conversationId === id));
  if (waiting) return <span className="dot dot-waiting" title="Waiting for your approval" />;
  return running ? <span className="dot dot-running" title="Working" /> : null;
}

export function ConversationList({
  list,
  activeId,
  onSelect,
  onNew,
}: {
  list: ConversationEntry[];
  activeId: string;
  onSelect: (id: string) => void;
  onNew: () => void;
}) {
  return (
    <nav className="sidebar" aria-label="Conversations" data-testid={TID.conversationList}>
      <button type="button" className="new-conversation" data-testid={TID.conversationNew} onClick={onNew}>
        + New conversation
      </button>
      <ul>
        {list.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className={`conversation-item${c.id === activeId ? " active" : ""}`}
              aria-current={c.id === activeId ? "page" : undefined}
              data-testid={TID.conversationItem}
              data-conversation-id={c.id}
              onClick={() => onSelect(c.id)}
            >
              <span className="conversation-title">{c.title}</span>
              <RunningDot id={c.id} />
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
