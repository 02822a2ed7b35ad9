//! The session builder: a session (the model, the project, its scope and trust level, the tools
//! and the saved history) from a [`SessionSpec`] and the settings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use warden_protocol::{Event, KeyName, McpServerConfig, NetworkMode, ProviderId, Settings, TrustLevel};

use super::project_policy::ProjectPolicy;
use super::{Engine, SetupError};
use crate::agent::budget::known_context_window;
use crate::agent::{SaveRule, Session, SessionConfig, ToolEnvironment, ToolSource};
use crate::checkpoint::CheckpointStore;
use crate::containment::BoxPolicy;
use crate::conventions::Skills;
use crate::mcp::{Entry, McpTool, McpToolset, Origin};
use crate::sandbox::Workspace;
use crate::scope::Scope;
use crate::tool::Typed;
use crate::tool::{changes_files, ToolRegistry, ToolsConfig};
use crate::tools::{SkillTool, SKILL};

/// While the user types: the checkpoints' retention policy, then the first look at every file
/// (later checkpoints go by what changed; how far it has come is reported while it takes long),
/// then copying in what that look borrowed from the project's own git.
fn first_look(store: Arc<crate::checkpoint::CheckpointStore>, session: &Session) {
    let events = session.events();
    let looking = store.clone();
    let work = tokio::task::spawn_blocking(move || {
        if let Err(error) = looking.housekeeping() {
            tracing::warn!(%error, "checkpoint housekeeping failed");
        }
        looking.prime();
        if let Err(error) = looking.adopt_borrowed() {
            tracing::warn!(%error, "could not copy the blobs borrowed from the project's git");
        }
    });
    tokio::spawn(async move {
        let _ = crate::agent::first_look::reported(&store, &events, None, work).await;
    });
}

/// The explicit choices of one session; everything left `None` comes from the settings.
#[derive(Debug, Clone)]
pub struct SessionSpec {
    pub conversation_id: String,
    pub provider: ProviderId,
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// `Some(false)` offers tools through the text protocol.
    pub native_tools: Option<bool>,
    pub project: PathBuf,
    pub trust: TrustLevel,
    /// `None` = the project's permissions from the settings, else `default_scope`.
    pub scope: Option<Scope>,
    /// What a project without permissions of its own allows: the read-only set unless the face
    /// says otherwise (the window: every built-in tool, see [`crate::tools::window_default_scope`]).
    pub default_scope: Scope,
    pub approval_timeout_secs: Option<u32>,
    pub max_turns: u32,
    pub searxng_url: Option<String>,
    /// Whether the session saves each message in the conversation store (`false`: memory only).
    pub save: bool,
    /// `false` when the user has chosen no project folder: `project` is an empty stand-in and the
    /// model is told it has no files to work on.
    pub project_chosen: bool,
    /// MCP servers for this session only, besides those in the settings (`warden exec
    /// --mcp-config`); an entry of the same name replaces the settings' one.
    pub mcp_servers: BTreeMap<String, McpServerConfig>,
    /// The folder the work happens in, when it is a folder inside the project (`warden exec` run
    /// from a subfolder): the project's `AGENTS.md` files are read from the root down to it. `None`
    /// (or a folder outside the project): the project root.
    pub work_dir: Option<PathBuf>,
    /// The project's network for this session only (`warden exec --network`), instead of its
    /// setting: `off` keeps its commands and MCP servers off the network (a `bash` call may ask),
    /// `rules` gives them the proxy. `None`: the project's setting.
    pub network: Option<NetworkMode>,
}

impl SessionSpec {
    pub fn new(project: PathBuf) -> Self {
        Self {
            conversation_id: uuid::Uuid::new_v4().to_string(),
            provider: ProviderId::Anthropic,
            base_url: None,
            model: None,
            native_tools: None,
            project,
            trust: TrustLevel::Guided,
            scope: None,
            default_scope: Scope::read_only(),
            approval_timeout_secs: None,
            max_turns: 200,
            searxng_url: None,
            save: false,
            project_chosen: true,
            mcp_servers: BTreeMap::new(),
            work_dir: None,
            network: None,
        }
    }
}

impl Engine {
    /// When each saved message of a conversation was written and by which model (empty when there
    /// is none, or it cannot be read: the stamps only decorate).
    pub fn stored_stamps(&self, conversation_id: &str) -> Vec<warden_protocol::MessageStamp> {
        if !crate::conversations::is_conversation_id(conversation_id) {
            return Vec::new();
        }
        let found = self.conversation_store().and_then(|store| Ok(store.message_stamps(conversation_id)?));
        found.unwrap_or_else(|error| {
            tracing::warn!(%error, "could not read the conversation's message times");
            Vec::new()
        })
    }

    /// Start a session for the desktop app from the settings alone. It continues the
    /// conversation saved under this id (refused when it cannot be read whole), and saves it after
    /// every message.
    pub async fn start_session(
        &self,
        conversation_id: String,
    ) -> Result<(Session, mpsc::UnboundedReceiver<Event>), SetupError> {
        let mut saved = self.saved_conversation(&conversation_id)?;
        // Its images are taken in again, as when they were attached (bounded; see `images`).
        saved.history = crate::images::checked_history(saved.history).await;
        let (session, events) = self.start_session_fresh(conversation_id).await?;
        Ok((session.with_history(saved.history).with_compaction(saved.compacted), events))
    }

    /// Start a session as the spec says that continues the saved conversation `id` (refused when
    /// it cannot be read whole).
    pub async fn resume(
        &self,
        mut spec: SessionSpec,
        id: &str,
    ) -> Result<(Session, mpsc::UnboundedReceiver<Event>), SetupError> {
        spec.conversation_id = id.to_owned();
        let mut saved = self.saved_conversation(id)?;
        saved.history = crate::images::checked_history(saved.history).await;
        let (session, events) = self.start(spec).await?;
        Ok((session.with_history(saved.history).with_compaction(saved.compacted), events))
    }

    async fn start_session_fresh(
        &self,
        conversation_id: String,
    ) -> Result<(Session, mpsc::UnboundedReceiver<Event>), SetupError> {
        let settings = self.settings();
        let mut spec = match &settings.project_dir {
            Some(dir) => SessionSpec::new(PathBuf::from(dir)),
            // No folder chosen: not the home folder, but an empty one, and no tool that touches
            // files or runs commands (the window's top bar says so).
            None => {
                let mut spec = SessionSpec::new(self.no_project_root()?);
                spec.scope = Some(crate::tools::no_project_scope());
                spec.project_chosen = false;
                spec
            }
        };
        spec.conversation_id = conversation_id;
        spec.provider = settings.active_provider;
        spec.trust = settings.trust_level;
        spec.default_scope = crate::tools::window_default_scope();
        spec.save = true;
        self.start(spec).await
    }

    /// The empty private folder no-project sessions work in (made once, removed with the engine).
    pub(super) fn no_project_root(&self) -> Result<PathBuf, SetupError> {
        let mut root = self.no_project_root.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if root.is_none() {
            let dir = tempfile::Builder::new()
                .prefix("warden-no-project-")
                .tempdir()
                .map_err(|_| SetupError::BadProject(std::env::temp_dir()))?;
            *root = Some(dir);
        }
        match root.as_ref() {
            Some(dir) => Ok(dir.path().to_path_buf()),
            None => Err(SetupError::BadProject(std::env::temp_dir())),
        }
    }

    /// Start a session as the spec says.
    pub async fn start(
        &self,
        spec: SessionSpec,
    ) -> Result<(Session, mpsc::UnboundedReceiver<Event>), SetupError> {
        let settings = self.settings();
        let project = self.project_outside_home(&spec.project)?;
        let provider = self.provider(spec.provider, spec.base_url.clone(), spec.native_tools).await?;
        let stored = settings.providers.get(&spec.provider).cloned().unwrap_or_default();
        let base_url = spec.base_url.clone().or(stored.base_url.clone()).filter(|u| !u.trim().is_empty());
        let model = match spec.model.clone().or(stored.model.clone()) {
            Some(model) => model,
            None => self.model_by_default(spec.provider, base_url.as_deref(), provider.as_ref()).await?,
        };
        self.mcp.set_model(provider.clone(), model.clone());
        let policy = self.project_policy(&spec, &project, &settings);
        let conventions = self.conventions(&spec, &project, &settings).await;
        let (registry, env, scope, live) =
            self.tools(&spec, &project, policy, &settings, &conventions.skills).await?;
        let learned = crate::provider::LearnedAt {
            store: Arc::new(super::learned::SettingsFacts(self.settings.clone())),
            base_url: base_url
                .clone()
                .unwrap_or_else(|| super::providers::wire_kind(spec.provider).default_base_url().to_owned()),
        };
        // The user's setting, the engine's table, what the server says, what an earlier overflow
        // showed; else unknown (learned from the first overflow).
        let window = match stored.context_window.or_else(|| known_context_window(&model)) {
            Some(window) => Some(window),
            None => match provider.context_window(&model).await {
                Some(window) => Some(window),
                None => learned.context_window(&model),
            },
        };
        let mut config = SessionConfig::new(spec.conversation_id.clone(), model);
        config.context_window = window;
        config.learned = Some(learned);
        let base = if spec.project_chosen { system_prompt(&project) } else { NO_PROJECT_PROMPT.to_owned() };
        let mut prompt = self.with_instructions(base, &spec, &project, &settings).await;
        prompt.push_str(&conventions.skills.prompt_section().unwrap_or_default());
        config.system_prompt = Some(prompt);
        config.conventions = conventions;
        config.trust = self.trust_allowed(spec.trust);
        config.takes_images =
            crate::images::model_takes_images(super::providers::wire_kind(spec.provider), &config.model);
        config.budget_threshold = compaction_threshold(settings.compact_at_percent);
        config.scope = scope;
        config.approval_timeout = approval_timeout(&spec, &settings);
        config.max_turns = spec.max_turns.max(1);
        if spec.save && crate::conversations::is_conversation_id(&spec.conversation_id) {
            match self.conversation_store() {
                Ok(store) => config.store = Some(store),
                Err(error) => {
                    tracing::warn!(%error, "the conversation will not be saved");
                    config.not_saved = Some(error.to_string());
                }
            }
        }
        let layer = self.cache_layer_dir(&project);
        config.project_root = Some(project);
        let checkpoints = env.checkpoints().cloned();
        // The cache layer follows the same retention: a cache's layer no box wrote to in as long.
        tokio::task::spawn_blocking(move || {
            let keep =
                std::time::Duration::from_secs(crate::checkpoint::RETENTION_DAYS.unsigned_abs() * 24 * 3600);
            match crate::containment::cache_layer::housekeeping(&layer, keep) {
                Ok(removed) if !removed.is_empty() => tracing::info!(?removed, "unused cache layers removed"),
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "cache layer housekeeping failed"),
            }
        });
        let (session, events) = Session::new(config, provider, Arc::new(registry), env);
        if let Some(store) = checkpoints {
            first_look(store, &session);
        }
        Ok((
            match live {
                Some(live) => session.with_tool_source(live),
                None => session,
            },
            events,
        ))
    }

    /// The project folder, canonical, refused when it and Warden's home overlap: a command the agent
    /// runs in the project could otherwise rewrite Warden's settings (review #9, finding 9).
    pub(super) fn project_outside_home(&self, dir: &Path) -> Result<PathBuf, SetupError> {
        let project = canonical_project(dir)?;
        if self.home.overlaps(&project) {
            return Err(SetupError::HomeInProject { home: self.home.config_dir().to_path_buf(), project });
        }
        Ok(project)
    }

    /// The session's tools (the built-in ones and its MCP servers'), the environment they run in
    /// (the project's box, and its checkpoints when they are on and a tool can change files),
    /// the policy's scope widened by the MCP tools the user has not denied, and the source of the
    /// MCP tools' changes while the session runs (when it has MCP servers).
    pub(super) async fn tools(
        &self,
        spec: &SessionSpec,
        project: &Path,
        policy: ProjectPolicy,
        settings: &Settings,
        skills: &Skills,
    ) -> Result<(ToolRegistry, ToolEnvironment, Scope, Option<Arc<dyn ToolSource>>), SetupError> {
        let brave_key = self.key(KeyName::Brave).await.ok().flatten();
        let config = ToolsConfig {
            searxng_url: spec.searxng_url.clone().unwrap_or_else(|| settings.searxng_url.clone()),
            brave_api_key: brave_key,
            ..ToolsConfig::default()
        };
        let ProjectPolicy { mut scope, commands_box, checkpoints } = policy;
        // Offered only in plan mode (the runner keeps it out of every other turn).
        scope.allow(crate::tools::PROPOSE_PLAN);
        let mut core = ToolRegistry::with_core_tools(config);
        // The skills' reader, when there are skills: it reads, as `file_read` does.
        if !skills.list.is_empty() {
            match core.register(Arc::new(Typed::new(SkillTool::new(Arc::new(skills.clone()))))) {
                Ok(()) => scope.allow(SKILL),
                Err(error) => tracing::error!(%error, "the skill tool is not offered"),
            }
        }
        let toolset = if spec.project_chosen {
            self.mcp_toolset(spec, settings, project, &commands_box).await
        } else {
            None
        };
        let (registry, scope, live) = match toolset {
            Some(toolset) => {
                let (registry, widened) = with_mcp_tools(&core, &scope, &toolset.tools().await);
                let live: Arc<dyn ToolSource> = Arc::new(LiveMcpTools { core, scope, toolset });
                (registry, widened, Some(live))
            }
            None => (core, scope, None),
        };
        let workspace = Workspace::new(project, self.home.project_dir(project), scope.clone())?;
        let settings_cell = Arc::clone(&self.settings);
        let project_key = project.to_string_lossy().into_owned();
        let saver = SaveRule(Arc::new(move |pattern: &str| settings_cell.allow_host(&project_key, pattern)));
        let mut env = ToolEnvironment::with_box(workspace, commands_box)
            .with_rule_saver(saver)
            .with_rules(self.project_rules(project));
        if spec.project_chosen {
            let place = crate::hooks::run::Place {
                project: project.to_path_buf(),
                commands_box: env.commands_box().cloned(),
            };
            let set = self.session_hook_set(project, settings);
            env = env.with_hooks(crate::agent::SessionHooks::new(set, place, spec.conversation_id.clone()));
        }
        // A session whose tools cannot change anything (`warden exec`'s read-only default) has
        // nothing to undo: no store is opened and no snapshot taken. One with MCP servers may be
        // offered a tool that changes files later (their lists change: see `changes_files`), so
        // it has one.
        if checkpoints && (live.is_some() || can_change_files(&registry, &scope)) {
            match self.shared_store(project).await {
                Ok(store) => {
                    match store.hold_session(&spec.conversation_id) {
                        Ok(hold) => env = env.with_hold(hold),
                        Err(error) => tracing::warn!(%error, "a restore elsewhere will not see this session"),
                    }
                    env = env.with_checkpoints(store);
                }
                Err(error) => tracing::warn!(%error, "checkpoints are off for this session"),
            }
        }
        Ok((registry, env, scope, live))
    }

    /// The MCP servers a session in `project` has: the project's approved `.mcp.json`, then the
    /// settings' (the user's own entries win over a name in the file), then `extra` (one run's).
    pub(super) fn mcp_servers(
        &self,
        project: &Path,
        settings: &Settings,
        extra: &BTreeMap<String, McpServerConfig>,
    ) -> BTreeMap<String, Entry> {
        let mut servers = self.approved_project_servers(project);
        let users = settings.mcp_servers.iter().chain(extra);
        servers
            .extend(users.map(|(name, config)| {
                (name.clone(), Entry { config: config.clone(), origin: Origin::User })
            }));
        // The organisation's pin: no other server starts.
        let managed = crate::config::managed::Managed::load(self.home.managed_file());
        if let Some(allowed) = managed.allowed_mcp_servers() {
            servers.retain(|name, _| {
                let kept = allowed.contains(name);
                if !kept {
                    tracing::warn!(server = %name, "not started: the organisation's policy does not list this MCP server");
                }
                kept
            });
        }
        servers
    }

    /// The session's MCP servers, started as needed, and their tools; stdio servers run in
    /// `commands_box` (the user's with the network unless their entry says otherwise, a project's
    /// exactly as the box is). `None`: it has none.
    async fn mcp_toolset(
        &self,
        spec: &SessionSpec,
        settings: &Settings,
        project: &Path,
        commands_box: &BoxPolicy,
    ) -> Option<McpToolset> {
        let (specs, bad) = crate::mcp::entry_specs(&self.mcp_servers(project, settings, &spec.mcp_servers));
        for (name, error) in bad {
            tracing::warn!(server = %name, %error, "MCP server not started");
        }
        if specs.is_empty() {
            return None;
        }
        Some(self.mcp.toolset(&specs, project, Some(commands_box)).await)
    }
}

/// The built-in tools in `core` with `mcp`'s added, and `scope` widened to let them be offered
/// (those the user wants to be asked about every time marked so).
fn with_mcp_tools(core: &ToolRegistry, scope: &Scope, mcp: &[Arc<McpTool>]) -> (ToolRegistry, Scope) {
    let mut registry = core.clone();
    let mut scope = scope.clone();
    for tool in mcp {
        let name = crate::tool::Tool::definition(tool.as_ref()).name.clone();
        let always_asks = tool.always_asks();
        match registry.register(tool.clone()) {
            Ok(()) => {
                scope.allow(&name);
                if always_asks {
                    scope.always_ask.insert(name);
                }
            }
            Err(error) => tracing::warn!(%error, "MCP tool not offered"),
        }
    }
    (registry, scope)
}

/// A session's tools as its MCP servers change them: the built-in tools and the scope the session
/// started with, and the servers' tools as they are now.
struct LiveMcpTools {
    core: ToolRegistry,
    scope: Scope,
    toolset: McpToolset,
}

#[async_trait::async_trait]
impl ToolSource for LiveMcpTools {
    async fn changed(&self) -> Option<(ToolRegistry, Scope)> {
        let tools = self.toolset.changed().await?;
        Some(with_mcp_tools(&self.core, &self.scope, &tools))
    }
}

/// Whether any tool the scope allows can change the project (the runner's own test of a call).
fn can_change_files(registry: &ToolRegistry, scope: &Scope) -> bool {
    registry.definitions(scope).iter().any(changes_files)
}

impl Engine {
    /// The store every session of `project` shares, opened off the async threads when no session
    /// holds it yet.
    async fn shared_store(&self, project: &Path) -> Result<Arc<CheckpointStore>, String> {
        if let Some(store) = self.open_store(project) {
            return Ok(store);
        }
        let (dir, workspace) = self.store_parts(project).map_err(|e| e.to_string())?;
        let opened = tokio::task::spawn_blocking(move || CheckpointStore::open(&dir, workspace)).await;
        match opened {
            Ok(Ok(store)) => Ok(self.keep_store(project, store)),
            Ok(Err(error)) => Err(error.to_string()),
            Err(error) => Err(error.to_string()),
        }
    }
}

/// How long a confirmation waits for an answer: the spec's choice, else the settings'.
/// How long a confirmation waits for its answer; `None` (a setting of 0) waits until it is
/// answered or the turn is stopped.
pub(super) fn approval_timeout(spec: &SessionSpec, settings: &Settings) -> Option<Duration> {
    match spec.approval_timeout_secs.unwrap_or(settings.approval_timeout_secs) {
        0 => None,
        secs => Some(Duration::from_secs(u64::from(secs))),
    }
}

/// The project folder the settings name (the user's home when none is chosen), as given.
pub(super) fn chosen_project(settings: &Settings) -> PathBuf {
    match &settings.project_dir {
        Some(dir) => PathBuf::from(dir),
        None => dirs::home_dir().unwrap_or_else(|| PathBuf::from(".")),
    }
}

fn canonical_project(dir: &Path) -> Result<PathBuf, SetupError> {
    match std::fs::canonicalize(dir) {
        Ok(path) if path.is_dir() => Ok(path),
        _ => Err(SetupError::BadProject(dir.to_path_buf())),
    }
}

const NO_PROJECT_PROMPT: &str = "You are Warden, a careful coding agent. The user has not chosen a \
project folder yet, so you have no tools that read or change files or run commands. Answer from what \
you know (and web search when it is offered). If the user asks you to work on files, tell them to \
choose a project folder first (the top bar or Settings → Project).";

fn system_prompt(project: &Path) -> String {
    format!(
        "You are Warden, a careful coding agent working in the project at {}. Use the tools to read, \
search, change and run things in that project; paths are relative to the project root. The user \
approves dangerous actions, so explain briefly what you are about to do and why. If a tool call is \
rejected, do not retry it unchanged: ask or take another way. When you are done, answer concisely.",
        project.display()
    )
}

/// The share of the context window at which a conversation is compacted: the setting, held to
/// 50–95 % (a hand-edited file may say anything).
fn compaction_threshold(percent: u8) -> f32 {
    f32::from(percent.clamp(50, 95)) / 100.0
}
