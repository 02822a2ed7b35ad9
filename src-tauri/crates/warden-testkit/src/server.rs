//! A real HTTP/1.1 server on 127.0.0.1 that replays scripted responses and records every request.
//!
//! Stream bodies go out with chunked transfer encoding, one HTTP chunk per write, flushed, so the
//! client really sees the chosen split (whole, one byte at a time, or seeded random pieces).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    Whole,
    Bytewise,
    Random(u64),
}

pub const ALL_SPLITS: [Split; 3] = [Split::Whole, Split::Bytewise, Split::Random(7)];

#[derive(Debug, Clone)]
pub enum Reply {
    /// `200` with `content_type` and `body`, chunked.
    Stream { content_type: String, body: Vec<u8>, split: Split },
    /// A whole response written verbatim (a `.http` fixture).
    Raw { bytes: Vec<u8>, split: Split },
    /// `200` headers and `prefix`, then silence until the client goes away.
    Stall { content_type: String, prefix: Vec<u8> },
    /// `status` with `content_type`, chunked: `prefix`, then `x` after `x` with no line end, in
    /// 64 KiB chunks, until the client goes away or `most` bytes went out (then the body ends).
    /// [`TestServer::endless_sent`] counts what went out.
    Endless { status: u16, content_type: String, prefix: Vec<u8>, most: usize },
    /// The answer to the next Ollama `POST /api/show` (see [`TestServer::start`]).
    Show(Box<Reply>),
}

impl Reply {
    pub fn sse(body: Vec<u8>, split: Split) -> Self {
        Self::Stream { content_type: "text/event-stream; charset=utf-8".into(), body, split }
    }

    pub fn ndjson(body: Vec<u8>, split: Split) -> Self {
        Self::Stream { content_type: "application/x-ndjson".into(), body, split }
    }

    /// An endless `200` body of `content_type` after `prefix` (at most `most` bytes).
    pub fn endless(content_type: &str, prefix: &[u8], most: usize) -> Self {
        Self::Endless { status: 200, content_type: content_type.into(), prefix: prefix.to_vec(), most }
    }

    pub fn json(body: Vec<u8>) -> Self {
        Self::Stream { content_type: "application/json".into(), body, split: Split::Whole }
    }

    /// An SSE or NDJSON stream: a chat answer, never the answer to a `GET`.
    fn is_chat_stream(&self) -> bool {
        matches!(self, Self::Stream { content_type, .. } | Self::Endless { content_type, .. }
            if !content_type.starts_with("application/json"))
    }

    /// A `.http` fixture, optionally with its headers changed (e.g. a shorter `retry-after`).
    pub fn http(bytes: Vec<u8>) -> Self {
        Self::Raw { bytes, split: Split::Whole }
    }

    /// `reply`, kept for the next `POST /api/show`.
    pub fn show(reply: Reply) -> Self {
        Self::Show(Box::new(reply))
    }
}

/// The path of Ollama's model lookup, which an Ollama provider may make on its own before a
/// model's first chat request.
const SHOW_PATH: &str = "/api/show";

#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Lower-cased names.
    pub headers: Vec<(String, String)>,
    pub body: Value,
    pub at: std::time::Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

pub struct TestServer {
    pub url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    unscripted_shows: Arc<Mutex<Vec<Recorded>>>,
    closed: Arc<AtomicBool>,
    endless_sent: Arc<AtomicUsize>,
    endless_done: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TestServer {
    /// Serve `replies` in order, one per request; requests beyond them get a 500.
    ///
    /// Ollama's `POST /api/show` is the exception: it takes the first [`Reply::Show`] still queued
    /// (the other requests skip those). With none queued it gets a 404 and is recorded apart
    /// ([`TestServer::unscripted_shows`]), not in [`TestServer::requests`]: a test that scripts no
    /// lookup sees only the requests it scripted.
    ///
    /// A `GET` (a model listing a session may make on its own to learn a context window) never
    /// takes a streamed chat answer: when the next reply is an SSE or NDJSON stream, it gets a 404
    /// and is recorded apart in the same way.
    pub async fn start(replies: Vec<Reply>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let unscripted_shows = Arc::new(Mutex::new(Vec::new()));
        let closed = Arc::new(AtomicBool::new(false));
        let endless_sent = Arc::new(AtomicUsize::new(0));
        let endless_done = Arc::new(AtomicUsize::new(0));
        let queue = Arc::new(Mutex::new(std::collections::VecDeque::from(replies)));
        let log = Log {
            requests: requests.clone(),
            unscripted_shows: unscripted_shows.clone(),
            endless_sent: endless_sent.clone(),
            endless_done: endless_done.clone(),
        };
        let closed2 = closed.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else { return };
                let (log, closed, queue) = (log.clone(), closed2.clone(), queue.clone());
                tokio::spawn(async move {
                    let _ = serve(socket, log, closed, queue).await;
                });
            }
        });
        Self { url, requests, unscripted_shows, closed, endless_sent, endless_done, task }
    }

    /// The bytes of [`Reply::Endless`] bodies written so far (the prefix included): what the
    /// client read, give or take what the sockets' buffers hold.
    pub fn endless_sent(&self) -> usize {
        self.endless_sent.load(Ordering::SeqCst)
    }

    /// How many [`Reply::Endless`] answers are over: the client went away, or `most` went out.
    pub fn endless_done(&self) -> usize {
        self.endless_done.load(Ordering::SeqCst)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    /// The lookups nothing was scripted for (each answered 404): `POST /api/show` with no
    /// [`Reply::Show`] queued, a `GET` when a chat stream was next.
    pub fn unscripted_shows(&self) -> Vec<Recorded> {
        self.unscripted_shows.lock().unwrap().clone()
    }

    /// Whether the client closed a stalled connection.
    pub fn saw_client_close(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

#[derive(Clone)]
struct Log {
    requests: Arc<Mutex<Vec<Recorded>>>,
    unscripted_shows: Arc<Mutex<Vec<Recorded>>>,
    endless_sent: Arc<AtomicUsize>,
    endless_done: Arc<AtomicUsize>,
}

/// The reply for `request`, taken from the queue (see [`TestServer::start`]); `None` when none is
/// left. An unscripted `/api/show` gets its 404 here.
fn take_reply(
    request: Recorded,
    log: &Log,
    queue: &Mutex<std::collections::VecDeque<Reply>>,
) -> Option<Reply> {
    let mut queue = queue.lock().unwrap();
    let is_show = request.method == "POST" && request.path == SHOW_PATH;
    let at = queue.iter().position(|reply| matches!(reply, Reply::Show(_)) == is_show);
    let lookup_of_a_stream = request.method == "GET" && queue.front().is_some_and(Reply::is_chat_stream);
    if lookup_of_a_stream || (is_show && at.is_none()) {
        log.unscripted_shows.lock().unwrap().push(request);
        let body = br#"{"error":"no answer to this lookup was scripted"}"#;
        let mut bytes = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\n".to_vec();
        bytes.extend_from_slice(format!("content-length: {}\r\n\r\n", body.len()).as_bytes());
        bytes.extend_from_slice(body);
        return Some(Reply::Raw { bytes, split: Split::Whole });
    }
    log.requests.lock().unwrap().push(request);
    match queue.remove(at?)? {
        Reply::Show(reply) => Some(*reply),
        reply => Some(reply),
    }
}

async fn serve(
    mut socket: TcpStream,
    log: Log,
    closed: Arc<AtomicBool>,
    queue: Arc<Mutex<std::collections::VecDeque<Reply>>>,
) -> std::io::Result<()> {
    socket.set_nodelay(true)?;
    let mut buf = Vec::new();
    loop {
        let Some(request) = read_request(&mut socket, &mut buf).await? else { return Ok(()) };
        let reply = take_reply(request, &log, &queue);
        match reply {
            Some(Reply::Show(reply)) => unreachable!("a show reply is unwrapped when taken: {reply:?}"),
            None => {
                let body = "no scripted reply left";
                let head = format!(
                    "HTTP/1.1 500 Internal Server Error\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                );
                socket.write_all(head.as_bytes()).await?;
            }
            Some(Reply::Raw { bytes, split }) => write_split(&mut socket, &bytes, split, false).await?,
            Some(Reply::Stream { content_type, body, split }) => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\n\r\n"
                );
                socket.write_all(head.as_bytes()).await?;
                socket.flush().await?;
                write_split(&mut socket, &body, split, true).await?;
                socket.write_all(b"0\r\n\r\n").await?;
                socket.flush().await?;
            }
            Some(Reply::Endless { status, content_type, prefix, most }) => {
                let written =
                    endless(&mut socket, status, &content_type, &prefix, most, &log.endless_sent).await;
                log.endless_done.fetch_add(1, Ordering::SeqCst);
                written?;
            }
            Some(Reply::Stall { content_type, prefix }) => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\n\r\n"
                );
                socket.write_all(head.as_bytes()).await?;
                write_split(&mut socket, &prefix, Split::Whole, true).await?;
                // Wait for the client to hang up; a read of 0 bytes (or an error) is its close.
                let mut scratch = [0u8; 256];
                loop {
                    match socket.read(&mut scratch).await {
                        Ok(0) | Err(_) => {
                            closed.store(true, Ordering::SeqCst);
                            return Ok(());
                        }
                        Ok(_) => {}
                    }
                }
            }
        }
    }
}

/// The [`Reply::Endless`] answer; `sent` counts its body bytes as they go out.
async fn endless(
    socket: &mut TcpStream,
    status: u16,
    content_type: &str,
    prefix: &[u8],
    most: usize,
    sent: &AtomicUsize,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status} Endless\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await?;
    write_split(socket, prefix, Split::Whole, true).await?;
    sent.fetch_add(prefix.len(), Ordering::SeqCst);
    let fill = vec![b'x'; 64 * 1024];
    let mut total = prefix.len();
    while total < most {
        // A client that went away makes the write fail: that ends the answer.
        write_split(socket, &fill, Split::Whole, true).await?;
        total += fill.len();
        sent.fetch_add(fill.len(), Ordering::SeqCst);
    }
    socket.write_all(b"0\r\n\r\n").await?;
    socket.flush().await
}

async fn write_split(
    socket: &mut TcpStream,
    bytes: &[u8],
    split: Split,
    chunked: bool,
) -> std::io::Result<()> {
    let mut pieces: Vec<&[u8]> = Vec::new();
    match split {
        Split::Whole => pieces.push(bytes),
        Split::Bytewise => pieces.extend(bytes.chunks(1)),
        Split::Random(seed) => {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut rest = bytes;
            while !rest.is_empty() {
                let n = rng.random_range(1..=rest.len().min(64));
                let (piece, tail) = rest.split_at(n);
                pieces.push(piece);
                rest = tail;
            }
        }
    }
    for piece in pieces {
        if piece.is_empty() {
            continue;
        }
        if chunked {
            socket.write_all(format!("{:x}\r\n", piece.len()).as_bytes()).await?;
            socket.write_all(piece).await?;
            socket.write_all(b"\r\n").await?;
        } else {
            socket.write_all(piece).await?;
        }
        socket.flush().await?;
    }
    Ok(())
}

/// One HTTP/1.1 request from `socket` (what is read past it stays in `buf`); `None` when the
/// client closed first. For tests that answer by path with a server of their own.
pub async fn read_request(socket: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<Option<Recorded>> {
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let mut chunk = [0u8; 4096];
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split(' ');
    let method = first.next().unwrap_or_default().to_owned();
    let path = first.next().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize =
        headers.iter().find(|(k, _)| k == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let body_start = head_end + 4;
    while buf.len() < body_start + length {
        let mut chunk = [0u8; 65536];
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = serde_json::from_slice(&buf[body_start..body_start + length]).unwrap_or(Value::Null);
    buf.drain(..body_start + length);
    Ok(Some(Recorded { method, path, headers, body, at: std::time::Instant::now() }))
}

/// Sleep helper for tests that wait on the server.
pub async fn wait_until(mut condition: impl FnMut() -> bool, limit: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + limit;
    while tokio::time::Instant::now() < deadline {
        if condition() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    condition()
}
