// The one door between the UI and the Tauri side. Nothing else in `src/` imports the generated
// bindings: if a command's generated signature changes, only this file changes with it. Payload
// types are re-exported from the bindings, never re-declared here, and so are the engine's limits.
import { commands, events } from "../bindings";

export { DEFAULT_BASE_URLS, DEFAULT_MODELS, MAX_IMAGE_BYTES, MAX_IMAGES } from "../bindings";
import type {
  AlwaysRule,
  CommandError as CommandFailure,
  KeyName,
  MenuAction,
  UpdateProgressEvent,
  ApprovalOpenEvent,
  McpElicit,
  McpElicitAnswer,
  PermissionRule,
  ProviderId,
  Remember,
  RemoteAskpassEvent,
  RemoteLinkEvent,
  RuleScope,
  SessionGrant,
  Settings,
  ToolImage,
  Value as JsonInput,
} from "../bindings";

export type {
  AppInfo,
  SnapshotProgress,
  TodoItem,
  PlanProposed,
  BoxRefusal,
  ApprovalOpenEvent,
  DataPlace,
  MenuAction,
  UpdateCheck,
  UpdateProgressEvent as UpdateProgress,
  ApprovalPreview,
  CallChanges,
  ChangeStatus,
  ChatError,
  CheckpointInfo,
  ClipboardImage,
  Compacted,
  CompactionInfo,
  ContentBlock,
  ConventionOrigin,
  ConventionProblem,
  ConventionsInUse,
  SkillEntry,
  SlashCommandEntry,
  ConversationHit,
  ConversationPage,
  ConversationSummary,
  DangerLevel,
  ErrorCode,
  FileChange,
  InstructionFile,
  InstructionsInUse,
  Value as JsonValue,
  KeyName,
  KeyCheck,
  KeyStatus,
  LearnedModel,
  McpElicit,
  McpIgnoredField,
  McpOrigin,
  McpToolInfo,
  NetworkRequest,
  SessionGrant,
  Theme,
  McpServerConfig,
  McpServerStatus,
  McpResourceText,
  McpToolChoice,
  ProjectMcpOffer,
  Message as HistoryMessage,
  MessageStamp,
  ManagedPolicy,
  ModelEntry,
  ModelPrice,
  ModelUsage,
  DayUsage,
  Notice,
  ProviderId,
  ProviderSettings,
  Remember,
  RemoteLinkEvent as RemoteLink,
  RemoteAskpassEvent,
  RemoteOpened,
  KnownRemote,
  RemoteSearchHits,
  ReadOnlyHistory,
  RestorePlan,
  RestoreReport,
  RunningInProject,
  SavedRow,
  Saving,
  Settings,
  ProviderReadiness,
  SandboxStatus,
  BoxHomeNotice,
  SettingsIntegrity,
  ToolCategory,
  ToolInfo,
  StopReason,
  StreamEnd,
  StreamStart,
  TextDelta,
  ThinkingDelta,
  ToolConfirm,
  ToolDelta,
  ToolErrorCode,
  ToolImage,
  ToolPermissions,
  PermissionRule,
  AlwaysRule,
  AskStep,
  RuleCheck,
  RuleEffect,
  RuleImport,
  ImportCandidate,
  ImportSkipped,
  RuleOrigin,
  RuleScope,
  ScopedRule,
  SuggestedRule,
  UnknownBlock,
  ToolResult,
  ToolReport,
  BoxUse,
  ForwardedPort,
  HookCommand,
  HookMatcher,
  HookRun,
  ProjectHooksOffer,
  RemoteProjectOffers,
  HostReached,
  KeptAside,
  RuleNote,
  SearchHit,
  ToolStart,
  TrustLevel,
  Usage,
} from "../bindings";

// The chat's protocol events; the window's own — `mcpElicit` (an MCP server's form), `menuAction`
// (a menu item), `updateProgress`, `approvalOpen` (a notification clicked), `remoteLink` (a remote
// project's link), `remoteAskpass` (what ssh asks while it connects) — are listened to apart.
type WindowEvents = "mcpElicit" | "menuAction" | "updateProgress" | "approvalOpen" | "remoteLink" | "remoteAskpass";
type Events = Omit<typeof events, WindowEvents>;
type EventKey = keyof Events;
/** `streamStart` → `stream-start`. */
type Kebab<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${Kebab<Tail>}`
  : "";
/** The protocol name of a generated event: `chatStreamStart` → `chat:stream-start`. */
type NameOf<K extends string> = K extends `chat${infer Rest}` ? `chat:${Kebab<Uncapitalize<Rest>>}` : never;
type PayloadOf<K extends EventKey> = Parameters<Parameters<Events[K]["listen"]>[0]>[0]["payload"];

/**
 * One protocol event as the engine names it: `{event, payload}` (docs/ARCHITECTURE.md §3). Made
 * from the generated `events` (which the protocol's one list makes), so no name is spelled here.
 */
export type ProtocolEvent = { [K in EventKey]: { event: NameOf<K>; payload: PayloadOf<K> } }[EventKey];

export type ProtocolEventName = ProtocolEvent["event"];

/** A command that failed on the Rust side, with its message as the user should read it. */
export class CommandError extends Error {
  constructor(
    readonly command: string,
    message: string,
    /** The Rust side's `CommandErrorCode` (AUTH_FAILED, KEYCHAIN…), when it sent one. */
    readonly code: CommandFailure["code"] | null = null,
    /** The files the error is about (those changed outside Warden, for CHANGED_OUTSIDE). */
    readonly paths: string[] = [],
  ) {
    super(message);
    this.name = "CommandError";
  }
}

type Res<T> = { status: "ok"; data: T } | { status: "error"; error: CommandFailure | string };

async function unwrap<T>(command: string, p: Promise<Res<T>>): Promise<T> {
  const r = await p;
  if (r.status === "ok") return r.data;
  const e: unknown = r.error;
  if (typeof e === "string") throw new CommandError(command, e);
  if (e && typeof e === "object" && "message" in e) {
    const code = "code" in e && typeof e.code === "string" ? (e.code as CommandFailure["code"]) : null;
    const paths = "paths" in e && Array.isArray(e.paths) ? e.paths.filter((p): p is string => typeof p === "string") : [];
    throw new CommandError(command, String(e.message), code, paths);
  }
  throw new CommandError(command, JSON.stringify(e));
}

/** An answer to a `chat:tool-confirm`: it names the question (`confirmId`, the engine's own id, never
 * the call's) and the conversation that asked, where the window sends it. */
/** How a message is sent besides its text (`chat_send`). */
export interface SendMode {
  /** Plan mode: the model only reads, and ends by proposing a plan (`chat:plan`). */
  plan?: boolean;
  /** The steps of the plan the user approved, as edited: they become the task list first. */
  approvedPlan?: string[];
}

export interface ApproveArgs {
  conversationId: string;
  confirmId: string;
  approved: boolean;
  reason?: string;
  remember?: Remember;
  /** With `remember: "always"`: the allow rule to save (the card's edit of `suggestedRule`). */
  always?: AlwaysRule;
}

export const api = {
  /** Opens a web address in the system browser (only http/https; never in the window). */
  openLink: (url: string) => unwrap("open_link", commands.openLink(url)),
  /** The project's AGENTS.md files a conversation started now reads, and whether global instructions are set. */
  instructionsInUse: () => unwrap("instructions_in_use", commands.instructionsInUse()),
  /** Opens an instruction file in use (a path `instructionsInUse` gave) in the user's own app for it. */
  instructionsOpen: (path: string) => unwrap("instructions_open", commands.instructionsOpen(path)),
  /** The skills and custom slash commands a conversation started now would have (switched-off skills marked), and the files left out. */
  conventionsList: () => unwrap("conventions_list", commands.conventionsList()),
  /** Offers the skill `name` to conversations started from now on (`on`), or stops offering it. */
  skillSwitch: (name: string, on: boolean) => unwrap("skill_switch", commands.skillSwitch(name, on)),
  /**
   * Sends a message, with images when given (base64; the engine checks and scales them down); in
   * plan mode, or with the steps of the plan the user approved (they become the task list).
   */
  chatSend: (conversationId: string, content: string, images: ToolImage[] = [], mode: SendMode = {}) =>
    unwrap(
      "chat_send",
      commands.chatSend(
        conversationId,
        content,
        images.length ? images : null,
        mode.plan ? true : null,
        mode.approvedPlan?.length ? mode.approvedPlan : null,
      ),
    ),
  chatCancel: (conversationId: string) => unwrap("chat_cancel", commands.chatCancel(conversationId)),
  approveTool: ({ conversationId, confirmId, approved, reason, remember, always }: ApproveArgs) =>
    unwrap(
      "chat_tool_approve",
      commands.chatToolApprove(conversationId, confirmId, approved, reason ?? null, remember ?? null, always ?? null),
    ),
  /** The conversation so far; rejects with CONVERSATION_UNREADABLE for a saved one that cannot be read whole. */
  chatHistory: (conversationId: string) => unwrap("chat_history", commands.chatHistory(conversationId)),
  /** What can be read of a saved conversation that cannot be read whole (shown read-only), and why. */
  chatHistoryReadOnly: (conversationId: string) =>
    unwrap("chat_history_read_only", commands.chatHistoryReadOnly(conversationId)),
  /** When each saved message was written and which model answered, in the order of `chatHistory`. */
  chatMessageStamps: (conversationId: string) =>
    unwrap("chat_message_stamps", commands.chatMessageStamps(conversationId)),
  /**
   * "Compact now": the model is sent a summary of the older messages from now on (`chat:compacted`
   * says where). Rejects with TURN_RUNNING while it answers, INVALID_INPUT when too short, PROVIDER.
   */
  chatCompact: (conversationId: string) => unwrap("chat_compact", commands.chatCompact(conversationId)),
  /** Where a saved conversation was last compacted (null: never), for the divider in its history. */
  chatCompaction: (conversationId: string) => unwrap("chat_compaction", commands.chatCompaction(conversationId)),
  /** The saved conversations, newest first: `limit` of them from `offset`. */
  chatList: (offset: number, limit: number) => unwrap("chat_list", commands.chatList(offset, limit)),
  /**
   * The saved conversations holding every word of `query` (the last one as a prefix), titles
   * first, at most `limit` (1 to 200); a query with no words finds none.
   */
  chatSearch: (query: string, limit: number) => unwrap("chat_search", commands.chatSearch(query, limit)),
  /** Names a saved conversation; an empty title names it after its first message again. */
  chatRename: (conversationId: string, title: string) => unwrap("chat_rename", commands.chatRename(conversationId, title)),
  /** Deletes a conversation (refused while it is answering); `chatRestore` brings it back within a minute. */
  chatDelete: (conversationId: string) => unwrap("chat_delete", commands.chatDelete(conversationId)),
  /** Brings back a conversation deleted moments ago (rejects with INVALID_INPUT once it is gone for good). */
  chatRestore: (conversationId: string) => unwrap("chat_restore", commands.chatRestore(conversationId)),
  /** Drops the `userMessageIndex`-th message the user wrote and all after it (files stay); its text comes back. */
  chatRewind: (conversationId: string, userMessageIndex: number) =>
    unwrap("chat_rewind", commands.chatRewind(conversationId, userMessageIndex)),
  /** The tokens the saved answers counted on each day, by model: day i from `dayStartsMs[i]` to `dayStartsMs[i + 1]`. */
  usageDays: (dayStartsMs: number[]) => unwrap("usage_days", commands.usageDays(dayStartsMs)),
  /** What "Allow for this session" remembered in a conversation (none when it is not open). */
  chatGrants: (conversationId: string) => unwrap("chat_grants", commands.chatGrants(conversationId)),
  /** Forget one of them: the calls it covered ask again. */
  chatGrantRevoke: (conversationId: string, grant: SessionGrant) =>
    unwrap("chat_grant_revoke", commands.chatGrantRevoke(conversationId, grant)),
  settingsGet: () => unwrap("settings_get", commands.settingsGet()),
  settingsSet: (settings: Settings) => unwrap("settings_set", commands.settingsSet(settings)),
  /** Whether the settings file is the one Warden wrote; when not, why and what Warden does instead. */
  settingsIntegrity: () => unwrap("settings_integrity", commands.settingsIntegrity()),
  /** How commands are contained on this machine, and what the project's box lets them write and see. */
  sandboxStatus: () => unwrap("sandbox_status", commands.sandboxStatus()),
  boxHomeNotice: () => unwrap("box_home_notice", commands.boxHomeNotice()),
  boxHomeNoticeDismiss: () => unwrap("box_home_notice_dismiss", commands.boxHomeNoticeDismiss()),
  /** Remove the project's cache layer (what its commands wrote to the package caches). */
  sandboxClearCacheLayer: () => unwrap("sandbox_clear_cache_layer", commands.sandboxClearCacheLayer()),
  sandboxAllowRead: (conversationId: string, path: string) =>
    unwrap("sandbox_allow_read", commands.sandboxAllowRead(conversationId, path)),
  gitAsideRestore: (conversationId: string, from: string, aside: string) =>
    unwrap("git_aside_restore", commands.gitAsideRestore(conversationId, from, aside)),
  /** Every tool: plain-language label, category, danger, and whether a new project allows it. */
  toolsCatalog: () => unwrap("tools_catalog", commands.toolsCatalog()),
  /** Accept the settings file as it is: Warden seals it and uses it. */
  settingsAcceptFile: () => unwrap("settings_accept_file", commands.settingsAcceptFile()),
  keysStatus: () => unwrap("keys_status", commands.keysStatus()),
  keysSet: (name: KeyName, value: string) => unwrap("keys_set", commands.keysSet(name, value)),
  keysDelete: (name: KeyName) => unwrap("keys_delete", commands.keysDelete(name)),
  providerModels: (provider: ProviderId) => unwrap("provider_models", commands.providerModels(provider)),
  /** Resolves when the endpoint and key work; rejects with the provider's complaint. */
  providerTest: (provider: ProviderId) => unwrap("provider_test", commands.providerTest(provider)),
  /** Whether a provider can answer now (key, server address, a local Ollama that answers), and why not. */
  providerReadiness: (provider: ProviderId) => unwrap("provider_readiness", commands.providerReadiness(provider)),
  /** Every permission rule that applies in the project: the organisation's, the user's and the project's. */
  rulesList: () => unwrap("rules_list", commands.rulesList()),
  /** Adds a rule to this project's rules or the user's; rejects with INVALID_INPUT (and why) for one that does not parse. */
  rulesAdd: (scope: RuleScope, rule: PermissionRule) => unwrap("rules_add", commands.rulesAdd(scope, rule)),
  /** Removes the rule that says what `rule` says from `scope`'s rules; false when there was none. */
  rulesRemove: (scope: RuleScope, rule: PermissionRule) => unwrap("rules_remove", commands.rulesRemove(scope, rule)),
  /** What the policy would do with a call of `tool` with `input` in the project, and why. */
  rulesCheck: (tool: string, input: JsonInput) => unwrap("rules_check", commands.rulesCheck(tool, input)),
  /**
   * Claude Code's and codex's rules (the user's and the project's files), converted for Warden: shown
   * to be ticked, nothing added. Each ticked candidate is then added with `rulesAdd(scope, rule)`.
   */
  rulesImportPreview: () => unwrap("rules_import_preview", commands.rulesImportPreview()),
  /** Every configured MCP server: its state, tools and (when it failed) what it printed; started when needed. */
  mcpStatus: () => unwrap("mcp_status", commands.mcpStatus()),
  /** The servers of a pasted `mcpServers` JSON document, checked (rejects with the reason). */
  mcpParse: (json: string) => unwrap("mcp_parse", commands.mcpParse(json)),
  /** Signs in to an MCP server reached by URL: its page opens in the browser; resolves once signed in. */
  mcpSignIn: (name: string) => unwrap("mcp_sign_in", commands.mcpSignIn(name)),
  /** Reads an MCP server's resource to go with the next message (text; binary parts named; cut at 50,000 characters). */
  mcpReadResource: (name: string, uri: string) => unwrap("mcp_read_resource", commands.mcpReadResource(name, uri)),
  /** Forgets the sign-in to an MCP server (its tokens leave the keychain). */
  mcpSignOut: (name: string) => unwrap("mcp_sign_out", commands.mcpSignOut(name)),
  /** The user's answer to an MCP server's form (`accept` with the values, `decline`, `cancel`). */
  mcpElicitAnswer: (requestId: string, answer: McpElicitAnswer) =>
    unwrap("mcp_elicit_answer", commands.mcpElicitAnswer(requestId, answer)),
  /** Keeps a secret in the keychain for MCP entries that say `keychain:NAME` in env or headers. */
  mcpSecretSet: (name: string, value: string) => unwrap("mcp_secret_set", commands.mcpSecretSet(name, value)),
  /** The chosen project's own `.mcp.json` (its servers, and whether this content was approved). */
  mcpProjectOffer: () => unwrap("mcp_project_offer", commands.mcpProjectOffer()),
  /** Use (or not) the project's `.mcp.json` whose content has `digest`. */
  mcpProjectChoose: (digest: string, approved: boolean) =>
    unwrap("mcp_project_choose", commands.mcpProjectChoose(digest, approved)),
  /** The chosen project's own hooks (its `.claude/settings.json`): every command exactly, and whether these were approved. */
  hooksProjectOffer: () => unwrap("hooks_project_offer", commands.hooksProjectOffer()),
  /** Run (`approve`) the project's hooks whose digest the user was shown, or stop running them. */
  hooksProjectChoose: (digest: string, approve: boolean) =>
    unwrap("hooks_project_choose", commands.hooksProjectChoose(digest, approve)),
  /** What in the user's hooks would not run (unknown event, bad matcher, empty command…), in words; empty: all would. */
  hooksCheck: (hooks: HooksConfig) => unwrap("hooks_check", commands.hooksCheck(hooks)),
  pickProjectFolder: () => unwrap("pick_project_folder", commands.pickProjectFolder()),
  /** The image on the system clipboard (null when it holds none): WebKitGTK gives a paste event no image. */
  clipboardImage: () => unwrap("clipboard_image", commands.clipboardImage()),
  /** The project's checkpoints, oldest first (of one conversation, when given). */
  checkpointList: (conversationId: string | null) => unwrap("checkpoint_list", commands.checkpointList(conversationId)),
  /** Stops Warden's look at the project's files: no checkpoints in this project until it is opened again. */
  /** Stops the first look at the project of `conversationId` (a remote project's: there). */
  checkpointStopScan: (conversationId: string | null) => unwrap("checkpoint_stop_scan", commands.checkpointStopScan(conversationId)),
  /** The files that differ between two checkpoints, or one and the project now (`toId` null). */
  checkpointChanges: (fromId: string, toId: string | null) =>
    unwrap("checkpoint_changes", commands.checkpointChanges(fromId, toId)),
  /**
   * The unified diff between two checkpoints (or one and now), of one file when `path` is given;
   * of `conversationId`'s project (a remote one's is read on its machine).
   */
  checkpointPatch: (conversationId: string | null, fromId: string, toId: string | null, path: string | null) =>
    unwrap("checkpoint_patch", commands.checkpointPatch(conversationId, fromId, toId, path)),
  /** What restoring `paths` (all files when empty) of checkpoint `id` would change and stop. */
  checkpointRestorePlan: (conversationId: string | null, id: string, paths: string[]) =>
    unwrap("checkpoint_restore_plan", commands.checkpointRestorePlan(conversationId, id, paths)),
  /**
   * Puts `paths` (all files when empty) back as checkpoint `id` recorded them, stopping what runs
   * in the project first (the user agreed to the plan). Rejects with code CHANGED_OUTSIDE (and
   * the files in `paths`) unless `force`, or TURN_RUNNING.
   */
  checkpointRestore: (conversationId: string | null, id: string, paths: string[], force: boolean) =>
    unwrap("checkpoint_restore", commands.checkpointRestore(conversationId, id, paths, force, true)),
  /**
   * Opens the project `host:/path` on another machine, over ssh or `transport` (a command giving a
   * pipe to `warden serve --stdio` there): its conversation runs there, with the same chat commands.
   */
  remoteOpen: (target: string, transport: string | null, resume: string | null = null, remoteEnvKeys = false) =>
    unwrap("remote_open", commands.remoteOpen(target, transport, resume, remoteEnvKeys)),
  /** The remote projects opened before, newest first (listed after a restart). */
  remoteKnown: () => unwrap("remote_known", commands.remoteKnown()),
  /** Settings → Sandbox's Clear for a linked remote project: its cache layer there is removed. */
  remoteClearCacheLayer: (conversationId: string) => unwrap("remote_clear_cache_layer", commands.remoteClearCacheLayer(conversationId)),
  /** The list's search over the linked remote projects: the conversations of each one's folder there, found there. */
  remoteSearch: (query: string, limit: number) => unwrap("remote_search", commands.remoteSearch(query, limit)),
  /** The box a linked remote project's commands get on its machine, asked there. */
  remoteSandboxStatus: (conversationId: string) => unwrap("remote_sandbox_status", commands.remoteSandboxStatus(conversationId)),
  /** The composer's "Attach a resource" over a linked remote project's conversation: read there. */
  remoteMcpReadResource: (conversationId: string, name: string, uri: string) =>
    unwrap("remote_mcp_read_resource", commands.remoteMcpReadResource(conversationId, name, uri)),
  /** Settings → MCP servers for a linked remote project: the servers its session runs there, asked there. */
  remoteMcpStatus: (conversationId: string) => unwrap("remote_mcp_status", commands.remoteMcpStatus(conversationId)),
  /** The conversations saved in a linked remote project there, newest first (each taken up with remoteOpen). */
  remoteConversations: (conversationId: string) => unwrap("remote_conversations", commands.remoteConversations(conversationId)),
  /** The instructions a linked remote project's conversation gets, read there. */
  remoteInstructionsInUse: (conversationId: string) =>
    unwrap("remote_instructions_in_use", commands.remoteInstructionsInUse(conversationId)),
  /** A linked remote project's own hooks and `.mcp.json`, read there, as they wait for an answer. */
  remoteProjectOffers: (conversationId: string) => unwrap("remote_project_offers", commands.remoteProjectOffers(conversationId)),
  /** Run (or stop running) a linked remote project's hooks shown with `digest`; its session takes it up before the next message. */
  remoteHooksChoose: (conversationId: string, digest: string, approve: boolean) =>
    unwrap("remote_hooks_choose", commands.remoteHooksChoose(conversationId, digest, approve)),
  /** Use (or decline) a linked remote project's `.mcp.json` shown with `digest`. */
  remoteMcpChoose: (conversationId: string, digest: string, approved: boolean) =>
    unwrap("remote_mcp_choose", commands.remoteMcpChoose(conversationId, digest, approved)),
  /** The skills and custom commands a linked remote project's conversation gets, read there. */
  remoteConventions: (conversationId: string) => unwrap("remote_conventions", commands.remoteConventions(conversationId)),
  /** A linked remote project's box notice, once (null: nothing to say), asked there. */
  remoteBoxNotice: (conversationId: string) => unwrap("remote_box_notice", commands.remoteBoxNotice(conversationId)),
  remoteBoxNoticeDismiss: (conversationId: string) =>
    unwrap("remote_box_notice_dismiss", commands.remoteBoxNoticeDismiss(conversationId)),
  remoteForget: (conversationId: string) => unwrap("remote_forget", commands.remoteForget(conversationId)),
  remoteAskpassAnswer: (id: string, answer: string | null) =>
    unwrap("remote_askpass_answer", commands.remoteAskpassAnswer(id, answer)),
  /** What copying this Warden to `target`'s machine would do, in words (it asks the machine first). */
  remoteInstallPlan: (target: string) => unwrap("remote_install_plan", commands.remoteInstallPlan(target)),
  remoteInstall: (target: string) => unwrap("remote_install", commands.remoteInstall(target)),
  /** The About box: version, licence, where data lives, how this copy is updated. */
  appInfo: () => unwrap("app_info", commands.appInfo()),
  /** Opens the log folder in the system's file manager (for a bug report). */
  logsOpen: () => unwrap("logs_open", commands.logsOpen()),
  /** Asks the update server whether a newer Warden exists (or says why this copy does not update itself). */
  updateCheck: () => unwrap("update_check", commands.updateCheck()),
  /** Downloads, verifies and installs the update the last check found, then restarts into it. */
  updateInstall: () => unwrap("update_install", commands.updateInstall()),
};

export type Api = typeof api;

/** The user's hooks as Settings keep them: by event, Claude Code's shape (docs/HOOKS.md). */
export type HooksConfig = NonNullable<Settings["hooks"]>;

/**
 * A listener's stop function that never leaves a rejection behind. Tauri's unlisten is async and
 * rejects once the window's event bridge is gone (a closing window; a test's torn-down mocks); the
 * listener is gone with the bridge, so the failure is only logged.
 */
async function stoppable(listening: Promise<() => void>, what: string): Promise<() => void> {
  const unlisten = await listening;
  const failed = (e: unknown) => console.warn(`could not stop listening to ${what}`, e);
  return () => {
    // Called at once (a component's unmount stops it before anything else goes); typed `void`,
    // it returns Tauri's promise.
    try {
      Promise.resolve(unlisten() as unknown).catch(failed);
    } catch (e) {
      failed(e);
    }
  };
}

/** Forms MCP servers ask the user to fill in; resolves with a function that stops listening. */
export function subscribeMcpForms(onForm: (form: McpElicit) => void): Promise<() => void> {
  return stoppable(events.mcpElicit.listen((e) => onForm(e.payload)), "mcpElicit");
}

/** Menu items the window carries out; resolves with a function that stops listening. */
export function subscribeMenu(onAction: (action: MenuAction) => void): Promise<() => void> {
  return stoppable(events.menuAction.listen((e) => onAction(e.payload)), "menuAction");
}

/** An approval's desktop notification was clicked: the app is up; show its conversation's card. */
export function subscribeApprovalOpen(onOpen: (open: ApprovalOpenEvent) => void): Promise<() => void> {
  return stoppable(events.approvalOpen.listen((e) => onOpen(e.payload)), "approvalOpen");
}

/** How the link to a remote project's engine stands, each time it changes (`remote:link`). */
export function subscribeRemoteLink(onLink: (link: RemoteLinkEvent) => void): Promise<() => void> {
  return stoppable(events.remoteLink.listen((e) => onLink(e.payload)), "remoteLink");
}

/** What ssh asks while it connects to a remote project, and (`open: false`) a question withdrawn. */
export function subscribeRemoteAskpass(onQuestion: (question: RemoteAskpassEvent) => void): Promise<() => void> {
  return stoppable(events.remoteAskpass.listen((e) => onQuestion(e.payload)), "remoteAskpass");
}

/** How far an update's download and install has come. */
export function subscribeUpdateProgress(onProgress: (progress: UpdateProgressEvent) => void): Promise<() => void> {
  return stoppable(events.updateProgress.listen((e) => onProgress(e.payload)), "updateProgress");
}

/**
 * Listen to every protocol event and hand each to `onEvent` in arrival order.
 * Resolves with a function that stops listening.
 */
export async function subscribeProtocolEvents(onEvent: (e: ProtocolEvent) => void): Promise<() => void> {
  const {
    mcpElicit: _form,
    menuAction: _menu,
    updateProgress: _update,
    approvalOpen: _open,
    remoteLink: _link,
    remoteAskpass: _askpass,
    ...chat
  } = events;
  const unlisteners = await Promise.all(
    Object.values(chat).map((generated) =>
      // Tauri hands each event its own name: the protocol name the engine gave it.
      stoppable(
        generated.listen((e) => onEvent({ event: e.event, payload: e.payload } as ProtocolEvent)),
        "the conversation's events",
      ),
    ),
  );
  return () => unlisteners.forEach((u) => u());
}
