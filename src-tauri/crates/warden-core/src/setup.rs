//! Building a working session from settings, the keychain and a few explicit choices. Shared by
//! the desktop app and `warden exec` / `warden tool`, so both faces run the same engine the same
//! way.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use warden_protocol::{
    ErrorCode, Event, KeyName, KeyStatus, Message, ModelEntry, OutputStream, ProviderId, Settings,
    ToolApproval, ToolConfirm, ToolResult, TrustLevel,
};

use crate::agent::{CallPolicy, RequestedCall, Session, SessionConfig, ToolEnvironment, ToolRunner};
use crate::config::{ConfigError, Integrity, WardenHome};
use crate::provider::{self, Provider, ProviderError};
use crate::sandbox::{SandboxError, Workspace};
use crate::scope::Scope;
use crate::secrets::{resolve_key, ApiKey, KeychainStore, SealKey, SecretError, SecretStore};
use crate::tool::{ToolRegistry, ToolsConfig};

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("no API key for {provider}: set {env_var} or save a key in Warden's settings{}", keychain_note(.keychain))]
    MissingKey { provider: &'static str, env_var: &'static str, keychain: Option<String> },
    #[error("the project folder {0} does not exist or is not a folder")]
    BadProject(PathBuf),
    #[error("unknown tool `{0}`")]
    UnknownTool(String),
    #[error(
        "Warden's home {home} and the project folder {project} overlap: the agent could rewrite \
Warden's own settings. Choose a project folder that does not contain Warden's home (or set \
WARDEN_HOME to a folder outside the project)"
    )]
    HomeInProject { home: PathBuf, project: PathBuf },
    #[error("cannot set up the project's sandbox: {0}")]
    Sandbox(#[from] SandboxError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Secret(#[from] SecretError),
}

impl SetupError {
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::MissingKey { .. } => ErrorCode::MissingCredentials,
            Self::BadProject(_)
            | Self::UnknownTool(_)
            | Self::HomeInProject { .. }
            | Self::Sandbox(_)
            | Self::Config(_)
            | Self::Secret(_) => ErrorCode::Internal,
        }
    }

    /// Whether the caller asked for something impossible (a usage error for the CLI).
    pub fn is_usage(&self) -> bool {
        matches!(self, Self::BadProject(_) | Self::UnknownTool(_) | Self::HomeInProject { .. })
    }
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
    /// `None` = the project's permissions from the settings, else the read-only set.
    pub scope: Option<Scope>,
    pub approval_timeout_secs: Option<u32>,
    pub max_turns: u32,
    pub searxng_url: Option<String>,
    /// Where the session saves its history after every turn (`None`: memory only).
    pub history_file: Option<PathBuf>,
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
            approval_timeout_secs: None,
            max_turns: 200,
            searxng_url: None,
            history_file: None,
        }
    }
}

/// The result of `warden tool`.
#[derive(Debug, Clone)]
pub struct OneShot {
    pub result: ToolResult,
}

/// The default model of each provider, used when neither the user nor the settings name one.
pub fn default_model(provider: ProviderId) -> &'static str {
    match provider {
        ProviderId::Anthropic => "claude-sonnet-4-5",
        ProviderId::Openai => "gpt-4.1",
        ProviderId::OpenaiCompatible => "default",
        ProviderId::Ollama => "llama3.2",
    }
}

/// Every core tool's name, for validating `--allow`.
pub fn tool_names() -> Vec<String> {
    ToolRegistry::with_core_tools(ToolsConfig::default()).names()
}

/// Owns the settings and the secret store; builds sessions.
pub struct Engine {
    home: WardenHome,
    secrets: Arc<dyn SecretStore>,
    /// The key of the settings file's seal, or why there is none.
    seal_key: Result<SealKey, String>,
    settings: RwLock<(Settings, Integrity)>,
}

impl Engine {
    /// Loads the settings, checked against Warden's seal (see `config`): a file someone else wrote
    /// is used only with its security-relevant fields reset, and a warning is logged (stderr for
    /// `warden exec` / `warden tool`); the window shows [`Engine::settings_integrity`].
    pub fn new(home: WardenHome, secrets: Arc<dyn SecretStore>) -> Result<Self, ConfigError> {
        let seal_key = match secrets.settings_seal_key() {
            Ok(key) => Ok(key),
            Err(keychain) => {
                tracing::info!(%keychain, "no keychain for the settings seal key; keeping it in Warden's config folder");
                home.file_seal_key().map_err(|file| format!("{keychain}; {file}"))
            }
        };
        let loaded = home.load_sealed(seal_key.as_ref().map_err(String::as_str))?;
        match &loaded.integrity {
            Integrity::Trusted => {}
            Integrity::Untrusted => tracing::warn!(
                path = %home.settings_path().display(),
                "the settings file was not written by Warden (or was changed since): its trust level, \
            permissions and endpoints are ignored and the safe defaults used; review and accept it in Warden's \
            Settings, or save the settings there"
            ),
            Integrity::NoSealKey(why) => tracing::warn!(
                %why,
                "the settings file cannot be checked (no seal key): its trust level, permissions and \
            endpoints are ignored and the safe defaults used"
            ),
        }
        Ok(Self { home, secrets, seal_key, settings: RwLock::new((loaded.settings, loaded.integrity)) })
    }

    /// `WARDEN_HOME` (or the platform dirs) and the OS keychain.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::new(WardenHome::from_env()?, Arc::new(KeychainStore::default()))
    }

    pub fn home(&self) -> &WardenHome {
        &self.home
    }

    /// The settings in use (when the file is not trusted: with the safe defaults, see `config`).
    pub fn settings(&self) -> Settings {
        self.settings.read().map(|s| s.0.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().0.clone())
    }

    /// Whether the settings in use are the file as Warden wrote it.
    pub fn settings_integrity(&self) -> Integrity {
        self.settings.read().map(|s| s.1.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().1.clone())
    }

    fn replace_settings(&self, settings: Settings, integrity: Integrity) {
        match self.settings.write() {
            Ok(mut current) => *current = (settings, integrity),
            Err(poisoned) => *poisoned.into_inner() = (settings, integrity),
        }
    }

    /// Saves (and seals) the settings; they are trusted from now on.
    pub fn save_settings(&self, settings: Settings) -> Result<(), ConfigError> {
        match &self.seal_key {
            Ok(key) => {
                self.home.save_sealed(&settings, key)?;
                self.replace_settings(settings, Integrity::Trusted);
            }
            Err(why) => {
                self.home.save_settings(&settings)?;
                let integrity = Integrity::NoSealKey(why.clone());
                self.replace_settings(crate::config::restricted(&settings), integrity);
            }
        }
        Ok(())
    }

    /// The user accepts the settings file as it is now (after the window showed it was not written
    /// by Warden): it is sealed and used as it is.
    pub fn accept_settings_file(&self) -> Result<(), ConfigError> {
        let key = self.seal_key.as_ref().map_err(|why| ConfigError::NoSealKey(why.clone()))?;
        let loaded = self.home.accept_file(key)?;
        self.replace_settings(loaded.settings, loaded.integrity);
        Ok(())
    }

    pub async fn key_status(&self) -> Vec<KeyStatus> {
        let mut out = Vec::with_capacity(KeyName::ALL.len());
        for name in KeyName::ALL {
            let is_set = self.secrets.is_set(name).await.unwrap_or(false);
            out.push(KeyStatus { name, is_set });
        }
        out
    }

    pub async fn set_key(&self, name: KeyName, value: &str) -> Result<(), SecretError> {
        self.secrets.set(name, value).await
    }

    pub async fn delete_key(&self, name: KeyName) -> Result<(), SecretError> {
        self.secrets.delete(name).await
    }

    /// A provider as the settings (and the spec's overrides) describe it.
    pub async fn provider(
        &self,
        id: ProviderId,
        base_url: Option<String>,
        native_tools: Option<bool>,
    ) -> Result<Arc<dyn Provider>, SetupError> {
        let settings = self.settings();
        let stored = settings.providers.get(&id).cloned().unwrap_or_default();
        let base_url = base_url.or(stored.base_url).filter(|u| !u.trim().is_empty());
        let key_name = match id {
            ProviderId::Anthropic => Some(KeyName::Anthropic),
            ProviderId::Openai => Some(KeyName::Openai),
            ProviderId::OpenaiCompatible => Some(KeyName::OpenaiCompatible),
            ProviderId::Ollama => None,
        };
        // A keychain that cannot be reached is the same as no key here; the error below says so.
        let (key, keychain_error): (Option<ApiKey>, Option<String>) = match key_name {
            Some(name) => match resolve_key(self.secrets.as_ref(), name).await {
                Ok(key) => (key, None),
                Err(error) => {
                    tracing::debug!(%error, "keychain unavailable");
                    (None, Some(error.to_string()))
                }
            },
            None => (None, None),
        };
        // Hosted APIs need a key; a local OpenAI-compatible server (a base URL of its own) may not.
        let needs_key = match id {
            ProviderId::Anthropic => true,
            ProviderId::Openai => base_url.is_none(),
            ProviderId::OpenaiCompatible | ProviderId::Ollama => false,
        };
        if needs_key && key.is_none() {
            let name = key_name.unwrap_or(KeyName::Anthropic);
            return Err(SetupError::MissingKey {
                provider: id.as_str(),
                env_var: name.env_var(),
                keychain: keychain_error,
            });
        }
        let options = provider::ProviderSettings {
            base_url,
            api_key: key,
            native_tools: native_tools.or(stored.native_tools).unwrap_or(true),
            ..provider::ProviderSettings::default()
        };
        Ok(provider::build_provider(wire_kind(id), options))
    }

    pub async fn list_models(&self, id: ProviderId) -> Result<Vec<ModelEntry>, SetupOrProviderError> {
        let provider = self.provider(id, None, None).await?;
        let models = provider.list_models().await?;
        Ok(models
            .into_iter()
            .map(|m| ModelEntry {
                id: m.id,
                display_name: m.display_name,
                supports_tools: m.supports_tools,
                context_window: m.context_window,
            })
            .collect())
    }

    pub async fn test_connection(&self, id: ProviderId) -> Result<(), SetupOrProviderError> {
        let provider = self.provider(id, None, None).await?;
        Ok(provider.validate_credentials().await?)
    }

    /// The history saved for a conversation (empty when there is none).
    pub fn stored_history(&self, conversation_id: &str) -> Vec<Message> {
        let Some(path) = self.home.conversation_path(conversation_id) else { return Vec::new() };
        crate::history_file::load(&path).unwrap_or_else(|error| {
            tracing::warn!(%error, "could not read the conversation");
            Vec::new()
        })
    }

    /// Start a session for the desktop app from the settings alone. It continues the
    /// conversation saved under this id, and saves it after every turn.
    pub async fn start_session(
        &self,
        conversation_id: String,
    ) -> Result<(Session, mpsc::UnboundedReceiver<Event>), SetupError> {
        let history = self.stored_history(&conversation_id);
        let (session, events) = self.start_session_fresh(conversation_id).await?;
        Ok((session.with_history(history), events))
    }

    async fn start_session_fresh(
        &self,
        conversation_id: String,
    ) -> Result<(Session, mpsc::UnboundedReceiver<Event>), SetupError> {
        let settings = self.settings();
        let project = match &settings.project_dir {
            Some(dir) => PathBuf::from(dir),
            None => dirs::home_dir().unwrap_or_else(|| PathBuf::from(".")),
        };
        let mut spec = SessionSpec::new(project);
        spec.conversation_id = conversation_id;
        spec.provider = settings.active_provider;
        spec.trust = settings.trust_level;
        spec.history_file = self.home.conversation_path(&spec.conversation_id);
        self.start(spec).await
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
        let model =
            spec.model.clone().or(stored.model).unwrap_or_else(|| default_model(spec.provider).to_owned());
        let scope = self.scope_for(&spec, &project);
        let (registry, env) = self.tools(&spec, &project, &scope, &settings).await?;
        let mut config = SessionConfig::new(spec.conversation_id.clone(), model);
        if let Some(window) = stored.context_window {
            config.context_window = window;
        }
        config.system_prompt = Some(system_prompt(&project));
        config.trust = spec.trust;
        config.scope = scope;
        config.approval_timeout = approval_timeout(&spec, &settings);
        config.max_turns = spec.max_turns.max(1);
        config.history_file = spec.history_file.clone();
        Ok(Session::new(config, provider, Arc::new(registry), env))
    }

    /// Run one tool through the loop's own path ([`ToolRunner`]): validation, policy, approval,
    /// the sandbox, streamed output and the result. `on_output` receives streamed output (bash
    /// stdout/stderr) as it comes; `ask` answers a confirmation (its `tool_id` is filled in here).
    pub async fn run_tool<O, F, Fut>(
        &self,
        spec: SessionSpec,
        name: &str,
        input: serde_json::Value,
        mut on_output: O,
        mut ask: F,
    ) -> Result<OneShot, SetupError>
    where
        O: FnMut(OutputStream, String),
        F: FnMut(ToolConfirm) -> Fut,
        Fut: Future<Output = ToolApproval>,
    {
        let (runner, mut events) = self.tool_runner(&spec).await?;
        if !runner.knows(name) {
            return Err(SetupError::UnknownTool(name.to_owned()));
        }
        let call = RequestedCall {
            id: format!("cli-{}", uuid::Uuid::new_v4()),
            name: name.to_owned(),
            input: Ok(input),
        };
        let cancel = CancellationToken::new();
        let run = runner.call("", call, &cancel);
        tokio::pin!(run);
        loop {
            tokio::select! {
                biased;
                Some(event) = events.recv() => match event {
                    Event::ToolDelta(delta) => on_output(delta.stream.unwrap_or(OutputStream::Stdout), delta.chunk),
                    Event::ToolConfirm(confirm) => {
                        let tool_id = confirm.tool_id.clone();
                        let answer = ask(confirm).await;
                        runner.approve(ToolApproval { tool_id, ..answer });
                    }
                    _ => {}
                },
                outcome = &mut run => {
                    while let Ok(event) = events.try_recv() {
                        if let Event::ToolDelta(delta) = event {
                            on_output(delta.stream.unwrap_or(OutputStream::Stdout), delta.chunk);
                        }
                    }
                    return Ok(OneShot { result: outcome.result });
                }
            }
        }
    }

    /// The tool path of one session as the spec says, without a model: what `warden tool` runs.
    pub async fn tool_runner(
        &self,
        spec: &SessionSpec,
    ) -> Result<(ToolRunner, mpsc::UnboundedReceiver<Event>), SetupError> {
        let settings = self.settings();
        let project = self.project_outside_home(&spec.project)?;
        let scope = self.scope_for(spec, &project);
        let (registry, env) = self.tools(spec, &project, &scope, &settings).await?;
        let policy =
            CallPolicy { trust: spec.trust, scope, approval_timeout: approval_timeout(spec, &settings) };
        Ok(ToolRunner::standalone(spec.conversation_id.clone(), Arc::new(registry), env, policy))
    }

    /// The project folder, canonical, refused when it and Warden's home overlap: a command the agent
    /// runs in the project could otherwise rewrite Warden's settings (review #9, finding 9).
    fn project_outside_home(&self, dir: &Path) -> Result<PathBuf, SetupError> {
        let project = canonical_project(dir)?;
        if self.home.overlaps(&project) {
            return Err(SetupError::HomeInProject { home: self.home.config_dir().to_path_buf(), project });
        }
        Ok(project)
    }

    fn scope_for(&self, spec: &SessionSpec, project: &Path) -> Scope {
        if let Some(scope) = &spec.scope {
            return scope.clone();
        }
        let settings = self.settings();
        match settings.tool_permissions.get(&project.to_string_lossy().into_owned()) {
            Some(perms) => {
                let mut scope = match &perms.allowed_tools {
                    Some(list) => Scope::only(list.iter().cloned()),
                    None => Scope::read_only(),
                };
                scope.write_globs = perms.write_globs.clone();
                scope.timeouts_secs.insert("bash".to_owned(), u64::from(perms.bash_timeout_secs));
                scope
            }
            None => Scope::read_only(),
        }
    }

    async fn tools(
        &self,
        spec: &SessionSpec,
        project: &Path,
        scope: &Scope,
        settings: &Settings,
    ) -> Result<(ToolRegistry, ToolEnvironment), SetupError> {
        let brave_key = resolve_key(self.secrets.as_ref(), KeyName::Brave).await.ok().flatten();
        let config = ToolsConfig {
            searxng_url: spec.searxng_url.clone().unwrap_or_else(|| settings.searxng_url.clone()),
            brave_api_key: brave_key,
            ..ToolsConfig::default()
        };
        let workspace = Workspace::new(project, self.home.project_dir(project), scope.clone())?;
        Ok((ToolRegistry::with_core_tools(config), ToolEnvironment::new(workspace)))
    }
}

/// Either half of listing models or testing a connection can fail.
#[derive(Debug, thiserror::Error)]
pub enum SetupOrProviderError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Provider(#[from] ProviderError),
}

/// How long a confirmation waits for an answer: the spec's choice, else the settings'.
fn approval_timeout(spec: &SessionSpec, settings: &Settings) -> Duration {
    Duration::from_secs(u64::from(
        spec.approval_timeout_secs.unwrap_or(settings.approval_timeout_secs).max(1),
    ))
}

fn keychain_note(keychain: &Option<String>) -> String {
    match keychain {
        Some(error) => format!(" ({error})"),
        None => String::new(),
    }
}

fn wire_kind(id: ProviderId) -> provider::ProviderKind {
    match id {
        ProviderId::Anthropic => provider::ProviderKind::Anthropic,
        ProviderId::Openai | ProviderId::OpenaiCompatible => provider::ProviderKind::OpenAi,
        ProviderId::Ollama => provider::ProviderKind::Ollama,
    }
}

fn canonical_project(dir: &Path) -> Result<PathBuf, SetupError> {
    match std::fs::canonicalize(dir) {
        Ok(path) if path.is_dir() => Ok(path),
        _ => Err(SetupError::BadProject(dir.to_path_buf())),
    }
}

fn system_prompt(project: &Path) -> String {
    format!(
        "You are Warden, a careful coding agent working in the project at {}. Use the tools to read, \
search, change and run things in that project; paths are relative to the project root. The user \
approves dangerous actions, so explain briefly what you are about to do and why. If a tool call is \
rejected, do not retry it unchanged: ask or take another way. When you are done, answer concisely.",
        project.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemoryStore;
    use warden_protocol::ToolPermissions;

    struct Dirs {
        _root: tempfile::TempDir,
        home: WardenHome,
        project: PathBuf,
    }

    fn dirs() -> Dirs {
        let root = tempfile::tempdir().unwrap();
        let project = std::fs::canonicalize(root.path()).unwrap().join("project");
        std::fs::create_dir_all(&project).unwrap();
        Dirs { home: WardenHome::at(root.path().join("home")), project, _root: root }
    }

    fn writes_allowed(project: &Path) -> Settings {
        let mut settings = Settings::default();
        settings.tool_permissions.insert(
            project.to_string_lossy().into_owned(),
            ToolPermissions { allowed_tools: Some(vec!["file_write".into()]), ..ToolPermissions::default() },
        );
        settings
    }

    async fn approve(_: ToolConfirm) -> ToolApproval {
        ToolApproval { tool_id: String::new(), approved: true, reason: None, remember: None }
    }

    /// `file_write` as `warden tool` runs it: scope from the settings, no approval asked.
    async fn file_write(engine: &Engine, project: &Path) -> Option<String> {
        let mut spec = SessionSpec::new(project.to_path_buf());
        spec.trust = TrustLevel::Autonomous;
        let input = serde_json::json!({"path": "out.txt", "content": "x"});
        let shot = engine.run_tool(spec, "file_write", input, |_, _| {}, approve).await.unwrap();
        shot.result.code.map(|code| code.as_str().to_owned())
    }

    /// Review #9, finding 9: a command rewrote `settings.json` and a later `file_write` went from
    /// PERMISSION_DENIED to success. Now the rewritten file is not trusted until the user accepts it.
    #[tokio::test]
    async fn settings_rewritten_by_a_command_do_not_widen_the_scope() {
        let d = dirs();
        let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
        let engine = Engine::new(d.home.clone(), store.clone()).unwrap();
        engine.save_settings(Settings::default()).unwrap();
        assert_eq!(file_write(&engine, &d.project).await.as_deref(), Some("PERMISSION_DENIED"));

        // What `bash` did: a plain write of the file.
        let forged = serde_json::to_vec_pretty(&writes_allowed(&d.project)).unwrap();
        std::fs::write(d.home.settings_path(), forged).unwrap();
        let later = Engine::new(d.home.clone(), store.clone()).unwrap();
        assert_eq!(later.settings_integrity(), Integrity::Untrusted);
        assert_eq!(file_write(&later, &d.project).await.as_deref(), Some("PERMISSION_DENIED"));

        // The user looked at it and accepts it: now it applies, and stays trusted.
        later.accept_settings_file().unwrap();
        assert_eq!(file_write(&later, &d.project).await, None);
        assert_eq!(Engine::new(d.home.clone(), store).unwrap().settings_integrity(), Integrity::Trusted);
    }

    #[tokio::test]
    async fn settings_warden_saved_stay_trusted() {
        let d = dirs();
        let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
        let engine = Engine::new(d.home.clone(), store.clone()).unwrap();
        engine.save_settings(writes_allowed(&d.project)).unwrap();
        let later = Engine::new(d.home.clone(), store).unwrap();
        assert_eq!(later.settings_integrity(), Integrity::Trusted);
        assert_eq!(later.settings(), writes_allowed(&d.project));
        assert_eq!(file_write(&later, &d.project).await, None);
    }

    #[tokio::test]
    async fn a_home_inside_the_project_is_refused() {
        let d = dirs();
        let home = WardenHome::at(d.project.join(".warden"));
        let engine = Engine::new(home, Arc::new(MemoryStore::new())).unwrap();
        let spec = SessionSpec::new(d.project.clone());
        let input = serde_json::json!({"path": "a"});
        let error = engine.run_tool(spec, "file_read", input, |_, _| {}, approve).await.unwrap_err();
        assert!(matches!(error, SetupError::HomeInProject { .. }), "{error}");
        assert!(error.is_usage());
    }
}
