//! One configured MCP server for one project folder: its live connection, started when first
//! needed within a time limit, started again when it dies (after a pause that doubles with each
//! failed start), following the project's box, and closed with its whole process tree.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use warden_protocol::{McpServerState, McpServerStatus, McpToolInfo};

use super::auth::client_credentials;
use super::auth::oauth::{self, Authorizer, KeychainCredentials};
use super::connection::{connect_with, ClientSetup, Connection};
use super::error::McpError;
use super::names::qualified;
use super::server::ServerSpec;
use super::server::Transport;
use crate::containment::BoxPolicy;

/// How long a server has to start and answer the handshake and the tool list.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);
/// The first pause before a failed server is tried again; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_secs(1);
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// How often a running server is checked for having died.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// One configured server, for one project folder.
pub struct ServerSlot {
    /// Itself, for the watcher that starts the server again when it dies.
    me: std::sync::Weak<ServerSlot>,
    spec: ServerSpec,
    root: PathBuf,
    /// The box; its network rules follow the project's ([`ServerSlot::follow_rules`]).
    policy: std::sync::Mutex<Option<BoxPolicy>>,
    setup: ClientSetup,
    start_timeout: Duration,
    state: tokio::sync::Mutex<SlotState>,
}

/// A server that dies sooner than this after starting counts as a failed start.
const STABLE: Duration = Duration::from_secs(30);

#[derive(Default)]
struct SlotState {
    connection: Option<Arc<Connection>>,
    error: Option<String>,
    /// Set when the server asked the user to sign in: it is not started again until they have.
    /// Holds the server's `WWW-Authenticate`, when it sent one.
    sign_in: Option<Option<String>>,
    /// The stderr of the last program that failed, kept for Settings.
    stderr: Vec<String>,
    failures: u32,
    retry_at: Option<Instant>,
}

impl SlotState {
    /// One more failed start (or early death): the next start waits 1 s, 2 s, 4 s… up to 60 s.
    fn failed(&mut self) {
        self.failures += 1;
        let backoff =
            FIRST_BACKOFF.saturating_mul(1 << self.failures.min(7).saturating_sub(1)).min(MAX_BACKOFF);
        self.retry_at = Some(Instant::now() + backoff);
    }
}

impl ServerSlot {
    pub fn new(
        spec: ServerSpec,
        root: &Path,
        policy: Option<BoxPolicy>,
        start_timeout: Duration,
    ) -> Arc<Self> {
        Self::with_setup(spec, root, policy, ClientSetup::default(), start_timeout)
    }

    pub fn with_setup(
        spec: ServerSpec,
        root: &Path,
        policy: Option<BoxPolicy>,
        setup: ClientSetup,
        start_timeout: Duration,
    ) -> Arc<Self> {
        Arc::new_cyclic(|me| Self {
            me: me.clone(),
            spec,
            root: root.to_path_buf(),
            policy: std::sync::Mutex::new(policy),
            setup,
            start_timeout,
            state: Default::default(),
        })
    }

    pub(super) fn policy(&self) -> Option<BoxPolicy> {
        self.policy.lock().map(|p| p.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }

    /// The project's network rules are now `rules` (the user changed them, or answered "always"
    /// about a host): the running server's proxy applies them from its next connection, and so
    /// does its next start.
    pub(super) async fn follow_rules(&self, rules: &crate::containment::net::Rules) {
        {
            let mut policy = self.policy.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            match policy.as_mut() {
                Some(policy) if policy.network_rules != *rules => policy.network_rules = rules.clone(),
                _ => return,
            }
        }
        if let Some(connection) = self.state.lock().await.connection.as_ref() {
            connection.set_network_rules(rules);
        }
    }

    /// The process id of the running stdio server (`None` when none runs).
    pub async fn pid(&self) -> Option<u32> {
        let state = self.state.lock().await;
        state.connection.as_ref().filter(|c| !c.is_closed()).and_then(|c| c.pid())
    }

    /// Watch `connection`: when it closes without Warden closing it (the server died), start the
    /// server again, pausing as after a failed start, until it runs, needs a sign-in, or the slot
    /// is gone (removed from the settings, Warden ending).
    fn watch(&self, connection: &Arc<Connection>) {
        let slot = self.me.clone();
        let watched = Arc::downgrade(connection);
        let began = Instant::now();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(WATCH_EVERY).await;
                let Some(connection) = watched.upgrade() else { return };
                if !connection.is_closed() {
                    continue;
                }
                let Some(slot) = slot.upgrade() else { return };
                let mut state = slot.state.lock().await;
                // Still the slot's connection (not replaced meanwhile): it died.
                if state.connection.as_ref().is_some_and(|c| Arc::ptr_eq(c, &connection)) {
                    tracing::warn!(server = %slot.spec.name, "MCP server stopped; starting it again");
                    state.stderr = connection.stderr_tail();
                    state.connection = None;
                    state.error = Some("stopped".to_owned());
                    if began.elapsed() < STABLE {
                        state.failed();
                    } else {
                        state.failures = 0;
                    }
                }
                break;
            }
            loop {
                let Some(slot) = slot.upgrade() else { return };
                match slot.connection().await {
                    // The new connection has its own watcher.
                    Ok(_) => return,
                    Err(_) => {
                        let state = slot.state.lock().await;
                        if state.sign_in.is_some() {
                            return;
                        }
                        let wait = state.retry_at.map(|at| at.saturating_duration_since(Instant::now()));
                        drop(state);
                        drop(slot);
                        tokio::time::sleep(wait.unwrap_or(FIRST_BACKOFF).max(WATCH_EVERY)).await;
                    }
                }
            }
        });
    }

    /// Sign the user in to this (HTTP) server, as the client its entry names if it names one (by
    /// itself, without the browser, for the client-credentials and enterprise grants); its next
    /// connection uses the tokens.
    pub async fn sign_in(&self, authorizer: &dyn Authorizer) -> Result<(), McpError> {
        let Transport::Http { url, oauth: client, .. } = &self.spec.transport else {
            return Err(McpError::SignIn("only servers reached by URL sign in".to_owned()));
        };
        let Some(secrets) = &self.setup.secrets else {
            return Err(McpError::SignIn("there is no keychain to keep the sign-in in".to_owned()));
        };
        let challenge = self.state.lock().await.sign_in.clone().flatten();
        let credentials = KeychainCredentials::of(secrets.clone(), &self.spec.name, self.spec.origin, url);
        match client {
            Some(client) if client_credentials::signs_in_by_itself(client) => {
                client_credentials::sign_in_by_itself(url, credentials, client, Some(secrets)).await?
            }
            _ => {
                let registered = match client {
                    Some(client) => client_credentials::registered(client, Some(secrets)).await?,
                    None => None,
                };
                let identity = oauth::Identity {
                    registered: registered.as_ref(),
                    metadata_url: client.as_ref().and_then(|c| c.client_metadata_url.as_deref()),
                };
                oauth::sign_in(url, credentials, challenge.as_deref(), identity, authorizer).await?
            }
        }
        self.close().await;
        *self.state.lock().await = SlotState::default();
        Ok(())
    }

    /// The server's entry, as the session's tools read it (their names, the user's choices).
    pub(super) fn spec(&self) -> &ServerSpec {
        &self.spec
    }

    /// The project folder it was started for.
    pub(super) fn root(&self) -> &Path {
        &self.root
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The live connection, started (again) when there is none or it has closed; `Err` says why
    /// there is none in words that follow "the MCP server `x` …".
    pub async fn connection(&self) -> Result<Arc<Connection>, String> {
        let mut state = self.state.lock().await;
        if let Some(connection) = &state.connection {
            if !connection.is_closed() {
                return Ok(connection.clone());
            }
            state.stderr = connection.stderr_tail();
            state.connection = None;
            state.error = Some("stopped".to_owned());
        }
        if state.sign_in.is_some() {
            return Err("needs you to sign in (Settings → MCP servers, or `warden mcp login`)".to_owned());
        }
        if let Some(at) = state.retry_at {
            let wait = at.saturating_duration_since(Instant::now());
            if !wait.is_zero() {
                let error = state.error.clone().unwrap_or_default();
                return Err(format!("failed ({error}); Warden tries again in {} s", wait.as_secs().max(1)));
            }
        }
        let started = tokio::time::timeout(
            self.start_timeout,
            connect_with(&self.spec, &self.root, self.policy().as_ref(), &self.setup),
        )
        .await;
        let error = match started {
            Ok(Ok(connection)) => {
                let connection = Arc::new(connection);
                // Failures are forgotten only once it has run a while (see `watch`).
                *state = SlotState {
                    connection: Some(connection.clone()),
                    failures: state.failures,
                    ..SlotState::default()
                };
                self.watch(&connection);
                return Ok(connection);
            }
            Ok(Err(McpError::NeedsSignIn { challenge })) => {
                state.sign_in = Some(challenge);
                state.error = Some("needs you to sign in".to_owned());
                return Err("needs you to sign in (Settings → MCP servers, or `warden mcp login`)".to_owned());
            }
            Ok(Err(error)) => error.to_string(),
            Err(_) => format!("did not start within {} s", self.start_timeout.as_secs()),
        };
        state.failed();
        state.error = Some(error.clone());
        tracing::warn!(server = %self.spec.name, %error, "MCP server not available");
        Err(format!("could not be started: {error}"))
    }

    /// The live connection, if the server runs now (never starts it).
    pub(super) async fn running(&self) -> Option<Arc<Connection>> {
        let state = self.state.lock().await;
        state.connection.as_ref().filter(|c| !c.is_closed()).cloned()
    }

    /// Where the server stands now, with its tools.
    pub async fn status(&self) -> McpServerStatus {
        let state = self.state.lock().await;
        let (state_now, tools, stderr) = match &state.connection {
            Some(connection) if !connection.is_closed() => {
                let tools = connection.tools().await.unwrap_or_default();
                let infos = tools
                    .iter()
                    .map(|tool| McpToolInfo {
                        name: tool.name.to_string(),
                        qualified_name: qualified(&self.spec.name, &tool.name),
                        description: tool.description.as_deref().unwrap_or("").to_owned(),
                        choice: self.spec.tools.get(tool.name.as_ref()).copied(),
                    })
                    .collect();
                (McpServerState::Connected, infos, connection.stderr_tail())
            }
            Some(connection) => {
                (McpServerState::Failed { error: "stopped".to_owned() }, Vec::new(), connection.stderr_tail())
            }
            None if state.sign_in.is_some() => (McpServerState::NeedsSignIn, Vec::new(), Vec::new()),
            None => match &state.error {
                Some(error) => {
                    (McpServerState::Failed { error: error.clone() }, Vec::new(), state.stderr.clone())
                }
                None => (McpServerState::Starting, Vec::new(), Vec::new()),
            },
        };
        let (resources, prompts) = match &state.connection {
            Some(connection) if !connection.is_closed() => connection.catalog().await,
            _ => (Vec::new(), Vec::new()),
        };
        McpServerStatus {
            name: self.spec.name.clone(),
            transport: self.spec.transport.kind().to_owned(),
            state: state_now,
            tools,
            stderr_tail: stderr,
            resources,
            prompts,
        }
    }

    /// Close the connection (and a stdio server's process tree).
    pub(super) async fn close(&self) {
        let connection = self.state.lock().await.connection.take();
        if let Some(connection) = connection {
            match Arc::try_unwrap(connection) {
                Ok(connection) => connection.close().await,
                // A call still holds it: the process ends when that call lets go.
                Err(shared) => drop(shared),
            }
        }
    }
}

/// Whether a server started in the box `old` may go on running now that the box is `new`: the same
/// network and writable folders (what the project's Sandbox settings change). A box that reaches
/// further or less far starts the server again in the new one, so a project's server never keeps
/// the network its project's commands lost. (A secret file that appears in the project changes the
/// box's hidden list too; that restarts nothing, as it does not for a running background command.)
pub(super) fn same_reach(old: Option<&BoxPolicy>, new: Option<&BoxPolicy>) -> bool {
    match (old, new) {
        (Some(old), Some(new)) => old.network == new.network && old.writable == new.writable,
        (None, None) => true,
        _ => false,
    }
}
