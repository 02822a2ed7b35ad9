import { useMemo, useState, type ReactNode } from "react";
import type { ToolImage } from "../../../shared/ipc";
import { emptyConversation } from "../../../shared/store/empty";
import type { Conversation } from "../../../shared/store/types";
import { useChat, useChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { turnCheckpointsFrom, type TurnCheckpoints } from "../../checkpoints/turns";
import { FirstLook } from "../../checkpoints/FirstLook";
import { TodoPanel } from "../../todo/TodoPanel";
import { Composer } from "../composer/Composer";
import type { SlashSetup } from "../composer/useSlash";
import { CompactControl } from "./CompactControl";
import { ContextGauge } from "./ContextGauge";
import { MessageList } from "./MessageList";
import { ModelSwitch, type ModelChoice } from "./ModelSwitch";
import { SessionGrants } from "./SessionGrants";
import { useChatActions } from "../useChatActions";
import { useEscapeStops } from "./useEscapeStops";
import { useFollowScroll } from "./useFollowScroll";
import { useMessageWindow } from "./useMessageWindow";
import { useTakesImages } from "../composer/useTakesImages";
import { openSaved } from "./readSaved";
import { NotSavedNotice, ReadOnlyBanner } from "./StoreNotices";

type ConversationViewProps = {
  conversationId: string;
  onOpenSettings?: () => void;
  /** Called with the text of a message sent into an empty conversation (to title it). */
  onFirstMessage?: (text: string) => void;
  /** Docked between the messages and the composer (the approval dialog). */
  aboveComposer?: ReactNode;
  /** The model that answers, shown and changeable beside the composer. */
  modelChoice?: ModelChoice;
  /** The composer's slash commands: the project they are read for, what `/clear` and `/permissions` do. */
  slash?: SlashSetup;
};

export function ConversationView({
  conversationId,
  onOpenSettings,
  onFirstMessage,
  aboveComposer,
  modelChoice,
  slash,
}: ConversationViewProps) {
  const stored = useChat((s) => s.conversations[conversationId]);
  const conversation = stored ?? emptyConversation(conversationId);
  const store = useChatStore();
  // A saved conversation that cannot be read whole: shown as far as it can be read, nothing sent.
  const readOnly = conversation.readOnly ?? null;
  // Approvals of this conversation still waiting: when one is answered, its grants may have changed.
  const pendingHere = useChat((s) => s.approvals.filter((a) => a.conversationId === conversationId).length);
  const { send, stop } = useChatActions(conversationId);
  const ids = conversation.messageIds;
  const win = useMessageWindow(ids.length);
  const turns = useTurnIndex(stored, win.start);
  // The text (and images) of a message dropped by a rewind, offered again in the composer.
  const [draft, setDraft] = useState<{ text: string; images?: readonly ToolImage[] } | null>(null);
  // Whether the model reads images: asked once the user attaches one.
  const [attaching, setAttaching] = useState(false);
  const takesImages = useTakesImages(modelChoice, attaching);
  const follow = useFollowScroll(conversation, win);
  useEscapeStops(conversation.running, stop);

  const onSend = (text: string, images: readonly ToolImage[] = []) => {
    if (ids.length === 0) onFirstMessage?.(text);
    // Whoever sends wants to see the reply: back to the bottom, following it.
    follow.toBottom();
    send(text, images);
  };

  return (
    <main className="conversation" data-testid={TID.conversationView} data-message-count={ids.length} aria-label="Conversation">
      {readOnly && <ReadOnlyBanner reason={readOnly.reason} onRetry={() => void openSaved(store, conversationId)} />}
      <MessageList
        conversationId={conversationId}
        conversation={conversation}
        start={win.start}
        turns={turns}
        readOnly={readOnly !== null}
        follow={follow}
        onOpenSettings={onOpenSettings}
        onRewound={setDraft}
        onSend={onSend}
      />
      {aboveComposer}
      <footer className="conversation-footer">
        <FirstLook progress={conversation.firstLook} />
        <TodoPanel items={conversation.todo} />
        <div className="conversation-footer-row">
          <div className="conversation-footer-start">
            <ContextGauge conversation={conversation} />
            {!readOnly && (
              <CompactControl conversationId={conversationId} hasHistory={ids.length > 0} running={conversation.running} />
            )}
          </div>
          {modelChoice && <ModelSwitch choice={modelChoice} disabled={conversation.running} inUse={conversation.model} />}
        </div>
        <SessionGrants conversationId={conversationId} running={conversation.running} pending={pendingHere} />
        {conversation.notSaved && <NotSavedNotice reason={conversation.notSaved} />}
        <Composer
          conversationId={conversationId}
          running={conversation.running}
          disabled={readOnly !== null}
          placeholder={readOnly ? "This conversation is read-only: it cannot be read whole" : undefined}
          onSend={onSend}
          onStop={stop}
          draft={draft}
          takesImages={takesImages}
          onImages={(count) => setAttaching(count > 0)}
          slash={slash}
        />
      </footer>
    </main>
  );
}

/**
 * Each mounted turn's changes and checkpoints (from message `start` on), by its user message and by
 * its last message. Only the mounted turns: built on every store change, over a whole long
 * conversation it made hundreds of KB of garbage per streamed batch.
 */
function useTurnIndex(conversation: Conversation | undefined, start: number) {
  return useMemo(() => {
    const byUser = new Map<string, TurnCheckpoints>();
    const byLastMessage = new Map<string, TurnCheckpoints>();
    for (const t of conversation ? turnCheckpointsFrom(conversation, start) : []) {
      if (t.turn.userMessageId) byUser.set(t.turn.userMessageId, t);
      const last = t.turn.messageIds[t.turn.messageIds.length - 1] ?? t.turn.userMessageId;
      if (last) byLastMessage.set(last, t);
    }
    return { byUser, byLastMessage };
  }, [conversation, start]);
}
