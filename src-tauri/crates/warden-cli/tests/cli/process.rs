//! Running the real `warden` binary with a clean environment, stdin piped for approvals.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

pub struct Warden {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    stdout: Lines<BufReader<ChildStdout>>,
    pub lines: Vec<Value>,
}

/// A project folder and a Warden home of its own.
pub struct Dirs {
    pub project: TempDir,
    pub home: TempDir,
}

impl Dirs {
    pub fn new() -> Self {
        Self { project: tempfile::tempdir().unwrap(), home: tempfile::tempdir().unwrap() }
    }

    pub fn path(&self, relative: &str) -> std::path::PathBuf {
        self.project.path().join(relative)
    }
}

/// `warden exec --json` against the loopback provider `server`, then `extra`.
pub fn exec_args<'a>(server: &'a warden_testkit::server::TestServer, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "exec",
        "--json",
        "--provider",
        "anthropic",
        "--model",
        "claude-test",
        "--base-url",
        &server.url,
    ];
    args.extend_from_slice(extra);
    args
}

/// `cmd` with the session bus, where the keychain (and the settings' seal key) answers.
pub fn with_keychain(mut cmd: Command) -> Command {
    if let Some(bus) = std::env::var_os("DBUS_SESSION_BUS_ADDRESS") {
        cmd.env("DBUS_SESSION_BUS_ADDRESS", bus);
    }
    cmd
}

pub fn command(dirs: &Dirs, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warden"));
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dirs.home.path())
        .env("WARDEN_HOME", dirs.home.path())
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("OPENAI_API_KEY", "sk-openai-test")
        .current_dir(dirs.project.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

impl Warden {
    pub fn spawn(mut cmd: Command) -> Self {
        let mut child = cmd.spawn().unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        Self { child, stdin, stdout, lines: Vec::new() }
    }

    /// The next stdout line, parsed; every line must be a protocol event.
    pub async fn next_event(&mut self) -> Option<Value> {
        let line = tokio::time::timeout(Duration::from_secs(30), self.stdout.next_line())
            .await
            .expect("stdout went silent")
            .unwrap()?;
        let value: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        assert!(value["event"].as_str().is_some_and(|n| n.starts_with("chat:")), "not an event: {line}");
        assert!(value["payload"].is_object(), "no payload: {line}");
        self.lines.push(value.clone());
        Some(value)
    }

    /// Read events until one named `name`.
    pub async fn until(&mut self, name: &str) -> Value {
        loop {
            let event = self.next_event().await.unwrap_or_else(|| panic!("stdout ended before {name}"));
            if event["event"] == name {
                return event;
            }
        }
    }

    /// Answer each confirmation with what `answer_with` gives for it (`None`: stdin closed, so
    /// it and every later one is refused), until the turn ends or stdout does.
    pub async fn answer_until_turn_ends(&mut self, answer_with: impl Fn(&Value) -> Option<Value>) {
        while let Some(event) = self.next_event().await {
            if event["event"] == "chat:tool-confirm" {
                match answer_with(&event["payload"]) {
                    Some(line) => self.send_line(&line.to_string()).await,
                    None => self.close_stdin(),
                }
            }
            if event["event"] == "chat:stream-end" && event["payload"]["stopReason"] == "end_turn" {
                return;
            }
        }
    }

    pub async fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Read everything left and wait for the exit status.
    pub async fn finish(mut self) -> (i32, Vec<Value>, String) {
        self.close_stdin();
        while self.next_event().await.is_some() {}
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            use tokio::io::AsyncReadExt;
            let _ = err.read_to_string(&mut stderr).await;
        }
        let status = tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await.unwrap().unwrap();
        (status.code().unwrap_or(-1), self.lines, stderr)
    }
}

pub fn names(lines: &[Value]) -> Vec<String> {
    lines.iter().map(|l| l["event"].as_str().unwrap().to_owned()).collect()
}

pub fn find<'a>(lines: &'a [Value], name: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["event"] == name).collect()
}
