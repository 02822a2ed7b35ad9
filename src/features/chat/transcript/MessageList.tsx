import { Fragment, useMemo } from "react";
import { ConversationIdContext } from "../../../shared/conversationId";
import type { ToolImage } from "../../../shared/ipc";
import type { Conversation } from "../../../shared/store/types";
import { hookRunsByPlace } from "../../../shared/store/selectors";
import { HookRunRows } from "../../hooks/HookRunRow";
import { TID } from "../../../shared/testids";
import { TurnChanges } from "../../checkpoints/TurnChanges";
import type { TurnCheckpoints } from "../../checkpoints/turns";
import { PlanCard } from "../../plan/PlanCard";
import { CompactionDivider } from "./CompactionDivider";
import { ErrorNotice } from "./ErrorNotice";
import { AssistantMessageView, UserMessageView } from "./MessageView";
import { RetryLast } from "./RetryLast";
import { RewindNotice } from "./RewindNotice";
import { UnreadableMessageView } from "./StoreNotices";
import type { FollowScroll } from "./useFollowScroll";

type MessageListProps = {
  conversationId: string;
  conversation: Conversation;
  /** Index of the first mounted message. */
  start: number;
  turns: { byUser: Map<string, TurnCheckpoints>; byLastMessage: Map<string, TurnCheckpoints> };
  readOnly: boolean;
  follow: FollowScroll;
  onOpenSettings?: () => void;
  /** A rewind dropped this user message: its text and images are offered again in the composer. */
  onRewound: (draft: { text: string; images?: readonly ToolImage[] }) => void;
  onSend: (text: string, images?: readonly ToolImage[]) => void;
};

/**
 * A conversation's messages, the mounted ones (from `start`), each followed by its turn's changes
 * and the compaction mark where it falls; then the rewind notice, the errors and the retry. The
 * list scrolls as `follow` says, and offers the way down when something arrived out of view.
 */
// size: each message with what hangs under it (hook runs, the plan, the turn's changes, the compaction), a line each
export function MessageList({
  conversationId,
  conversation,
  start,
  turns,
  readOnly,
  follow,
  onOpenSettings,
  onRewound,
  onSend,
}: MessageListProps) {
  const ids = conversation.messageIds;
  // Which message the user wrote each user message is (0 for the first): what a rewind names.
  const userIndex = useMemo(() => {
    const index = new Map<string, number>();
    for (const id of ids) if (conversation.messages[id]?.kind === "user") index.set(id, index.size);
    return index;
  }, [ids, conversation.messages]);
  const hookRuns = useMemo(() => hookRunsByPlace(conversation.hookRuns), [conversation.hookRuns]);

  return (
    <ConversationIdContext.Provider value={conversationId}>
      <div className="messages" ref={follow.scroller} onScroll={follow.onScroll}>
        {start > 0 && (
          <button type="button" className="link messages-earlier" data-testid={TID.messagesEarlier} onClick={follow.showEarlier}>
            Show {start} earlier {start === 1 ? "message" : "messages"}
          </button>
        )}
        {ids.length === 0 && !readOnly && (
          <p className="empty muted">Ask for something in your project. Warden asks before it changes anything.</p>
        )}
        {start === 0 && <HookRunRows runs={hookRuns.get(null)} place="conversation" />}
        {ids.slice(start).map((id) => {
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
                          onRewound: (text) => onRewound({ text, images: m.images }),
                        }
                  }
                />
              ) : (
                <AssistantMessageView conversationId={conversationId} message={m} onOpenSettings={onOpenSettings} />
              )}
              <HookRunRows runs={hookRuns.get(id)} place="conversation" />
              {conversation.plan?.messageId === id && (
                <PlanCard conversationId={conversationId} conversation={conversation} readOnly={readOnly} />
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
      {follow.unseen && (
        <button type="button" className="new-messages" data-testid={TID.newMessages} onClick={follow.toBottom}>
          ↓ New messages
        </button>
      )}
    </ConversationIdContext.Provider>
  );
}
