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
    pub async fn request(&mut self, mut request: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        request["type"] = json!("request");
        request["id"] = json!(id);
        self.line(request).await;
        loop {
            let frame = self.read().await;
            if frame["type"] == "response" && frame["id"] == id {
                return frame;
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
