// TEMPORARY stand-in for the generated `src/bindings.ts`, shaped like tauri-specta's output, so the UI
// can be built before the shell side exports the real file. Only `ipc.ts` imports it. Delete it the
// moment `src/bindings.ts` exists and point `ipc.ts` at `../bindings`.
import { invoke as TAURI_INVOKE } from "@tauri-apps/api/core";
import * as TAURI_API_EVENT from "@tauri-apps/api/event";

export type Result<T, E> = { status: "ok"; data: T } | { status: "error"; error: E };

async function call<T>(cmd: string, args?: Record<string, unknown>): Promise<Result<T, string>> {
  try {
    return { status: "ok", data: await TAURI_INVOKE<T>(cmd, args) };
  } catch (e) {
    if (e instanceof Error) throw e;
    return { status: "error", error: String(e) };
  }
}

export const commands = {
  chatSend: (conversationId: string, content: string) => call<null>("chat_send", { conversationId, content }),
  chatCancel: (conversationId: string) => call<null>("chat_cancel", { conversationId }),
  chatToolApprove: (toolId: string, approved: boolean, reason: string | null, remember: Remember | null) =>
    call<null>("chat_tool_approve", { toolId, approved, reason, remember }),
  chatHistory: (conversationId: string) => call<Message[]>("chat_history", { conversationId }),
  settingsGet: () => call<Settings>("settings_get"),
  settingsSet: (settings: Settings) => call<null>("settings_set", { settings }),
  keysStatus: () => call<KeyStatus[]>("keys_status"),
  keysSet: (name: KeyName, value: string) => call<null>("keys_set", { name, value }),
  keysDelete: (name: KeyName) => call<null>("keys_delete", { name }),
  providerModels: (provider: ProviderId) => call<ModelEntry[]>("provider_models", { provider }),
  providerTest: (provider: ProviderId) => call<string>("provider_test", { provider }),
  ollamaProbe: () => call<boolean>("ollama_probe"),
  pickProjectFolder: () => call<string | null>("pick_project_folder"),
};

type EventObj<T> = { listen: (cb: TAURI_API_EVENT.EventCallback<T>) => Promise<TAURI_API_EVENT.UnlistenFn> };
function ev<T>(name: string): EventObj<T> {
  return { listen: (cb) => TAURI_API_EVENT.listen<T>(name, cb) };
}

export const events = {
  streamStart: ev<StreamStart>("chat:stream-start"),
  textDelta: ev<TextDelta>("chat:text-delta"),
  thinkingDelta: ev<ThinkingDelta>("chat:thinking-delta"),
  toolStart: ev<ToolStart>("chat:tool-start"),
  toolDelta: ev<ToolDelta>("chat:tool-delta"),
  toolResult: ev<ToolResult>("chat:tool-result"),
  toolConfirm: ev<ToolConfirm>("chat:tool-confirm"),
  streamEnd: ev<StreamEnd>("chat:stream-end"),
  chatError: ev<ChatError>("chat:error"),
};

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key in string]: JsonValue };
export type StreamStart = { conversationId: string; messageId: string; provider: string; model: string };
export type TextDelta = { conversationId: string; messageId: string; delta: string };
export type ThinkingDelta = { conversationId: string; messageId: string; delta: string };
export type ToolStart = { conversationId: string; messageId: string; toolId: string; toolName: string; input: JsonValue };
export type OutputStream = "stdout" | "stderr";
export type ToolDelta = { conversationId: string; messageId: string; toolId: string; chunk: string; stream?: OutputStream | null };
export type ToolStatus = "success" | "error";
export type ToolResult = { conversationId: string; messageId: string; toolId: string; status: ToolStatus; result: string; metadata?: JsonValue | null };
export type ApprovalPreview = { kind: "diff"; path: string; diff: string } | { kind: "command"; command: string; cwd: string };
export type DangerLevel = "safe" | "dangerous";
export type ToolConfirm = { conversationId: string; messageId: string; toolId: string; toolName: string; input: JsonValue; dangerLevel: DangerLevel; preview?: ApprovalPreview | null; timeoutSecs: number };
export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "cancelled" | "error" | "budget" | "max_turns";
export type Usage = { inputTokens: number; outputTokens: number };
export type StreamEnd = { conversationId: string; messageId: string; stopReason: StopReason; usage: Usage; partial: boolean };
export type ErrorCode = "AUTH_FAILED" | "RATE_LIMITED" | "OVERLOADED" | "QUOTA_EXCEEDED" | "BAD_REQUEST" | "SERVER_ERROR" | "NETWORK" | "IDLE_TIMEOUT" | "INVALID_RESPONSE" | "MISSING_CREDENTIALS" | "SANDBOX_VIOLATION" | "CONTEXT_BUDGET" | "INTERNAL";
export type ChatError = { conversationId: string; messageId?: string | null; code: ErrorCode; message: string; retryable: boolean; retryAfterSecs?: number | null };
export type ToolErrorCode = "VALIDATION_ERROR" | "FILE_NOT_FOUND" | "PERMISSION_DENIED" | "SANDBOX_VIOLATION" | "TOOL_TIMEOUT" | "SIZE_LIMIT_EXCEEDED" | "USER_REJECTED" | "APPROVAL_TIMEOUT" | "CANCELLED" | "BLOCKED_COMMAND" | "EXECUTION_ERROR" | "UNKNOWN_TOOL";
export type Remember = "once" | "session";
export type Role = "user" | "assistant";
export type ToolUse = { id: string; name: string; input: JsonValue; rawArguments: string | null };
export type ToolResultBlock = { toolUseId: string; toolName: string; content: string; isError: boolean };
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature: string | null }
  | { type: "redacted_thinking"; data: string }
  | ({ type: "tool_use" } & ToolUse)
  | ({ type: "tool_result" } & ToolResultBlock);
export type Message = { role: Role; content: ContentBlock[] };
export type TrustLevel = "supervised" | "guided" | "autonomous";
export type ProviderId = "anthropic" | "openai" | "openai_compatible" | "ollama";
export type ProviderSettings = { baseUrl?: string | null; model?: string | null; nativeTools?: boolean | null; contextWindow?: number | null };
export type ToolPermissions = { allowedTools?: string[] | null; writeGlobs?: string[]; bashTimeoutSecs?: number };
export type Settings = {
  trustLevel?: TrustLevel;
  activeProvider?: ProviderId;
  providers?: Partial<{ [key in ProviderId]: ProviderSettings }>;
  projectDir?: string | null;
  toolPermissions?: { [key in string]: ToolPermissions };
  approvalTimeoutSecs?: number;
  searxngUrl?: string;
};
export type KeyName = "anthropic" | "openai" | "openai_compatible" | "brave";
export type KeyStatus = { name: KeyName; isSet: boolean };
export type ModelEntry = { id: string; displayName: string | null; supportsTools: boolean | null; contextWindow: number | null };
