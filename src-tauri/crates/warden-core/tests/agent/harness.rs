//! Drives a real `Session` against the loopback server: a real provider over HTTP, the real tool
//! registry on a temporary project, answers to confirmations chosen by the test.

use std::sync::Arc;
use std::time::Duration;

use tempfile::TempDir;
use tokio::sync::mpsc;
use warden_core::agent::{Session, SessionConfig, ToolEnvironment, TurnEnd};
use warden_core::checkpoint::CheckpointStore;
use warden_core::provider::{build_provider, ProviderKind, ProviderOptions, RetryPolicy};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::secrets::ApiKey;
use warden_core::tool::{ToolRegistry, ToolsConfig};
use warden_protocol::{Event, ToolApproval, ToolConfirm, ToolResult, TrustLevel};

use super::wire::{self, Part};
use crate::support::server::{Recorded, Reply, Split, TestServer};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    Anthropic,
    OpenAi,
    Ollama,
}

pub const ALL_WIRES: [Wire; 3] = [Wire::Anthropic, Wire::OpenAi, Wire::Ollama];

impl Wire {
    pub fn reply(self, parts: &[Part], usage_in: u32) -> Reply {
        match self {
            Wire::Anthropic => Reply::sse(wire::anthropic(parts, usage_in), Split::Random(3)),
            Wire::OpenAi => Reply::sse(wire::openai(parts, usage_in), Split::Random(3)),
            Wire::Ollama => Reply::ndjson(wire::ollama(parts, usage_in), Split::Random(3)),
        }
    }

    fn kind(self) -> ProviderKind {
        match self {
            Wire::Anthropic => ProviderKind::Anthropic,
            Wire::OpenAi => ProviderKind::OpenAi,
            Wire::Ollama => ProviderKind::Ollama,
        }
    }
}

pub struct Harness {
    pub project: TempDir,
    _home: TempDir,
    pub server: TestServer,
    pub session: Session,
    /// The project's checkpoint store, for sessions built with [`Harness::checkpointed`].
    pub checkpoints: Option<Arc<CheckpointStore>>,
    events: mpsc::UnboundedReceiver<Event>,
}

/// How a test answers a confirmation: `None` leaves it unanswered.
pub type Approver = Box<dyn FnMut(&ToolConfirm) -> Vec<ToolApproval> + Send>;

pub fn approve_all() -> Approver {
    Box::new(|c| vec![answer(&c.confirm_id, true)])
}

/// The answer to confirmation `confirm_id`.
pub fn answer(confirm_id: &str, approved: bool) -> ToolApproval {
    ToolApproval { confirm_id: confirm_id.to_owned(), approved, reason: None, remember: None, always: None }
}

pub struct Run {
    pub end: TurnEnd,
    pub events: Vec<Event>,
    pub elapsed: Duration,
}

impl Run {
    pub fn names(&self) -> Vec<&'static str> {
        self.events.iter().map(Event::name).collect()
    }

    pub fn confirms(&self) -> Vec<&ToolConfirm> {
        self.events
            .iter()
            .filter_map(|e| if let Event::ToolConfirm(c) = e { Some(c) } else { None })
            .collect()
    }

    pub fn results(&self) -> Vec<&ToolResult> {
        self.events.iter().filter_map(|e| if let Event::ToolResult(r) = e { Some(r) } else { None }).collect()
    }

    pub fn text(&self) -> String {
        self.events
            .iter()
            .filter_map(|e| if let Event::TextDelta(t) = e { Some(t.delta.as_str()) } else { None })
            .collect()
    }

    pub fn last_stream_end(&self) -> &warden_protocol::StreamEnd {
        self.events
            .iter()
            .rev()
            .find_map(|e| if let Event::StreamEnd(s) = e { Some(s) } else { None })
            .expect("a stream-end")
    }

    /// Every tool call that got a result got a start before it.
    pub fn assert_starts_before_results(&self) {
        let mut started = std::collections::HashSet::new();
        for event in &self.events {
            match event {
                Event::ToolStart(s) => {
                    started.insert(s.tool_id.clone());
                }
                Event::ToolResult(r) => {
                    assert!(started.contains(&r.tool_id), "result before start for {}", r.tool_id)
                }
                _ => {}
            }
        }
    }
}

impl Harness {
    /// A session whose provider answers with `replies` in order.
    pub async fn new(wire: Wire, replies: Vec<Reply>, configure: impl FnOnce(&mut SessionConfig)) -> Self {
        Self::with_tools_config(wire, replies, ToolsConfig::default(), configure).await
    }

    pub async fn with_tools_config(
        wire: Wire,
        replies: Vec<Reply>,
        tools_config: ToolsConfig,
        configure: impl FnOnce(&mut SessionConfig),
    ) -> Self {
        Self::build(wire, replies, tools_config, configure, true, false).await
    }

    /// [`Harness::new`] with a checkpoint store in the home folder, as the engine makes sessions.
    pub async fn checkpointed(
        wire: Wire,
        replies: Vec<Reply>,
        prepare: impl FnOnce(&std::path::Path),
        configure: impl FnOnce(&mut SessionConfig),
    ) -> Self {
        Self::build_with(wire, replies, ToolsConfig::default(), configure, true, true, prepare).await
    }

    /// [`Harness::new`] on a machine where commands cannot be contained (no OS box).
    pub async fn unboxed(
        wire: Wire,
        replies: Vec<Reply>,
        configure: impl FnOnce(&mut SessionConfig),
    ) -> Self {
        Self::build(wire, replies, ToolsConfig::default(), configure, false, false).await
    }

    async fn build(
        wire: Wire,
        replies: Vec<Reply>,
        tools_config: ToolsConfig,
        configure: impl FnOnce(&mut SessionConfig),
        boxed: bool,
        checkpointed: bool,
    ) -> Self {
        Self::build_with(wire, replies, tools_config, configure, boxed, checkpointed, |_| {}).await
    }

    async fn build_with(
        wire: Wire,
        replies: Vec<Reply>,
        tools_config: ToolsConfig,
        configure: impl FnOnce(&mut SessionConfig),
        boxed: bool,
        checkpointed: bool,
        prepare: impl FnOnce(&std::path::Path),
    ) -> Self {
        let project = tempfile::tempdir().unwrap();
        prepare(project.path());
        let home = tempfile::tempdir().unwrap();
        let server = TestServer::start(replies).await;
        let provider = build_provider(
            wire.kind(),
            ProviderOptions {
                base_url: Some(if wire == Wire::OpenAi {
                    format!("{}/v1", server.url)
                } else {
                    server.url.clone()
                }),
                api_key: ApiKey::new("test-key"),
                native_tools: true,
                idle_timeout: Duration::from_secs(10),
                retry: RetryPolicy {
                    max_attempts: 1,
                    base_delay: Duration::from_millis(1),
                    max_delay: Duration::from_millis(1),
                },
                learned: None,
            },
        );
        let mut config = SessionConfig::new("conv-1", "test-model");
        config.trust = TrustLevel::Guided;
        config.scope = Scope::all();
        config.approval_timeout = Some(Duration::from_secs(10));
        configure(&mut config);
        let workspace =
            Workspace::new(project.path(), home.path().join("storage"), config.scope.clone()).unwrap();
        let mut env =
            if boxed { ToolEnvironment::new(workspace) } else { ToolEnvironment::without_box(workspace) };
        let mut checkpoints = None;
        if checkpointed {
            let store =
                CheckpointStore::open(&home.path().join("checkpoints"), env.workspace().clone()).unwrap();
            let store = Arc::new(store);
            env = env.with_checkpoints(store.clone());
            checkpoints = Some(store);
        }
        let (session, events) =
            Session::new(config, provider, Arc::new(ToolRegistry::with_core_tools(tools_config)), env);
        Self { project, _home: home, server, session, checkpoints, events }
    }

    /// Send `prompt` and collect the turn's events, answering confirmations with `approver`.
    pub async fn run(&mut self, prompt: &str, mut approver: Approver) -> Run {
        let started = std::time::Instant::now();
        let session = self.session.clone();
        let prompt = prompt.to_owned();
        let turn = tokio::spawn(async move { session.send(prompt).await });
        tokio::pin!(turn);
        let mut events = Vec::new();
        let end = loop {
            tokio::select! {
                biased;
                Some(event) = self.events.recv() => {
                    if let Event::ToolConfirm(confirm) = &event {
                        for approval in approver(confirm) {
                            let _ = self.session.approve(approval);
                        }
                    }
                    events.push(event);
                }
                joined = &mut turn => break joined.unwrap().unwrap(),
                () = tokio::time::sleep(Duration::from_secs(60)) => panic!("the turn did not end within 60 s"),
            }
        };
        while let Ok(event) = self.events.try_recv() {
            events.push(event);
        }
        Run { end, events, elapsed: started.elapsed() }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.server.requests()
    }

    pub fn path(&self, relative: &str) -> std::path::PathBuf {
        self.project.path().join(relative)
    }
}
