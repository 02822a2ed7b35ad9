//! A loopback relay in front of the real server that names the first offered tool in
//! `tool_choice`. Warden sends `"auto"`, which leaves a 135M model free not to call anything, and
//! llama-cpp-python streams a tool call only when the tool is named: with the name, the server's
//! own streamed call (it starts with a chunk whose `tool_calls` is `null`) reaches Warden on every
//! run. Only the request's `tool_choice` changes; the answer is the server's bytes, passed on as
//! they come, and the relay notes what it saw so a test can show which path it exercised.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What went through the relay.
#[derive(Default)]
pub struct Seen {
    /// Streamed requests whose `tool_choice` the relay named.
    pub forced_streams: AtomicUsize,
    /// Whether the answer to such a request carried the chunk that starts this server's streamed
    /// call: a delta whose `tool_calls` is `null`.
    pub null_tool_calls: AtomicBool,
}

pub struct ForcingRelay {
    pub base_url: String,
    pub seen: Arc<Seen>,
    task: tokio::task::JoinHandle<()>,
}

impl ForcingRelay {
    /// A relay on a free loopback port forwarding to the server at `127.0.0.1:upstream`.
    pub async fn start(upstream: u16) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Seen::default());
        let task = tokio::spawn({
            let seen = Arc::clone(&seen);
            async move {
                while let Ok((client, _)) = listener.accept().await {
                    tokio::spawn(relay_one(client, upstream, Arc::clone(&seen)));
                }
            }
        });
        Self { base_url: format!("http://127.0.0.1:{port}/v1"), seen, task }
    }
}

impl Drop for ForcingRelay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// One request: read it whole, name the tool, send it on with `connection: close`, and copy the
/// answer back until the server closes.
async fn relay_one(mut client: TcpStream, upstream: u16, seen: Arc<Seen>) -> std::io::Result<()> {
    let mut request = Vec::new();
    let head_end = loop {
        if let Some(at) = request.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if read_some(&mut client, &mut request).await? == 0 {
            return Ok(());
        }
    };
    let head = String::from_utf8_lossy(&request[..head_end]).into_owned();
    let length = header(&head, "content-length").and_then(|v| v.parse::<usize>().ok()).unwrap_or(0);
    while request.len() < head_end + length {
        if read_some(&mut client, &mut request).await? == 0 {
            return Ok(());
        }
    }
    let mut body = request[head_end..head_end + length].to_vec();
    let mut forced_stream = false;
    if let Ok(mut json) = serde_json::from_slice::<Value>(&body) {
        if let Some(name) = json["tools"][0]["function"]["name"].as_str().map(str::to_owned) {
            json["tool_choice"] = json!({"type": "function", "function": {"name": name}});
            forced_stream = json["stream"] == true;
            body = serde_json::to_vec(&json).unwrap();
        }
    }

    let mut lines = head.trim_end().split("\r\n");
    let mut out = format!("{}\r\n", lines.next().unwrap_or_default());
    for line in lines {
        let name = line.split(':').next().unwrap_or_default().trim().to_ascii_lowercase();
        if name != "content-length" && name != "connection" {
            out.push_str(line);
            out.push_str("\r\n");
        }
    }
    out.push_str(&format!("content-length: {}\r\nconnection: close\r\n\r\n", body.len()));

    let mut server = TcpStream::connect(("127.0.0.1", upstream)).await?;
    server.write_all(out.as_bytes()).await?;
    server.write_all(&body).await?;
    let mut answer = Vec::new();
    loop {
        let before = answer.len();
        if read_some(&mut server, &mut answer).await? == 0 {
            break;
        }
        client.write_all(&answer[before..]).await?;
    }
    if forced_stream {
        seen.forced_streams.fetch_add(1, Ordering::SeqCst);
        if answer.windows(19).any(|w| w == b"\"tool_calls\": null}") {
            seen.null_tool_calls.store(true, Ordering::SeqCst);
        }
    }
    client.shutdown().await
}

async fn read_some(from: &mut TcpStream, into: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut chunk = [0u8; 8192];
    let read = from.read(&mut chunk).await?;
    into.extend_from_slice(&chunk[..read]);
    Ok(read)
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.trim().eq_ignore_ascii_case(name).then(|| value.trim())
    })
}
