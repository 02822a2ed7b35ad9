//! Sessions made by the engine as the window and `warden exec` make them, against a loopback
//! provider, for the tests of what the engine adds around the loop (skills, commands, hooks).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;
use tokio::sync::mpsc;
use warden_core::config::WardenHome;
use warden_core::engine::{Engine, SessionSpec};
use warden_core::scope::Scope;
use warden_core::secrets::{MemoryStore, SecretStore};
use warden_protocol::{Event, KeyName, ProviderId, ToolApproval, TrustLevel};

use crate::support::server::TestServer;

pub struct Place {
    pub dirs: TempDir,
    pub project: PathBuf,
    secrets: Arc<MemoryStore>,
}

pub async fn place() -> Place {
    let dirs = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(dirs.path()).unwrap().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    let secrets = Arc::new(MemoryStore::new());
    secrets.set(KeyName::Anthropic, "test-key").await.unwrap();
    Place { dirs, project, secrets }
}

impl Place {
    pub fn home(&self) -> PathBuf {
        self.dirs.path().join("home")
    }

    pub fn engine(&self) -> Engine {
        let home = WardenHome::at(self.home()).with_agents_dir(self.dirs.path().join("agents"));
        Engine::new(home, self.secrets.clone()).unwrap()
    }
}

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A session of the engine in `project` against `server`, with `trust` and every built-in tool.
pub async fn start_session(
    engine: &Engine,
    project: &Path,
    server: &TestServer,
    trust: TrustLevel,
) -> (warden_core::agent::Session, mpsc::UnboundedReceiver<Event>) {
    let mut spec = SessionSpec::new(project.to_path_buf());
    spec.provider = ProviderId::Anthropic;
    spec.base_url = Some(server.url.clone());
    spec.model = Some("claude-test".to_owned());
    spec.scope = Some(Scope::all());
    spec.trust = trust;
    engine.start(spec).await.unwrap()
}

/// Send `prompt`, answering every confirmation with `approve`; the turn's events.
pub async fn run(
    session: &warden_core::agent::Session,
    events: &mut mpsc::UnboundedReceiver<Event>,
    prompt: &str,
    approve: bool,
) -> Vec<Event> {
    let turn = tokio::spawn({
        let session = session.clone();
        let prompt = prompt.to_owned();
        async move { session.send(prompt).await }
    });
    tokio::pin!(turn);
    let mut seen = Vec::new();
    loop {
        tokio::select! {
            biased;
            Some(event) = events.recv() => {
                if let Event::ToolConfirm(confirm) = &event {
                    let answer = ToolApproval {
                        confirm_id: confirm.confirm_id.clone(),
                        approved: approve,
                        reason: None,
                        remember: None,
                        always: None,
                    };
                    let _ = session.approve(answer);
                }
                seen.push(event);
            }
            joined = &mut turn => { joined.unwrap().unwrap(); break; }
            () = tokio::time::sleep(Duration::from_secs(60)) => panic!("the turn did not end"),
        }
    }
    while let Ok(event) = events.try_recv() {
        seen.push(event);
    }
    seen
}

/// The text of message `n` of the request (a plain string, or its first block's text).
pub fn message_text(request: &Value, n: usize) -> String {
    let content = &request["messages"][n]["content"];
    content.as_str().or_else(|| content[0]["text"].as_str()).unwrap_or_default().to_owned()
}

pub fn tool_names(request: &Value) -> Vec<String> {
    request["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect()
}

/// Every tool result the request carries, as text.
pub fn tool_results(request: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for message in request["messages"].as_array().unwrap() {
        for block in message["content"].as_array().into_iter().flatten() {
            if block["type"] == "tool_result" {
                out.push(block["content"].to_string());
            }
        }
    }
    out
}
