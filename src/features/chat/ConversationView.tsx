import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { emptyConversation } from "../../shared/store/empty";
import type { Conversation } from "../../shared/store/types";
import { useChat, useChatStore } from "../../shared/store/store";
import { aDialogIsOpen } from "../../shared/keyboard";
import { TID } from "../../shared/testids";
import { TurnChanges } from "../checkpoints/TurnChanges";
import { turnCheckpoints, type TurnCheckpoints } from "../checkpoints/turns";
import { Composer } from "./Composer";
import { CompactControl } from "./CompactControl";
import { CompactionDivider } from "./CompactionDivider";
import { RewindNotice } from "./RewindNotice";
import { ContextGauge } from "./ContextGauge";
import { ModelSwitch, type ModelChoice } from "./ModelSwitch";
import { ErrorNotice } from "./ErrorNotice";
import { RetryLast } from "./RetryLast";
import { SessionGrants } from "./SessionGrants";
import { AssistantMessageView, UserMessageView } from "./MessageView";
import { useChatActions } from "./useChatActions";
import { useMessageWindow } from "./useMessageWindow";
import { useTakesImages } from "./useTakesImages";
import { openSaved } from "./readSaved";
import { NotSavedNotice, ReadOnlyBanner, UnreadableMessageView } from "./StoreNotices";
import type { ToolImage } from "../../shared/ipc";

export function ConversationView({
  conversationId,
  onOpenSettings,
  onFirstMessage,
  aboveComposer,
  modelChoice,
}: {
  conversationId: string;
  onOpenSettings?: () => void;
  /** Called with the text of a message sent into an empty conversation (to title it). */
  onFirstMessage?: (text: string) => void;
  /** Docked between the messages and the composer (the approval dialog). */
  aboveComposer?: ReactNode;
  /** The model that answers, shown and changeable beside the composer. */
  modelChoice?: ModelChoice;
}) {
  const stored = useChat((s) => s.conversations[conversationId]);
  const conversation = stored ?? emptyConversation(conversationId);
  const store = useChatStore();
  // A saved conversation that cannot be read whole: shown as far as it can be read, nothing sent.
  const readOnly = conversation.readOnly ?? null;
  // Approvals of this conversation still waiting: when one is answered, its grants may have changed.
  const pendingHere = useChat((s) => s.approvals.filter((a) => a.conversationId === conversationId).length);
  const { send, stop } = useChatActions(conversationId);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const ids = conversation.messageIds;
  const win = useMessageWindow(ids.length);
  const turns = useTurnIndex(stored);
  // Which message the user wrote each user message is (0 for the first): what a rewind names.
  const userIndex = useMemo(() => {
    const index = new Map<string, number>();
    for (const id of ids) if (conversation.messages[id]?.kind === "user") index.set(id, index.size);
    return index;
  }, [ids, conversation.messages]);
  // The text (and images) of a message dropped by a rewind, offered again in the composer.
  const [draft, setDraft] = useState<{ text: string; images?: readonly ToolImage[] } | null>(null);
  // Whether the model reads images: asked once the user attaches one.
  const [attaching, setAttaching] = useState(false);
  const takesImages = useTakesImages(modelChoice, attaching);
  // Distance from the bottom to keep when older messages are mounted above the viewport.
  const keepFromBottom = useRef<number | null>(null);

  // Something arrived while the user was scrolled up: offer the way down instead of pulling them.
  const [unseen, setUnseen] = useState(false);

  // Follow the stream while the user is at the bottom; leave them be when they scrolled up.
  useEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  });
  useEffect(() => {
    if (!pinned.current) setUnseen(true);
  }, [conversation]);

  const toBottom = () => {
    pinned.current = true;
    win.setFollowing(true);
    setUnseen(false);
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && keepFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    }
  }, [win.start]);

  const showEarlier = () => {
    const el = scroller.current;
    if (el) keepFromBottom.current = el.scrollHeight - el.scrollTop;
    pinned.current = false;
    win.showEarlier();
  };

  // Esc stops a running answer, unless a dialog (the approval card) is open: there it rejects.
  useEffect(() => {
    if (!conversation.running) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || aDialogIsOpen()) return;
      e.preventDefault();
      stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [conversation.running, stop]);

  const onSend = (text: string, images: readonly ToolImage[] = []) => {
    if (ids.length === 0) onFirstMessage?.(text);
    // Whoever sends wants to see the reply: back to the bottom, following it.
    toBottom();
    send(text, images);
  };

  return (
    <main className="conversation" data-testid={TID.conversationView} data-message-count={ids.length} aria-label="Conversation">
      {readOnly && <ReadOnlyBanner reason={readOnly.reason} onRetry={() => void openSaved(store, conversationId)} />}
      <div
        className="messages"
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          win.setFollowing(pinned.current);
          if (pinned.current) setUnseen(false);
          if (el.scrollTop < 200 && win.start > 0 && keepFromBottom.current === null) showEarlier();
        }}
      >
        {win.start > 0 && (
          <button type="button" className="link messages-earlier" data-testid={TID.messagesEarlier} onClick={showEarlier}>
            Show {win.start} earlier {win.start === 1 ? "message" : "messages"}
          </button>
        )}
        {ids.length === 0 && !readOnly && (
          <p className="empty muted">Ask for something in your project. Warden asks before it changes anything.</p>
        )}
        {ids.slice(win.start).map((id) => {
          const m = conversation.messages[id];
          if (!m) return null;
          const ending = turns.byLastMessage.get(id);
          return (
            <Fragment key={id}>
              {m.kind === "unreadable" ? (
                <UnreadableMessageView id={m.id} reason={m.reason} />
              ) : m.kind === "user" ? (
                <UserMessageView
                  message={m}
                  restoreTo={turns.byUser.get(id)?.restoreTo ?? null}
                  running={conversation.running}
                  rewind={
                    readOnly
                      ? null
                      : {
                          conversationId,
                          userIndex: userIndex.get(id) ?? 0,
                          onRewound: (text) => setDraft({ text, images: m.images }),
                        }
                  }
                />
              ) : (
                <AssistantMessageView conversationId={conversationId} message={m} onOpenSettings={onOpenSettings} />
              )}
              {ending && <TurnChanges turn={ending} running={conversation.running} />}
              {conversation.compaction?.afterMessageId === id && <CompactionDivider mark={conversation.compaction} />}
            </Fragment>
          );
        })}
        {conversation.rewound && <RewindNotice mark={conversation.rewound} />}
        {conversation.errors.map((e, i) => (
          <ErrorNotice key={`conv-error-${i}`} error={e} onOpenSettings={onOpenSettings} />
        ))}
        {!readOnly && <RetryLast conversationId={conversationId} conversation={conversation} send={onSend} />}
      </div>
      {unseen && (
        <button type="button" className="new-messages" data-testid={TID.newMessages} onClick={toBottom}>
          ↓ New messages
        </button>
      )}
      {aboveComposer}
      <footer className="conversation-footer">
        <div className="conversation-footer-row">
          <div className="conversation-footer-start">
            <ContextGauge conversation={conversation} />
            {!readOnly && (
              <CompactControl conversationId={conversationId} hasHistory={ids.length > 0} running={conversation.running} />
            )}
          </div>
          {modelChoice && <ModelSwitch choice={modelChoice} disabled={conversation.running} />}
        </div>
        <SessionGrants conversationId={conversationId} refresh={`${conversation.running}:${pendingHere}`} />
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
        />
      </footer>
    </main>
  );
}

/** Each turn's changes and checkpoints, by its user message and by its last message. */
function useTurnIndex(conversation: Conversation | undefined) {
  return useMemo(() => {
    const byUser = new Map<string, TurnCheckpoints>();
    const byLastMessage = new Map<string, TurnCheckpoints>();
    for (const t of conversation ? turnCheckpoints(conversation) : []) {
      if (t.turn.userMessageId) byUser.set(t.turn.userMessageId, t);
      const last = t.turn.messageIds[t.turn.messageIds.length - 1] ?? t.turn.userMessageId;
      if (last) byLastMessage.set(last, t);
    }
    return { byUser, byLastMessage };
  }, [conversation]);
}
