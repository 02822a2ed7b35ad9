// Every `data-testid` the end-to-end specs (tests/e2e/**) and the vitest tests select by.
// Plain string literals, no imports: the WebDriver specs may read this file directly.
// Changing a value here breaks those specs — tell the shell engineer.

export const TID = {
  // app shell
  appRoot: "app-root",
  settingsOpen: "settings-open",
  settingsClose: "settings-close",
  settingsPanel: "settings-panel",
  settingsSave: "settings-save",
  settingsSaved: "settings-saved",
  settingsIntegrityNotice: "settings-integrity-notice",
  settingsAcceptFile: "settings-accept-file",
  setupScreen: "setup-screen",
  setupUseOllama: "setup-use-ollama",
  setupOpenSettings: "setup-open-settings",
  setupKeyProvider: "setup-key-provider",
  setupKeyInput: "setup-key-input",
  setupKeySave: "setup-key-save",
  setupSkip: "setup-skip",
  noProject: "no-project", // the top bar when no project folder is chosen
  setupKeyLinks: "setup-key-links", // where to get a key, opened in the system browser
  setupProject: "setup-project",
  setupPickProject: "setup-pick-project",
  setupPage: "setup-page", // the setup screen's scroll box
  setupModelDone: "setup-model-done", // step 1 done: which provider Warden will use
  setupStart: "setup-start", // after step 1: on to the chat
  settingsNav: "settings-nav", // the list of Settings' sections
  settingsNavItem: "settings-nav-item", // + data-section
  settingsSection: "settings-section", // + data-section; hidden when the filter leaves it out
  settingsFilter: "settings-filter",
  settingsNoMatch: "settings-no-match",
  instructionsIndicator: "instructions-indicator", // the top bar's "Using AGENTS.md"
  instructionsInUse: "instructions-in-use", // what it opens: the files, whether global instructions are set
  instructionFiles: "instruction-files", // the project's instruction files in use (top bar and Settings)
  instructionFileOpen: "instruction-file-open", // opens one in the user's own app; + data-path
  instructionFileCut: "instruction-file-cut", // "too long: only the first … reach the model"
  instructionFilesNone: "instruction-files-none",
  globalInstructions: "global-instructions", // Settings → Instructions' text
  globalInstructionsTooLong: "global-instructions-too-long",
  // remote projects (docs/REMOTE.md): a project on another machine, its session run there
  remoteOpen: "remote-open", // the top bar's "Open a remote project…"
  remoteDialog: "remote-dialog",
  remoteTarget: "remote-target", // host:/path
  remoteTransport: "remote-transport", // the custom transport command (optional)
  remoteConnect: "remote-connect",
  remoteConnecting: "remote-connecting", // "Connecting to HOST…"
  remoteError: "remote-error", // the target's shape, or why connecting failed
  remoteProject: "remote-project", // the top bar, while a remote conversation is shown: host:/path
  remoteMachine: "remote-machine", // beside it: "as USER · box: …"
  remoteLinkBanner: "remote-link-banner", // + data-state = reconnecting | lost
  remoteReopen: "remote-reopen", // on a lost link: the dialog again, filled in
  remoteSandbox: "remote-sandbox", // Settings → Sandbox: a linked remote project's box, asked there when opened; + data-target
  instructionFileThere: "instruction-file-there", // a remote project's instruction file, named (read there); + data-path
  remoteEnvKeys: "remote-env-keys", // "Open a remote project…": use that machine's own API keys
  remoteSavedOpen: "remote-saved-open", // the top bar, over a remote conversation: the conversations saved in that project there
  remoteSaved: "remote-saved", // their dialog
  remoteSavedItem: "remote-saved-item", // one of them; + data-id, data-current
  remoteSavedError: "remote-saved-error",
  remoteMcp: "remote-mcp", // Settings → MCP servers: a linked remote project's servers, asked there when opened; + data-target
  remoteMcpServer: "remote-mcp-server", // one of them; + data-name, data-state
  remoteResume: "remote-resume", // on a lost link, or a project opened before this start: take its conversation up again there
  remoteCopyOffer: "remote-copy-offer", // no Warden (of this version) there: offers to copy this one
  remoteCopyPlan: "remote-copy-plan", // asks the machine, then says what the copy will do
  remoteCopyConfirm: "remote-copy-confirm", // "Copy and connect"
  remoteCopyStatus: "remote-copy-status", // "Asking …" / "Copying Warden to …"
  sshQuestion: "ssh-question", // what ssh asks while it connects; + data-kind = hostKey | confirm | secret
  sshQuestionPrompt: "ssh-question-prompt", // ssh's own words (a host key's holds its fingerprint)
  sshQuestionSecret: "ssh-question-secret", // the hidden field of a passphrase or password
  sshQuestionAccept: "ssh-question-accept", // "Accept the key and connect", "Yes", "Send"
  sshQuestionRefuse: "ssh-question-refuse",

  // conversations
  conversationList: "conversation-list",
  conversationNew: "conversation-new",
  conversationItem: "conversation-item", // + data-conversation-id
  conversationRename: "conversation-rename", // on the active conversation, once saved
  conversationRenameInput: "conversation-rename-input",
  conversationDelete: "conversation-delete", // on the active conversation; asks a second click
  conversationError: "conversation-error", // a rename or delete that failed
  conversationSearch: "conversation-search", // the list's search field
  conversationHit: "conversation-hit", // a search result; + data-conversation-id
  conversationSnippet: "conversation-snippet", // a result's matching line, the words in <mark>
  conversationSearchEmpty: "conversation-search-empty", // "No conversations match …"
  conversationSearchUnsearched: "conversation-search-unsearched", // "Not searched: host:/path (why)"
  conversationSearchError: "conversation-search-error",
  conversationDeleted: "conversation-deleted", // "Conversation deleted — Undo", for a few seconds
  conversationUndo: "conversation-undo",
  conversationView: "conversation-view", // + data-message-count (all messages, mounted or not)
  readOnlyBanner: "read-only-banner", // a saved conversation that cannot be read whole: why, and Try again
  readOnlyRetry: "read-only-retry",
  notSaved: "not-saved", // the conversation is not being saved, and why (chat:saving)
  messageUnreadable: "message-unreadable", // a saved message that could not be read; + data-message-id
  messageNewer: "message-newer", // a part a newer Warden saved that this one cannot show; + data-block-type
  messagesEarlier: "messages-earlier", // mounts older messages than the window shows

  // messages
  message: "message", // + data-message-id, data-role = user | assistant
  messageText: "message-text", // the rendered markdown of one text segment
  thinkingBlock: "thinking-block",
  thinkingToggle: "thinking-toggle",
  // hooks (docs/HOOKS.md): a run in the transcript, live only
  hookRun: "hook-run", // + data-hook-event, data-origin, data-contained, data-place = tool | message | conversation
  hookRunToggle: "hook-run-toggle",
  hookRunCommand: "hook-run-command", // expanded: the exact command
  hookRunExit: "hook-run-exit", // expanded: exit code or timed out
  hookRunOutput: "hook-run-output", // expanded: what it printed
  // the project's own hooks (.claude/settings.json), offered for approval
  hooksOffer: "hooks-offer", // + data-state = approved | changed | new
  hooksOfferCommand: "hooks-offer-command", // one command, exactly
  hooksOfferProblem: "hooks-offer-problem",
  hooksOfferRun: "hooks-offer-run", // "Run these hooks"
  hooksOfferDecline: "hooks-offer-decline", // "Don't run"
  hooksOfferError: "hooks-offer-error",
  hooksOfferThere: "hooks-offer-there", // the machine a remote project's hooks are on
  // settings → hooks
  hooksSection: "hooks-section",
  hookRow: "hook-row", // + data-event, data-matcher
  hookEdit: "hook-edit",
  hookRemove: "hook-remove",
  hookOutsideBox: "hook-outside-box", // a row's "runs outside the box" switch
  hookOutsideWarning: "hook-outside-warning",
  hookAdd: "hook-add", // opens the form for a new hook
  hookFormEvent: "hook-form-event",
  hookFormMatcher: "hook-form-matcher",
  hookFormCommand: "hook-form-command",
  hookFormTimeout: "hook-form-timeout",
  hookFormOutsideBox: "hook-form-outside-box",
  hookFormSave: "hook-form-save",
  hookFormCancel: "hook-form-cancel",
  hooksProblems: "hooks-problems", // what hooks_check found: nothing was saved
  hooksImport: "hooks-import", // the Import JSON textarea
  hooksImportSave: "hooks-import-save",
  hooksImportError: "hooks-import-error", // the JSON does not parse or is not a hooks object
  chatError: "chat-error", // + data-code
  chatErrorAction: "chat-error-action",
  contextGauge: "context-gauge", // + data-used, data-window
  costLabel: "cost-label",
  usageNotReported: "usage-not-reported",
  // cost (docs/COST.md)
  messageUsage: "message-usage", // an answer's tokens in its meta line
  messageCost: "message-cost", // its cost, when its model has a price; + data-price-source = default | user
  conversationCost: "conversation-cost", // the top bar's "This conversation" line
  todayCost: "today-cost", // the top bar's cost of today across conversations
  costReport: "cost-report", // CostReport (the /cost block)
  costReportConversation: "cost-report-conversation",
  costReportToday: "cost-report-today",
  pricesSection: "prices-section", // Settings → Model prices
  priceRow: "price-row", // + data-model, data-source = default | user
  priceInput: "price-input",
  priceOutput: "price-output",
  priceReset: "price-reset", // back to the default price
  priceRemove: "price-remove", // a model only the user priced
  priceAddModel: "price-add-model",
  priceAddInput: "price-add-input",
  priceAddOutput: "price-add-output",
  priceAdd: "price-add",
  priceAddError: "price-add-error",
  pricesResetAll: "prices-reset-all",
  learnedModel: "learned-model", // Settings → Providers: one model Warden found out about; + data-model
  learnedTools: "learned-tools", // how tools reach it, and why
  learnedToolsSwitch: "learned-tools-switch", // native tools again / describe them in the prompt
  learnedForget: "learned-forget",
  compactionDivider: "compaction-divider", // where the model's summary begins; + data-summarized
  compactNow: "compact-now", // "Compact now" beside the context gauge
  compactError: "compact-error", // why it did not compact

  // composer
  composerInput: "composer-input",
  send: "composer-send",
  stop: "composer-stop",
  composerAttach: "composer-attach", // opens the file picker for images
  composerFileInput: "composer-file-input", // the (hidden) file input it opens
  composerImages: "composer-images", // the attached images' thumbnails
  composerImage: "composer-image", // one of them; + data-name
  composerImageRemove: "composer-image-remove",
  composerImageError: "composer-image-error", // a file that is not an image, too large, one too many
  composerImageHint: "composer-image-hint", // the model does not take images
  composerResourceAttach: "composer-resource-attach", // opens the list of MCP servers' resources
  composerResourceMenu: "composer-resource-menu", // that list (or why it is empty)
  composerResourceItem: "composer-resource-item", // one resource in it; + data-server, data-uri
  composerResources: "composer-resources", // the resources attached to the next message
  composerResource: "composer-resource", // one of them; + data-uri
  composerResourceRemove: "composer-resource-remove",
  composerPasted: "composer-pasted", // the long texts pasted as chips
  composerPastedItem: "composer-pasted-item",
  composerResourceError: "composer-resource-error", // a resource that could not be read
  // slash commands in the composer (composer/slashCommands.ts)
  slashList: "slash-list", // the completion list above the message field
  slashOption: "slash-option", // one entry; + data-name, data-kind = builtin | command | skill
  slashPanel: "slash-panel", // what a built-in shows above the composer; + data-panel = help | cost | notice
  slashPanelClose: "slash-panel-close",
  slashHelp: "slash-help", // /help: the built-ins, the custom commands and the skills
  // plan mode (docs/PLAN_MODE.md; features/plan/)
  planToggle: "plan-toggle", // the composer's plan mode button; aria-pressed
  planModeLine: "plan-mode-line", // what the composer says while plan mode is on
  planCard: "plan-card", // a proposed plan under its message; + data-state = open | approved | passed
  planStep: "plan-step", // one step (editable or not)
  planStepInput: "plan-step-input",
  planStepUp: "plan-step-up",
  planStepDown: "plan-step-down",
  planStepRemove: "plan-step-remove",
  planStepAdd: "plan-step-add",
  planProblems: "plan-problems", // why the steps cannot be approved as they are
  planApprove: "plan-approve",
  planKeepPlanning: "plan-keep-planning",

  // images in the conversation
  messageImages: "message-images", // a user message's images
  toolImages: "tool-images", // the pictures a tool returned
  imageThumb: "image-thumb", // one thumbnail (a button that opens it larger)
  imageViewer: "image-viewer", // the larger view (a dialog; Esc closes)
  imageViewerClose: "image-viewer-close",

  // tool blocks
  toolBlock: "tool-block", // + data-tool-id, data-tool-name, data-status
  toolToggle: "tool-toggle",
  toolStatus: "tool-status",
  setupWhy: "setup-why",
  settingsLoadNotice: "settings-load-notice",
  sandboxMechanism: "sandbox-mechanism",
  sandboxNetwork: "sandbox-network",
  sandboxRegistries: "sandbox-registries", // the project's registries preset (a checkbox)
  sandboxRegistryHosts: "sandbox-registry-hosts", // the hosts it allows
  sandboxWritable: "sandbox-writable",
  sandboxReadable: "sandbox-readable", // paths the project's commands may also read
  sandboxReadableWarning: "sandbox-readable-warning", // one per listed path that holds credentials
  sandboxHosts: "sandbox-hosts", // hosts on this machine or its networks the proxy may reach
  sandboxUserRules: "sandbox-user-rules",
  boxHomeNotice: "box-home-notice", // once per project from before the box showed only toolchains
  boxHomeNoticePaths: "box-home-notice-paths",
  boxHomeNoticeSettings: "box-home-notice-settings",
  boxHomeNoticeDismiss: "box-home-notice-dismiss",
  sandboxManaged: "sandbox-managed", // the organisation's policy: its rules, or why it cannot be used
  sandboxManagedProblem: "sandbox-managed-problem",
  sandboxManagedSwitch: "sandbox-managed-switch", // one per thing the organisation turned off
  sandboxCacheLayer: "sandbox-cache-layer", // the project's cache layer: its size and Clear
  sandboxCacheLayerClear: "sandbox-cache-layer-clear",
  todoPanel: "todo-panel", // the model's task list above the composer
  firstLook: "first-look", // how far Warden's first look at the project's files has come (checkpoints)
  firstLookWaiting: "first-look-waiting", // in the block of a call that waits for that look (its checkpoint)
  firstLookStop: "first-look-stop", // stops that look: no checkpoints in this project until reopened
  todoItem: "todo-item", // + data-state
  toolBoxRefused: "tool-box-refused", // what the sandbox refused a failed command, in words
  toolReadableOffers: "tool-readable-offers", // home paths a failed command looked for, each with the offer to allow it
  toolReadableOffer: "tool-readable-offer",
  toolReadableOfferDone: "tool-readable-offer-done",
  toolGitAside: "tool-git-aside", // what Warden moved out of the project's git metadata after a command
  toolGitAsideRestore: "tool-git-aside-restore", // "Put it back…"
  toolGitAsideConfirm: "tool-git-aside-confirm", // the second step: "Put it back"
  toolGitAsideDone: "tool-git-aside-done",
  toolSandbox: "tool-sandbox", // whether a command ran in the OS sandbox, and with what
  toolForwards: "tool-forwards", // the session's boxed servers forwarded to this machine
  toolRule: "tool-rule",
  toolNetwork: "tool-network", // the hosts a command's sandbox reached or was refused
  toolInput: "tool-input",
  toolOutput: "tool-output",
  bashOutput: "bash-output",
  diffView: "diff-view",
  searchHits: "search-hits",
  searchHit: "search-hit",
  jsonView: "json-view",
  plainOutput: "plain-output",
  showMore: "show-more", // on any capped view: shows the next part

  // checkpoints: what calls and turns changed, diffs, restores
  callChanges: "call-changes", // on a tool block whose call changed files; + data-count
  callChangesToggle: "call-changes-toggle",
  callChangesNone: "call-changes-none", // "no checkpoint for this change"
  fileChange: "file-change", // one file of a list; + data-path, data-status
  turnChanges: "turn-changes", // a turn's summary; + data-files, data-from, data-to
  turnDiffOpen: "turn-diff-open",
  turnDiff: "turn-diff",
  turnDiffFile: "turn-diff-file", // + data-path
  revertFile: "revert-file",
  restoreProject: "restore-project", // on a user message; + data-checkpoint-id
  rewindConversation: "rewind-conversation", // on a user message
  rewindConfirm: "rewind-confirm",
  rewindError: "rewind-error",
  rewindNotice: "rewind-notice", // + data-dropped: what the last rewind dropped, until the next message
  approvalNoLimit: "approval-no-limit",
  theme: { system: "theme-system", light: "theme-light", dark: "theme-dark" },
  retryLast: "retry-last", // "Retry" after a failure or Stop, "Regenerate" after an answer
  codeBlock: "code-block", // a fenced block of model text; + data-language
  codeCopy: "code-copy",
  sidebarToggle: "sidebar-toggle", // hides or shows the conversation list
  externalLink: "external-link", // a link in model text: shows its address, opens in the browser
  linkConfirm: "link-confirm",
  linkAddress: "link-address",
  linkOpen: "link-open",
  modelSwitch: "model-switch", // the model that answers, in the composer
  messageMeta: "message-meta", // time, model and Copy under a message, shown on hover or focus
  messageCopy: "message-copy",
  toolAwaiting: "tool-awaiting", // a block whose call waits for the approval card
  commandTail: "command-tail", // a finished command's last lines, exit code and duration; + data-exit-code
  newMessages: "new-messages", // shown while scrolled up and something new arrived
  shortcutsHelp: "shortcuts-help",
  aboutDialog: "about-dialog", // Help → About Warden
  aboutVersion: "about-version",
  updateNotice: "update-notice", // under the top bar; + data-state (checking, available, installing…)
  updateVersion: "update-version",
  updateInstall: "update-install",
  updateNotes: "update-notes",
  updateError: "update-error",
  updateDismiss: "update-dismiss",
  updateCheckAgain: "update-check-again",
  aboutOpen: "about-open", // Settings → About Warden (also Help → About in the menu)
  updatesCheckAtStart: "updates-check-at-start", // Settings → Updates
  updatesEndpoint: "updates-endpoint",
  updatesCheckNow: "updates-check-now",
  shortcutsOpen: "shortcuts-open",
  sessionGrants: "session-grants", // what "Allow for this session" remembered
  sessionGrant: "session-grant", // one of them; + data-kind
  revokeGrant: "revoke-grant",
  restoreRefused: "restore-refused", // files changed outside Warden, named
  restoreForce: "restore-force", // "Restore anyway"
  restoreNote: "restore-note", // after a restore; + data-phase = restored | undone
  restoreUndo: "restore-undo",
  restoreConfirm: "restore-confirm", // what a restore would do, asked before it runs
  restoreConfirmYes: "restore-confirm-yes",
  restoreRunning: "restore-running", // what it stops first
  restoreError: "restore-error",

  // approvals
  approvalDialog: "approval-dialog", // + data-tool-id
  approvalPosition: "approval-position", // "1 of N"
  approvalCommand: "approval-command",
  approvalCwd: "approval-cwd",
  approvalPath: "approval-path",
  approvalDanger: "approval-danger",
  approvalCountdown: "approval-countdown",
  approvalHiddenWarning: "approval-hidden-warning",
  approvalLongWarning: "approval-long-warning",
  approvalWhy: "approval-why", // why this call asks although the trust level would not (an escalation…)
  approve: "approval-approve",
  reject: "approval-reject",
  rejectReason: "approval-reject-reason",
  allowSession: "approval-allow-session",
  allowProject: "approval-allow-project", // a network question: an allow rule for the project
  approvalHost: "approval-host", // a network question: host:port
  approvalReach: "approval-reach", // a network question about this machine or a private network
  approvalRule: "approval-rule", // the rule the step that made it ask names
  allowAlways: "approval-allow-always", // "Always allow…": opens the rule editor in the card
  alwaysEditor: "approval-always-editor",
  alwaysTool: "approval-always-tool",
  alwaysPattern: "approval-always-pattern", // read-only when only the exact command may be kept
  alwaysExactNote: "approval-always-exact-note",
  alwaysReadOnly: "approval-always-read-only",
  alwaysNarrower: "approval-always-narrower",
  alwaysScope: {
    project: "approval-always-scope-project",
    user: "approval-always-scope-user",
  },
  alwaysSave: "approval-always-save", // "Save rule and approve"
  alwaysCancel: "approval-always-cancel",

  // settings
  trustLevel: {
    supervised: "trust-level-supervised",
    guided: "trust-level-guided",
    autonomous: "trust-level-autonomous",
  },
  activeProvider: "active-provider",
  providerSection: {
    anthropic: "provider-anthropic",
    openai: "provider-openai",
    openai_compatible: "provider-openai_compatible",
    ollama: "provider-ollama",
  },
  baseUrl: {
    anthropic: "base-url-anthropic",
    openai: "base-url-openai",
    openai_compatible: "base-url-openai_compatible",
    ollama: "base-url-ollama",
  },
  keyInput: {
    anthropic: "key-input-anthropic",
    openai: "key-input-openai",
    openai_compatible: "key-input-openai_compatible",
    brave: "key-input-brave",
  },
  keySave: {
    anthropic: "key-save-anthropic",
    openai: "key-save-openai",
    openai_compatible: "key-save-openai_compatible",
    brave: "key-save-brave",
  },
  keyStatus: {
    anthropic: "key-status-anthropic",
    openai: "key-status-openai",
    openai_compatible: "key-status-openai_compatible",
    brave: "key-status-brave",
  },
  keyRemove: {
    anthropic: "key-remove-anthropic",
    openai: "key-remove-openai",
    openai_compatible: "key-remove-openai_compatible",
    brave: "key-remove-brave",
  },
  testConnection: {
    anthropic: "test-connection-anthropic",
    openai: "test-connection-openai",
    openai_compatible: "test-connection-openai_compatible",
    ollama: "test-connection-ollama",
  },
  testResult: {
    anthropic: "test-result-anthropic",
    openai: "test-result-openai",
    openai_compatible: "test-result-openai_compatible",
    ollama: "test-result-ollama",
  },
  modelPicker: {
    anthropic: "model-picker-anthropic",
    openai: "model-picker-openai",
    openai_compatible: "model-picker-openai_compatible",
    ollama: "model-picker-ollama",
  },
  toolsBadge: "tools-badge",
  imagesBadge: "images-badge", // the model reads images
  projectPick: "project-pick",
  projectDir: "project-dir",
  allowedTool: "allowed-tool", // + data-tool
  writeGlobs: "write-globs",
  bashTimeout: "bash-timeout",
  checkpointsToggle: "checkpoints-toggle",
  approvalTimeout: "approval-timeout",
  compactAtPercent: "compact-at-percent", // how full the context gets before it is compacted
  searxngUrl: "searxng-url",
  mcpSection: "mcp-section",
  mcpForm: "mcp-form",
  mcpFormField: "mcp-form-field", // + data-field
  mcpFormSubmit: "mcp-form-submit",
  mcpFormDecline: "mcp-form-decline",
  mcpFormCancel: "mcp-form-cancel",
  mcpHostQuestion: "mcp-host-question",
  mcpHostOnce: "mcp-host-once",
  mcpHostAlways: "mcp-host-always",
  mcpHostDeny: "mcp-host-deny",
  toolServer: "tool-server", // the MCP server of a tool block's tool
  mcpEmpty: "mcp-empty",
  mcpServer: "mcp-server", // + data-server
  mcpStatus: "mcp-status",
  mcpEnabled: "mcp-enabled",
  mcpRemove: "mcp-remove",
  mcpSignIn: "mcp-sign-in",
  mcpOAuthClient: "mcp-oauth-client", // the OAuth client an HTTP server's entry signs in as
  mcpNetwork: "mcp-network",
  mcpReadable: "mcp-readable", // paths a local server's sandbox may also read
  mcpOutsideSandbox: "mcp-outside-sandbox",
  mcpOutsideSandboxWarning: "mcp-outside-sandbox-warning",
  mcpSampling: "mcp-sampling",
  mcpResources: "mcp-resources",
  mcpPrompts: "mcp-prompts",
  mcpSecretName: "mcp-secret-name",
  mcpSecretValue: "mcp-secret-value",
  mcpSecretSave: "mcp-secret-save",
  mcpSecretSaved: "mcp-secret-saved",
  mcpProject: "mcp-project", // + data-approved
  mcpProjectUse: "mcp-project-use",
  mcpProjectDecline: "mcp-project-decline",
  mcpProjectServer: "mcp-project-server", // + data-server
  mcpProjectField: "mcp-project-field", // + data-field: a field used
  mcpProjectIgnored: "mcp-project-ignored", // the fields ignored, with why
  mcpSignOut: "mcp-sign-out",
  mcpToolChoice: "mcp-tool-choice", // + data-tool
  mcpAddName: "mcp-add-name",
  mcpAddTarget: "mcp-add-target",
  mcpAdd: "mcp-add",
  mcpPaste: "mcp-paste",
  mcpImport: "mcp-import",

  // settings → permissions
  permissions: "permissions",
  permissionsError: "permissions-error",
  // settings → skills (and custom commands)
  skillsSection: "skills-section",
  skillRow: "skill-row", // + data-name, data-on
  skillSwitch: "skill-switch", // its on/off checkbox
  skillError: "skill-error", // a switch that failed (it is back as it was)
  commandRow: "command-row", // + data-name
  conventionProblems: "convention-problems", // the files left out, and why
  conventionsError: "conventions-error", // the list could not be read
  permissionRule: "permission-rule", // + data-scope, data-effect
  permissionRuleDelete: "permission-rule-delete",
  permissionRuleEdit: "permission-rule-edit",
  ruleEffect: "rule-effect",
  ruleTool: "rule-tool",
  rulePattern: "rule-pattern",
  ruleScope: "rule-scope",
  ruleAdd: "rule-add",
  ruleAddError: "rule-add-error",
  ruleBroadWarning: "rule-broad-warning",
  ruleBroadConfirm: "rule-broad-confirm", // "Add it anyway"
  ruleCheckTool: "rule-check-tool",
  ruleCheckInput: "rule-check-input",
  ruleCheck: "rule-check",
  ruleCheckResult: "rule-check-result", // + data-decision
  ruleCheckError: "rule-check-error",
  ruleImportOpen: "rule-import-open", // "Import from Claude Code / codex…"
  ruleImport: "rule-import", // the import panel
  ruleImportError: "rule-import-error", // the preview could not be read
  ruleImportFiles: "rule-import-files", // the files read
  ruleImportEmpty: "rule-import-empty", // nothing found
  ruleImportCandidate: "rule-import-candidate", // + data-entry, data-scope, data-ticked
  ruleImportTick: "rule-import-tick", // a candidate's checkbox
  ruleImportWarning: "rule-import-warning",
  ruleImportSkipped: "rule-import-skipped", // + data-entry: one entry not converted, with why
  ruleImportAdd: "rule-import-add", // "Add selected"
  ruleImportCancel: "rule-import-cancel",
  ruleImportFailure: "rule-import-failure", // + data-entry: a ticked one the engine refused
  ruleImportDone: "rule-import-done", // "Added N rules."
} as const;
