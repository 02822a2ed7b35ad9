import { useEffect, useRef, type ReactNode } from "react";
import { emptyConversation } from "../../shared/store/reducer";
import { useChat } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { Composer } from "./Composer";
import { ContextGauge } from "./ContextGauge";
import type { ConfiguredWindow } from "./pricing";
import { ErrorNotice } from "./ErrorNotice";
import { AssistantMessageView, UserMessageView } from "./MessageView";
import { useChatActions } from "./useChatActions";

export function ConversationView({
  conversationId,
  configuredWindow,
  onOpenSettings,
  onFirstMessage,
  aboveComposer,
}: {
  conversationId: string;
  configuredWindow?: ConfiguredWindow | null;
  onOpenSettings?: () => void;
  /** Called with the text of a message sent into an empty conversation (to title it). */
  onFirstMessage?: (text: string) => void;
  /** Docked between the messages and the composer (the approval dialog). */
  aboveComposer?: ReactNode;
}) {
  const stored = useChat((s) => s.conversations[conversationId]);
  const highlighted = useChat((s) => s.approvals[0]?.toolId);
  const conversation = stored ?? emptyConversation(conversationId);
  const { send, stop } = useChatActions(conversationId);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  // Follow the stream while the user is at the bottom; leave them be when they scrolled up.
  useEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  });

  const onSend = (text: string) => {
    if (conversation.messageIds.length === 0) onFirstMessage?.(text);
    send(text);
  };

  return (
    <main className="conversation" data-testid={TID.conversationView} aria-label="Conversation">
      <div
        className="messages"
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {conversation.messageIds.length === 0 && (
          <p className="empty muted">Ask for something in your project. Warden asks before it changes anything.</p>
        )}
        {conversation.messageIds.map((id) => {
          const m = conversation.messages[id];
          if (!m) return null;
          return m.kind === "user" ? (
            <UserMessageView key={id} message={m} />
          ) : (
            <AssistantMessageView
              key={id}
              message={m}
              tools={conversation.tools}
              highlightedToolId={highlighted}
              onOpenSettings={onOpenSettings}
            />
          );
        })}
        {conversation.errors.map((e, i) => (
          <ErrorNotice key={`conv-error-${i}`} error={e} onOpenSettings={onOpenSettings} />
        ))}
      </div>
      {aboveComposer}
      <footer className="conversation-footer">
        <ContextGauge conversation={conversation} configured={configuredWindow} />
        <Composer running={conversation.running} onSend={onSend} onStop={stop} />
      </footer>
    </main>
  );
}
