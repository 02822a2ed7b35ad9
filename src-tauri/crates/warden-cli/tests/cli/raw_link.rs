//! `warden serve --stdio` driven frame by frame over a transport, as a face of any version would.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// `warden serve --stdio` driven frame by frame, as a face of any version would.
pub struct RawLink {
    child: tokio::process::Child,
    stdin: Option<tokio::process::ChildStdin>,
    stdout: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    next_id: u64,
}

impl RawLink {
    pub async fn start(transport: &str) -> Self {
        let mut child = tokio::process::Command::new("sh")
            .args(["-c", transport])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        Self { child, stdin, stdout, next_id: 1 }
    }

    pub async fn line(&mut self, value: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(format!("{value}\n").as_bytes()).await.unwrap();
        stdin.flush().await.unwrap();
    }

    pub async fn read(&mut self) -> Value {
        let line =
            tokio::time::timeout(Duration::from_secs(60), self.stdout.next_line()).await.unwrap().unwrap();
        serde_json::from_str(&line.expect("the engine closed the link")).unwrap()
    }

    pub async fn hello(&mut self, version: &str) -> Value {
        self.line(json!({"type": "hello", "version": version, "protocol": warden_protocol::REMOTE_PROTOCOL}))
            .await;
        self.read().await
    }

    /// Send a request and read until its answer (events between are skipped).
    pub async fn request(&mut self, request: Value) -> Value {
        self.request_seeing(request).await.0
    }

    /// Send a request and read until its answer, with the frames that came before it.
    pub async fn request_seeing(&mut self, mut request: Value) -> (Value, Vec<Value>) {
        let id = self.next_id;
        self.next_id += 1;
        request["type"] = json!("request");
        request["id"] = json!(id);
        self.line(request).await;
        let mut before = Vec::new();
        loop {
            let frame = self.read().await;
            if frame["type"] == "response" && frame["id"] == id {
                return (frame, before);
            }
            before.push(frame);
        }
    }

    /// Send `content` in the open session and read until its turn ends; returns how it ended.
    pub async fn turn(&mut self, conversation_id: &str, content: &str) -> Value {
        let send =
            json!({"method": "send", "params": {"conversationId": conversation_id, "content": content}});
        let sent = self.request(send).await;
        assert_eq!(sent["ok"]["kind"], "done", "{sent}");
        loop {
            let frame = self.read().await;
            if frame["type"] == "turn_ended" {
                return frame["end"].clone();
            }
        }
    }

    /// Frames until the session's next `chat:tool-confirm`, its payload (`None`: the turn ended
    /// first).
    pub async fn confirm_or_end(&mut self) -> Option<Value> {
        loop {
            let frame = self.read().await;
            if frame["type"] == "turn_ended" {
                return None;
            }
            if frame["type"] == "event" && frame["event"]["event"] == "chat:tool-confirm" {
                return Some(frame["event"]["payload"].clone());
            }
        }
    }

    /// Close the link and wait for the engine's exit status.
    pub async fn finish(mut self) -> Option<i32> {
        self.stdin = None;
        let status = tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await.unwrap().unwrap();
        status.code()
    }
}

/// A link to the engine of `user` (its runtime folder `run`), greeted, with a new conversation of
/// `project` opened there in Autonomous, the model at `base_url`: the link, the conversation's id
/// and the settings it was sent.
pub async fn autonomous_session(
    run: &super::remote_side::RunDir,
    user: &super::remote_side::RemoteUser,
    project: &super::remote_side::RemoteProject,
    base_url: &str,
) -> (RawLink, String, warden_protocol::Settings) {
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    let mut open = open_request(project, base_url);
    open.session.trust = warden_protocol::TrustLevel::Autonomous;
    let (id, settings) = (open.session.conversation_id.clone(), open.settings.clone());
    assert_eq!(link.request(json!({"method": "open", "params": open})).await["ok"]["kind"], "opened");
    (link, id, settings)
}

/// A new conversation in `project` there, saved there, with the model at `base_url` (Anthropic's
/// wire, in Guided), the key sent with it, and no MCP server.
pub fn open_request(
    project: &super::remote_side::RemoteProject,
    base_url: &str,
) -> warden_protocol::RemoteOpen {
    warden_protocol::RemoteOpen {
        settings: warden_protocol::Settings::default(),
        keys: vec![warden_protocol::RemoteKey {
            name: warden_protocol::KeyName::Anthropic,
            value: "sk-ant-raw-link-test-1".to_owned(),
        }],
        mcp_secrets: Vec::new(),
        mcp_sign_ins: Vec::new(),
        session: warden_protocol::RemoteSession {
            project: project.path.to_string_lossy().into_owned(),
            conversation_id: uuid::Uuid::new_v4().to_string(),
            resume: false,
            continue_last: false,
            provider: warden_protocol::ProviderId::Anthropic,
            model: Some("claude-test".to_owned()),
            base_url: Some(base_url.to_owned()),
            native_tools: None,
            trust: warden_protocol::TrustLevel::Guided,
            allow: None,
            approval_timeout_secs: None,
            max_turns: 5,
            searxng_url: None,
            network: None,
            save: true,
            window: true,
            remote_env_keys: false,
        },
    }
}
