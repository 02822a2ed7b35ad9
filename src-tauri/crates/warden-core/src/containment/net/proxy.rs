//! Warden's egress proxy: the only way out of a box's private network. It listens on a unix socket
//! in a private folder that boxes see read-only (the box's launcher bridges the box's loopback to
//! it), speaks HTTP (`CONNECT` and plain requests) and SOCKS5 on the same socket, resolves names
//! itself and connects only where [`Rules`] allow. It adds nothing to what passes (no credential,
//! no header beyond `Connection: close` on plain HTTP) and records every decision.
//!
//! Blocking I/O on threads: a handful of connections per command, each a copy loop; a runtime
//! would add nothing but a dependency on the caller's.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Duration;

use super::ask::{Asker, Memory};
use super::rules::{Refusal, Rules};
use super::{http, socks};

/// How long a client may take to say where it wants to go.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the proxy tries one address.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How many decisions are kept for [`Proxy::decisions`].
const KEPT: usize = 1000;
/// How many connections one proxy carries at once; more are closed at once (each holds a thread
/// or three in Warden's process, and the box's programs are not trusted to be modest).
const MAX_CONNECTIONS: usize = 256;
/// The socket's name in the proxy's folder.
pub const SOCKET_NAME: &str = "proxy.sock";

/// One request the proxy answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub host: String,
    pub port: u16,
    /// `Ok` when it connected; else why not.
    pub outcome: Result<(), String>,
}

/// What a proxy calls on each decision (`warden sandbox` prints refusals).
pub type Report = dyn Fn(&Decision) + Send + Sync;

pub(super) struct State {
    /// Replaced as a whole when the user's rules change under a running session ([`Proxy::set_rules`]).
    rules: RwLock<Rules>,
    /// Who asks about a host no rule names, and the session's answers.
    memory: Memory,
    /// The last [`KEPT`] decisions, each with its number (counted from the proxy's start).
    log: Mutex<(u64, VecDeque<(u64, Decision)>)>,
    report: Option<Box<Report>>,
    stopped: AtomicBool,
    open: AtomicUsize,
}

/// A client connection: a box's bridge on the unix socket or, for the Landlock fallback (which has
/// no network namespace to bridge from), a program on this machine's loopback.
pub(super) trait Client: Read + Write + Send + Sized + 'static {
    fn try_clone(&self) -> std::io::Result<Self>;
    fn shutdown_write(&self);
    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()>;
}

impl Client for UnixStream {
    fn try_clone(&self) -> std::io::Result<Self> {
        UnixStream::try_clone(self)
    }
    fn shutdown_write(&self) {
        let _ = self.shutdown(Shutdown::Write);
    }
    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()> {
        UnixStream::set_read_timeout(self, timeout)
    }
}

impl Client for TcpStream {
    fn try_clone(&self) -> std::io::Result<Self> {
        TcpStream::try_clone(self)
    }
    fn shutdown_write(&self) {
        let _ = self.shutdown(Shutdown::Write);
    }
    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()> {
        TcpStream::set_read_timeout(self, timeout)
    }
}

/// A running proxy; it stops when dropped.
pub struct Proxy {
    dir: tempfile::TempDir,
    shared: Arc<State>,
    /// The loopback port, opened on first ask ([`Proxy::tcp_port`]).
    tcp: OnceLock<Result<u16, String>>,
}

impl Proxy {
    /// Start a proxy applying `rules`, calling `report` (if any) on each decision.
    pub fn start(rules: Rules, report: Option<Box<Report>>) -> std::io::Result<Self> {
        let dir = tempfile::Builder::new().prefix("warden-net-").tempdir()?;
        let listener = UnixListener::bind(dir.path().join(SOCKET_NAME))?;
        let shared = Arc::new(State {
            rules: RwLock::new(rules),
            memory: Memory::default(),
            log: Mutex::new((0, VecDeque::new())),
            report,
            stopped: AtomicBool::new(false),
            open: AtomicUsize::new(0),
        });
        let accepting = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("warden-proxy".into())
            .spawn(move || accept(listener.incoming(), &accepting))?;
        Ok(Self { dir, shared, tcp: OnceLock::new() })
    }

    /// The proxy's port on this machine's loopback, for the Landlock fallback, whose boxes may
    /// connect to it and to no other TCP port. Opened on first ask, so a machine where every box
    /// is bubblewrap's has no proxy port any local program could use.
    pub fn tcp_port(&self) -> Result<u16, String> {
        self.tcp
            .get_or_init(|| {
                let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                    .map_err(|e| format!("cannot open the network proxy's port: {e}"))?;
                let port = listener.local_addr().map_err(|e| e.to_string())?.port();
                let accepting = Arc::clone(&self.shared);
                std::thread::Builder::new()
                    .name("warden-proxy-tcp".into())
                    .spawn(move || accept(listener.incoming(), &accepting))
                    .map_err(|e| e.to_string())?;
                Ok(port)
            })
            .clone()
    }

    /// The folder holding the socket, to mount into a box.
    /// Apply `rules` from the next connection on (those open stay open).
    pub fn set_rules(&self, rules: Rules) {
        match self.shared.rules.write() {
            Ok(mut current) => *current = rules,
            Err(poisoned) => *poisoned.into_inner() = rules,
        }
    }

    /// Ask `asker` about the hosts no rule names (rules with `ask`).
    pub fn set_asker(&self, asker: Arc<dyn Asker>) {
        self.shared.memory.set_asker(asker);
    }

    /// The running call has ended: its "allow once" answers end with it.
    pub fn forget_once(&self) {
        self.shared.memory.forget_once();
    }

    /// The rules the proxy applies now.
    pub fn rules(&self) -> Rules {
        self.shared.rules.read().map(|rules| rules.clone()).unwrap_or_default()
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub fn socket(&self) -> PathBuf {
        self.dir.path().join(SOCKET_NAME)
    }

    /// The latest decisions, oldest first.
    pub fn decisions(&self) -> Vec<Decision> {
        self.decisions_after(0).1
    }

    /// The decisions numbered after `mark` (those still kept), and the mark to ask from next.
    pub fn decisions_after(&self, mark: u64) -> (u64, Vec<Decision>) {
        match self.shared.log.lock() {
            Ok(log) => {
                let after = log.1.iter().filter(|(n, _)| *n > mark).map(|(_, d)| d.clone()).collect();
                (log.0, after)
            }
            Err(_) => (mark, Vec::new()),
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::SeqCst);
        // Wakes the accepting threads, which then see the flag.
        let _ = UnixStream::connect(self.socket());
        if let Some(Ok(port)) = self.tcp.get() {
            let _ = TcpStream::connect((Ipv4Addr::LOCALHOST, *port));
        }
    }
}

fn accept<C: Client>(incoming: impl Iterator<Item = std::io::Result<C>>, shared: &Arc<State>) {
    for client in incoming {
        if shared.stopped.load(Ordering::SeqCst) {
            return;
        }
        let Ok(client) = client else { continue };
        if shared.open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            shared.open.fetch_sub(1, Ordering::SeqCst);
            tracing::warn!("proxy: {MAX_CONNECTIONS} connections open; one more closed");
            continue;
        }
        let serving = Arc::clone(shared);
        let spawned = std::thread::Builder::new().name("warden-proxy-conn".into()).spawn(move || {
            if let Err(error) = serve(client, &serving) {
                tracing::debug!(%error, "proxy connection ended");
            }
            serving.open.fetch_sub(1, Ordering::SeqCst);
        });
        if let Err(error) = spawned {
            shared.open.fetch_sub(1, Ordering::SeqCst);
            tracing::warn!(%error, "no thread for a proxy connection; it is dropped");
        }
    }
}

fn serve<C: Client>(mut client: C, shared: &State) -> std::io::Result<()> {
    client.set_read_timeout(Some(HEAD_TIMEOUT))?;
    let mut first = [0u8; 1];
    client.read_exact(&mut first)?;
    if first[0] == socks::VERSION {
        socks::serve(client, shared)
    } else {
        http::serve(client, first[0], shared)
    }
}

/// The proxy's one way to connect: the rules' addresses for `host:port`, tried in turn. Records
/// the decision either way.
pub(super) fn connect(shared: &State, host: &str, port: u16) -> Result<TcpStream, Refusal> {
    let result = shared
        .memory
        .addresses(&shared.rules, host, port)
        .and_then(|addresses| first_that_answers(host, &addresses));
    let decision = Decision {
        host: host.to_owned(),
        port,
        outcome: result.as_ref().map(|_| ()).map_err(ToString::to_string),
    };
    match &decision.outcome {
        Ok(()) => tracing::info!(host, port, "proxy: connected"),
        Err(why) => tracing::info!(host, port, why, "proxy: refused"),
    }
    if let Some(report) = &shared.report {
        report(&decision);
    }
    if let Ok(mut log) = shared.log.lock() {
        if log.1.len() == KEPT {
            log.1.pop_front();
        }
        log.0 += 1;
        let number = log.0;
        log.1.push_back((number, decision));
    }
    result
}

fn first_that_answers(host: &str, addresses: &[SocketAddr]) -> Result<TcpStream, Refusal> {
    let mut last = String::from("no address");
    for address in addresses {
        match TcpStream::connect_timeout(address, CONNECT_TIMEOUT) {
            Ok(stream) => return Ok(stream),
            Err(error) => last = format!("{address}: {error}"),
        }
    }
    Err(Refusal::Unreachable { host: host.to_owned(), why: last })
}

/// Copy both ways until both sides are done, passing each side's end on as a half-close.
pub(super) fn splice<C: Client, U: Client>(client: C, upstream: U) -> std::io::Result<()> {
    client.set_read_timeout(None)?;
    let (mut client_read, mut upstream_write) = (client.try_clone()?, upstream.try_clone()?);
    let up = std::thread::Builder::new().name("warden-proxy-up".into()).spawn(move || {
        let _ = std::io::copy(&mut client_read, &mut upstream_write);
        upstream_write.shutdown_write();
    })?;
    let (mut upstream_read, mut client_write) = (upstream, client);
    let _ = std::io::copy(&mut upstream_read, &mut client_write);
    client_write.shutdown_write();
    let _ = up.join();
    Ok(())
}

/// Write all of `bytes`, then flush.
pub(super) fn send(stream: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    stream.write_all(bytes)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_cannot_hold_more_than_its_share_of_connections_open() {
        let proxy = Proxy::start(Rules::default(), None).unwrap_or_else(|e| panic!("{e}"));
        // Each says nothing: the proxy waits for its head, a thread held per connection.
        let held: Vec<UnixStream> = (0..MAX_CONNECTIONS)
            .map(|_| UnixStream::connect(proxy.socket()).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        let mut one_more = UnixStream::connect(proxy.socket()).unwrap_or_else(|e| panic!("{e}"));
        one_more.set_read_timeout(Some(Duration::from_secs(10))).unwrap_or_else(|e| panic!("{e}"));
        let mut byte = [0u8; 1];
        assert_eq!(one_more.read(&mut byte).ok(), Some(0), "closed at once, not left waiting");
        drop(held);
        // Their threads end as their clients go; a new client is served again.
        let mut served = false;
        for _ in 0..200 {
            let mut client = UnixStream::connect(proxy.socket()).unwrap_or_else(|e| panic!("{e}"));
            client.set_read_timeout(Some(Duration::from_secs(10))).unwrap_or_else(|e| panic!("{e}"));
            let _ = client.write_all(b"HELLO\r\n\r\n");
            let mut answer = String::new();
            let _ = client.read_to_string(&mut answer);
            if answer.starts_with("HTTP/1.1 400") {
                served = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(served, "the proxy serves again once the held connections are gone");
    }
}
