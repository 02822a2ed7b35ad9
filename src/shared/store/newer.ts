// What a newer Warden may have saved that this one does not know: a block of a new kind in a
// message, a new reason code on a tool result. The engine keeps them as they were (docs/
// ARCHITECTURE.md §10); the window shows them as "from a newer Warden" and never drops them.
import type { ContentBlock, ToolErrorCode } from "../ipc";

type KnownType = "text" | "thinking" | "redacted_thinking" | "tool_use" | "tool_result" | "image";

/** A block of a kind this build knows (every `ContentBlock` but a newer Warden's). */
export type KnownBlock = Extract<ContentBlock, { type: KnownType }>;

const KNOWN_TYPES: Record<KnownType, true> = {
  text: true,
  thinking: true,
  redacted_thinking: true,
  tool_use: true,
  tool_result: true,
  image: true,
};

const own = (table: object, key: string) => Object.hasOwn(table, key);

export function isKnownBlock(block: ContentBlock): block is KnownBlock {
  return own(KNOWN_TYPES, block.type);
}

// Every code the protocol has: the compiler checks this table has them all.
const TOOL_ERROR_CODES: Record<ToolErrorCode, true> = {
  VALIDATION_ERROR: true,
  FILE_NOT_FOUND: true,
  PERMISSION_DENIED: true,
  SANDBOX_VIOLATION: true,
  TOOL_TIMEOUT: true,
  SIZE_LIMIT_EXCEEDED: true,
  USER_REJECTED: true,
  APPROVAL_TIMEOUT: true,
  CANCELLED: true,
  BLOCKED_COMMAND: true,
  EXECUTION_ERROR: true,
  UNKNOWN_TOOL: true,
};

/** A saved tool result's code as this build knows it; null for none, or for a newer Warden's. */
export function knownToolErrorCode(code: string | null | undefined): ToolErrorCode | null {
  return code && own(TOOL_ERROR_CODES, code) ? (code as ToolErrorCode) : null;
}
