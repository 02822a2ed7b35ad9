// The blank state objects the reducer and the history loader start from.
import { emptyText } from "./textBuffer";
import type { AssistantMessage, Conversation, ToolBlock } from "./types";

export function emptyConversation(id: string): Conversation {
  return {
    id,
    messageIds: [],
    messages: {},
    tools: {},
    errors: [],
    running: false,
    provider: null,
    model: null,
    contextWindow: null,
    compaction: null,
  };
}

export function emptyAssistant(id: string): AssistantMessage {
  return {
    kind: "assistant",
    id,
    provider: null,
    model: null,
    at: null,
    segments: [],
    streaming: true,
    usage: null,
    estimatedContext: null,
    stopReason: null,
    partial: false,
    errors: [],
    notices: [],
  };
}

/** A tool block before anything is known of it but its ids: running, no output, no result. */
export function newToolBlock(toolId: string, conversationId: string, messageId: string): ToolBlock {
  return {
    toolId,
    conversationId,
    messageId,
    toolName: "",
    category: null,
    input: null,
    status: "running",
    output: emptyText(),
    outputDropped: 0,
    stderr: [],
    result: null,
    report: null,
    metadata: null,
    mcp: null,
    errorCode: null,
    confirm: null,
  };
}
