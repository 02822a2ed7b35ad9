// Conversation state as the UI reads it, folded from protocol events by `reducer.ts`.
import type {
  ChatError,
  CompactionInfo,
  ErrorCode,
  HistoryMessage,
  HookRun,
  MessageStamp,
  JsonValue,
  McpOrigin,
  SavedRow,
  ProtocolEvent,
  SnapshotProgress,
  StopReason,
  TodoItem,
  ToolCategory,
  ToolConfirm,
  ToolErrorCode,
  ToolImage,
  ToolReport,
  Usage,
} from "../ipc";
import type { TextBuffer } from "./textBuffer";
import type { PlanMark } from "./plan";

/** `expired`: nobody answered its approval in time (not run, and not a rejection either). */
export type ToolBlockStatus = "running" | "awaiting_approval" | "success" | "error" | "denied" | "expired" | "cancelled";

export interface ToolBlock {
  toolId: string;
  conversationId: string;
  messageId: string;
  /** Empty until a tool-start or tool-confirm names it (a result can arrive first). */
  toolName: string;
  /** What kind of tool it is, from its tool-start (null until then, and for a loaded history). */
  category: ToolCategory | null;
  /** An MCP server's tool: which server, and its name there (from its tool-start or request). */
  mcp: McpOrigin | null;
  input: JsonValue | null;
  status: ToolBlockStatus;
  /** Streamed output (chat:tool-delta), capped at OUTPUT_CAP characters. */
  output: TextBuffer;
  /** Characters dropped past the cap. */
  outputDropped: number;
  /** [start, end) character ranges of `output` that came from stderr. */
  stderr: readonly (readonly [number, number])[];
  result: string | null;
  /** What the engine reports beside the text, typed: what the block renders (null until the result). */
  report: ToolReport | null;
  /** The tool's other facts (sizes, hashes…): shown as JSON for a tool without a view, never read by key. */
  metadata: JsonValue | null;
  /** Why a failed call failed (USER_REJECTED, TOOL_TIMEOUT…), as the engine typed it. */
  errorCode: ToolErrorCode | null;
  /** Why it failed, in a code a newer Warden saved and this one does not know (a reopened history). */
  newerCode?: string;
  /** The approval request, kept after it is answered for its diff / command preview. */
  confirm: ToolConfirm | null;
  /** Pictures the tool returned (`file_read` of an image), as a saved history holds them. */
  images?: readonly ToolImage[];
  /** The hooks that ran for this call (`chat:hook` with its toolId), in order; a reopened conversation has them from the call's saved report. */
  hooks?: readonly HookRun[];
}

export type Segment =
  | { kind: "text"; buf: TextBuffer }
  | { kind: "thinking"; buf: TextBuffer }
  | { kind: "tool"; toolId: string }
  /** A part a newer Warden saved, of a kind this one cannot show (`blockType` names it). */
  | { kind: "newer"; blockType: string };

export interface UserMessage {
  kind: "user";
  id: string;
  text: string;
  /** When it was sent (ms since the epoch); null for a message loaded from a saved history. */
  at: number | null;
  /** The images sent with it (base64), in the order they were attached. */
  images?: readonly ToolImage[];
  /** The kinds of the parts a newer Warden saved in it, which this one cannot show. */
  newer?: readonly string[];
}

/** A saved message that could not be read (a read-only conversation shows where it was, and why). */
export interface UnreadableMessage {
  kind: "unreadable";
  id: string;
  reason: string;
}

export interface AssistantMessage {
  kind: "assistant";
  id: string;
  provider: string | null;
  model: string | null;
  /** When it began streaming (ms since the epoch); null for a message loaded from a saved history. */
  at: number | null;
  /** Text, thinking and tool calls in the order they happened. */
  segments: Segment[];
  streaming: boolean;
  /** What the provider counted; null when it reported nothing (many local servers) or not yet. */
  usage: Usage | null;
  /** Without usage: the context in use after this message, estimated from the request's size. */
  estimatedContext: number | null;
  stopReason: StopReason | null;
  partial: boolean;
  errors: ChatError[];
  /** How the message is produced, told to the user (chat:notice), e.g. tools described in the prompt. */
  notices: string[];
  /** Hooks that ran for this message but no tool call of it (`Stop`), in order; live only. */
  hooks?: readonly HookRun[];
}

export type ChatMessage = UserMessage | AssistantMessage | UnreadableMessage;

export interface Conversation {
  id: string;
  messageIds: string[];
  messages: Record<string, ChatMessage>;
  tools: Record<string, ToolBlock>;
  /** Errors not tied to a message. */
  errors: ChatError[];
  /** A turn is in progress (from send until a final stream-end or a fatal error). */
  running: boolean;
  provider: string | null;
  model: string | null;
  /** The context window the engine budgets with (from `chat:stream-start`); null before one. */
  contextWindow: number | null;
  /** Where the model was last sent a summary instead of the older messages (null: never). */
  compaction: CompactionMark | null;
  /** What the last rewind dropped, said at the end of the conversation until the next message. */
  rewound?: RewindMark | null;
  /**
   * A saved conversation that cannot be read whole: shown read-only, as far as it can be read
   * (nothing is sent into it), with why. Absent for a conversation that reads whole.
   */
  readOnly?: ReadOnlyMark | null;
  /** Why the conversation is not being saved, while it is not (`chat:saving`). */
  notSaved?: string | null;
  /** The task list the model keeps (`chat:todo`, or the last `todo_write` of a reopened one). */
  todo?: TodoItem[] | null;
  /** How far Warden's long look at the project's files has come (`chat:snapshot`), until it is done. */
  firstLook?: SnapshotProgress | null;
  /** The plan a plan-mode turn ended with (`chat:plan`, or the last `propose_plan` of a reopened one). */
  plan?: PlanMark | null;
  /** Hooks that ran for no message (`UserPromptSubmit`, `SessionStart`, `Notification`): live only. */
  hookRuns?: readonly LooseHookRun[];
}

/** A hook run tied to no message: shown in the conversation where it arrived. */
export interface LooseHookRun {
  /** The last message shown when it arrived (null: before the first). */
  afterMessageId: string | null;
  run: HookRun;
}

export interface ReadOnlyMark {
  /** Why it cannot be read whole, in words for the user. */
  reason: string;
}

/** A rewind as the view says it: how many shown messages were dropped, from which of the user's. */
export interface RewindMark {
  droppedMessages: number;
  /** The start of the user's message the rewind began at (it is back in the message field). */
  from: string;
}

/**
 * A compaction as the view draws it: the model is sent a summary instead of the conversation's first
 * `summarizedMessages` history messages (tool results count, as they are user messages there).
 */
export interface CompactionMark {
  summarizedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  /** The last shown message the summary stands for: the divider goes under it (null: none shown). */
  afterMessageId: string | null;
  /**
   * The message whose usage the context gauge read when the compaction happened: until a newer
   * message reports usage, the context in use is `tokensAfter` (null for a reopened conversation).
   */
  replacesUsageOf: string | null;
}

export interface PendingApproval {
  /** The engine's id for this question; the answer names it. */
  confirmId: string;
  /** The call it asks about (its block); calls of two conversations may share one. */
  toolId: string;
  conversationId: string;
  request: ToolConfirm;
  /** ms since epoch when the request arrived, for the countdown. */
  receivedAt: number;
}

export interface ChatState {
  conversations: Record<string, Conversation>;
  /** Approval requests in arrival order; the dialog shows the first. */
  approvals: PendingApproval[];
}

/** Things the UI itself did, folded into the same state. */
export type LocalAction =
  | { type: "user-send"; conversationId: string; messageId: string; text: string; images?: readonly ToolImage[] }
  | { type: "approval-answered"; confirmId: string; approved: boolean; code?: ToolErrorCode }
  | { type: "history-loaded"; conversationId: string; history: HistoryMessage[]; stamps?: MessageStamp[] }
  /** A saved conversation that cannot be read whole, as far as it can be read: it opens read-only. */
  | { type: "read-only-loaded"; conversationId: string; rows: SavedRow[]; reason: string }
  /** The conversation was rewound (`chat_rewind`): what the engine now holds replaces what is shown. */
  | { type: "conversation-rewound"; conversationId: string; history: HistoryMessage[]; stamps?: MessageStamp[] }
  /** The project's checkpoints of a conversation (`checkpoint_list`), placed on the calls they preceded. */
  /** Where a saved conversation was last compacted (`chat_compaction`; null: never). */
  | { type: "compaction-loaded"; conversationId: string; compaction: CompactionInfo | null }
  /** The user approved the plan under `messageId` with these steps (as edited): the card shows it approved. */
  | { type: "plan-approved"; conversationId: string; messageId: string; steps: string[] }
  | { type: "send-failed"; conversationId: string; message: string; code?: ErrorCode };

export type Action = ProtocolEvent | LocalAction;
