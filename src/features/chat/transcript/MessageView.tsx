import { memo } from "react";
import type { AssistantMessage, UserMessage } from "../../../shared/store/types";
import { textOf } from "../../../shared/store/textBuffer";
import { TID } from "../../../shared/testids";
import { RestoreControl } from "../../checkpoints/RestoreControl";
import { RewindControl } from "./RewindControl";
import { ToolSlot } from "../../tools/ToolSlot";
import { HookRunRows } from "../../hooks/HookRunRow";
import { ErrorNotice } from "./ErrorNotice";
import { Markdown } from "./LazyMarkdown";
import { ThinkingBlock } from "./ThinkingBlock";
import { CopyButton } from "../../../shared/ui/CopyButton";
import { ImageThumbnails } from "../../../shared/ui/Images";
import { NewerPart } from "./StoreNotices";
import { formatClock, formatDateTime, formatDay } from "../../../shared/format";
import type { Usage } from "../../../shared/ipc";
import { MessageUsage } from "../../cost/MessageUsage";

/** The time of day for a message written today, else the day and the time (a reopened conversation). */
export function shortTime(when: Date, now: Date = new Date()): string {
  const time = formatClock(when);
  if (when.toDateString() === now.toDateString()) return time;
  return `${formatDay(when, when.getFullYear() !== now.getFullYear())}, ${time}`;
}

/**
 * Under a message, on hover or keyboard focus: when it was written, by which model, what an answer
 * counted and cost (`usage`: the stored object, so the memo holds), and Copy.
 * Memoized: a user message is drawn again on every store change, its stamp need not be.
 */
const MessageMeta = memo(function MessageMeta({
  at,
  model,
  text,
  usage = null,
}: {
  at: number | null;
  model?: string | null;
  text: string;
  usage?: Usage | null;
}) {
  const when = at === null ? null : new Date(at);
  return (
    <div className="message-meta muted small" data-testid={TID.messageMeta}>
      {when && (
        <time dateTime={when.toISOString()} title={formatDateTime(when)}>
          {shortTime(when)}
        </time>
      )}
      {model && <span className="message-model">{model}</span>}
      {usage && <MessageUsage usage={usage} model={model} />}
      {text && <CopyButton text={text} testId={TID.messageCopy} />}
    </div>
  );
});

export function UserMessageView({
  message,
  restoreTo = null,
  running = false,
  rewind = null,
}: {
  message: UserMessage;
  /** The checkpoint that holds the project as it was before this message, when Warden took one. */
  restoreTo?: string | null;
  /** A turn is running: nothing can be restored until it ends. */
  running?: boolean;
  /** Where this message is in the conversation, to rewind it to here. */
  rewind?: { conversationId: string; userIndex: number; onRewound: (text: string) => void } | null;
}) {
  return (
    <article className="message message-user" data-testid={TID.message} data-message-id={message.id} data-role="user">
      {message.images && message.images.length > 0 && (
        <ImageThumbnails
          images={message.images}
          label={message.images.length === 1 ? "Image sent" : `${message.images.length} images sent`}
          testId={TID.messageImages}
        />
      )}
      {(message.text || !(message.images?.length || message.newer?.length)) && (
        <div className="message-text user-text" data-testid={TID.messageText}>
          {message.text}
        </div>
      )}
      {message.newer?.map((blockType, i) => <NewerPart key={i} blockType={blockType} />)}
      <MessageMeta at={message.at} text={message.text} />
      {restoreTo && <RestoreControl checkpointId={restoreTo} disabled={running} />}
      {rewind && (
        <RewindControl
          conversationId={rewind.conversationId}
          userIndex={rewind.userIndex}
          disabled={running}
          onRewound={rewind.onRewound}
        />
      )}
    </article>
  );
}

/** The answer's text as the user read it: its text segments, without thinking or tool calls. */
function answerText(message: AssistantMessage): string {
  return message.segments
    .flatMap((seg) => (seg.kind === "text" ? [textOf(seg.buf).trim()] : []))
    .filter(Boolean)
    .join("\n\n");
}

// Memoized: while one message streams, the finished ones above it are not rendered again. Tool
// blocks read their own tool from the store (ToolSlot), so tool events do not reach this component.
export const AssistantMessageView = memo(function AssistantMessageView({
  conversationId,
  message,
  onOpenSettings,
}: {
  conversationId: string;
  message: AssistantMessage;
  onOpenSettings?: () => void;
}) {
  const last = message.segments.length - 1;
  return (
    <article
      className="message message-assistant"
      data-testid={TID.message}
      data-message-id={message.id}
      data-role="assistant"
      aria-busy={message.streaming}
    >
      {message.notices.map((text) => (
        <p key={text} className="muted small message-notice" role="note">
          {text}
        </p>
      ))}
      {message.segments.map((seg, i) => {
        if (seg.kind === "text") {
          return (
            <div key={i} className="message-text markdown" data-testid={TID.messageText}>
              <Markdown text={textOf(seg.buf)} />
            </div>
          );
        }
        if (seg.kind === "thinking") {
          return <ThinkingBlock key={i} text={textOf(seg.buf)} streaming={message.streaming && i === last} />;
        }
        if (seg.kind === "newer") return <NewerPart key={i} blockType={seg.blockType} />;
        return <ToolSlot key={seg.toolId} conversationId={conversationId} toolId={seg.toolId} />;
      })}
      {message.streaming && message.segments.length === 0 && <span className="typing" aria-label="Waiting for the model" />}
      <HookRunRows runs={message.hooks} place="message" />
      {message.errors.map((e, i) => (
        <ErrorNotice key={i} error={e} onOpenSettings={onOpenSettings} />
      ))}
      {message.partial && message.stopReason === "cancelled" && <p className="muted small">Stopped.</p>}
      {!message.streaming && (
        <MessageMeta at={message.at} model={message.model} text={answerText(message)} usage={message.usage} />
      )}
    </article>
  );
});
