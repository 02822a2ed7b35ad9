//! Ports a boxed server listens on, offered to the host. The session's namespace is not the
//! host's, so a dev server started in a box is out of reach of the user's browser until Warden
//! forwards it: it watches the namespace's listening sockets (`/proc/<keeper>/net/tcp` and
//! `tcp6`, read from the host), listens on the host's `127.0.0.1` at the same port (another one
//! when that is taken), and carries each connection through the keeper's control socket, which
//! connects to the port inside (see `warden-box`'s `keep` module). A forward closes when its
//! listener does, and all close with the session.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::proxy::splice;
use super::{Forward, PORT_IN_BOX};

/// How often the namespace's listeners are looked at.
const POLL: Duration = Duration::from_millis(400);
/// At most this many ports are forwarded per session (each holds a listener and a thread).
const MAX_FORWARDS: usize = 64;
/// The keeper's answer when it connected (see `warden-box`).
const CONNECTED: u8 = 0;

/// The address family a listener was found in: the keeper connects to the same loopback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Family {
    V4 = 4,
    V6 = 6,
}

/// The forwards of one session's namespace.
pub(super) struct Forwards {
    /// `/proc/<pid>/net` of a process in the namespace (the keeper's box).
    proc_net: PathBuf,
    control: PathBuf,
    open: Mutex<BTreeMap<u16, Open>>,
    stopped: AtomicBool,
}

struct Open {
    forward: Forward,
    family: Family,
    listener_addr: SocketAddr,
    stop: Arc<AtomicBool>,
}

impl Forwards {
    /// Forwards for the namespace `pid` is in, through the keeper's `control` socket; watched
    /// from now on, until [`Forwards::stop`].
    pub(super) fn watch(pid: u32, control: PathBuf) -> Arc<Self> {
        let forwards = Arc::new(Self {
            proc_net: PathBuf::from(format!("/proc/{pid}/net")),
            control,
            open: Mutex::default(),
            stopped: AtomicBool::new(false),
        });
        let watching = Arc::downgrade(&forwards);
        let spawned = std::thread::Builder::new().name("warden-forwards".into()).spawn(move || loop {
            std::thread::sleep(POLL);
            match watching.upgrade() {
                Some(forwards) if !forwards.stopped.load(Ordering::SeqCst) => forwards.refresh(),
                _ => return,
            }
        });
        if let Err(error) = spawned {
            tracing::warn!(%error, "no thread to watch the session's listeners; ports are forwarded when asked");
        }
        forwards
    }

    /// The ports forwarded now, after a fresh look.
    pub(super) fn current(&self) -> Vec<Forward> {
        self.refresh();
        self.open.lock().map(|open| open.values().map(|o| o.forward).collect()).unwrap_or_default()
    }

    /// Open forwards for new listeners, close those whose listener is gone.
    fn refresh(&self) {
        if self.stopped.load(Ordering::SeqCst) {
            return;
        }
        let listening = listening_ports(&self.proc_net);
        let Ok(mut open) = self.open.lock() else { return };
        open.retain(|port, forward| {
            let keep = listening.contains_key(port);
            if !keep {
                close(forward);
            }
            keep
        });
        for (&port, &family) in &listening {
            if open.contains_key(&port) || open.len() >= MAX_FORWARDS {
                continue;
            }
            match self.open_forward(port, family) {
                Ok(forward) => {
                    tracing::info!(
                        port,
                        host_port = forward.forward.host_port,
                        "forwarding a boxed listener"
                    );
                    open.insert(port, forward);
                }
                Err(error) => tracing::warn!(port, %error, "cannot forward a boxed listener"),
            }
        }
    }

    fn open_forward(&self, port: u16, family: Family) -> std::io::Result<Open> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))
            .or_else(|_| TcpListener::bind((Ipv4Addr::LOCALHOST, 0)))?;
        let listener_addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let (stopped, control) = (Arc::clone(&stop), self.control.clone());
        std::thread::Builder::new().name("warden-forward".into()).spawn(move || {
            for client in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(client) = client else { continue };
                let control = control.clone();
                let _ = std::thread::Builder::new()
                    .name("warden-forward-conn".into())
                    .spawn(move || carry_inside(client, &control, family, port));
            }
        })?;
        Ok(Open { forward: Forward { port, host_port: listener_addr.port() }, family, listener_addr, stop })
    }

    /// Close every forward; the watcher ends at its next look.
    pub(super) fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        if let Ok(mut open) = self.open.lock() {
            for forward in open.values() {
                close(forward);
            }
            open.clear();
        }
    }
}

fn close(forward: &Open) {
    forward.stop.store(true, Ordering::SeqCst);
    // Wakes the accepting thread, which then sees the flag and drops the listener.
    let _ = TcpStream::connect_timeout(&forward.listener_addr, Duration::from_secs(1));
    tracing::debug!(port = forward.forward.port, family = ?forward.family, "forward closed");
}

/// One host connection, carried to `port` inside the namespace through the keeper.
fn carry_inside(client: TcpStream, control: &Path, family: Family, port: u16) {
    let Ok(mut keeper) = UnixStream::connect(control) else { return };
    let [high, low] = port.to_be_bytes();
    let mut answer = [0u8; 1];
    if keeper.write_all(&[family as u8, high, low]).is_err() || keeper.read_exact(&mut answer).is_err() {
        return;
    }
    if answer[0] == CONNECTED {
        let _ = splice(client, keeper);
    }
}

/// The ports listened on in the namespace of `proc_net` (`/proc/<pid>/net`) at a loopback or
/// unspecified address, each with the family to reach it by (IPv4 when both), except the
/// keeper's own port for the proxy.
fn listening_ports(proc_net: &Path) -> BTreeMap<u16, Family> {
    let mut ports = BTreeMap::new();
    for (file, family) in [("tcp6", Family::V6), ("tcp", Family::V4)] {
        let Ok(table) = std::fs::read_to_string(proc_net.join(file)) else { continue };
        for (address, port) in table.lines().skip(1).filter_map(listener) {
            if port != PORT_IN_BOX && reachable_from_loopback(&address) {
                ports.insert(port, family);
            }
        }
    }
    ports
}

/// A line of `/proc/net/tcp{,6}` in the listening state: its local address and port.
fn listener(line: &str) -> Option<(std::net::IpAddr, u16)> {
    let mut fields = line.split_whitespace();
    let local = fields.nth(1)?;
    let state = fields.nth(1)?;
    if state != "0A" {
        return None;
    }
    let (address, port) = local.split_once(':')?;
    Some((kernel_address(address)?, u16::from_str_radix(port, 16).ok()?))
}

/// The kernel prints an address as its 32-bit words in the machine's byte order.
fn kernel_address(hex: &str) -> Option<std::net::IpAddr> {
    let words: Option<Vec<[u8; 4]>> = (0..hex.len() / 8)
        .map(|i| {
            hex.get(i * 8..i * 8 + 8).and_then(|w| u32::from_str_radix(w, 16).ok()).map(u32::to_ne_bytes)
        })
        .collect();
    match words?.as_slice() {
        [v4] if hex.len() == 8 => Some(Ipv4Addr::from(*v4).into()),
        [a, b, c, d] if hex.len() == 32 => {
            let mut bytes = [0u8; 16];
            for (chunk, word) in bytes.chunks_mut(4).zip([a, b, c, d]) {
                chunk.copy_from_slice(word);
            }
            Some(Ipv6Addr::from(bytes).into())
        }
        _ => None,
    }
}

fn reachable_from_loopback(address: &std::net::IpAddr) -> bool {
    match address {
        std::net::IpAddr::V4(v4) => v4.is_unspecified() || *v4 == Ipv4Addr::LOCALHOST,
        std::net::IpAddr::V6(v6) => {
            v6.is_unspecified() || v6.is_loopback() || v6.to_ipv4_mapped() == Some(Ipv4Addr::LOCALHOST)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listeners_are_read_as_the_kernel_writes_them() {
        let v4 = Ipv4Addr::LOCALHOST.octets();
        let word = u32::from_ne_bytes(v4);
        let line = format!(
            "   0: {word:08X}:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1"
        );
        assert_eq!(listener(&line), Some((Ipv4Addr::LOCALHOST.into(), 8000)));
        let connected = line.replace(" 0A ", " 01 ");
        assert_eq!(listener(&connected), None, "an established connection is no listener");

        let any6 = "   0: 00000000000000000000000000000000:0BB8 00000000000000000000000000000000:0000 0A 0";
        assert_eq!(listener(any6), Some((Ipv6Addr::UNSPECIFIED.into(), 3000)));
        let one = u32::from_ne_bytes([0, 0, 0, 1]);
        let loopback6 = format!("   0: {:08X}{:08X}{:08X}{one:08X}:0050 0 0A", 0, 0, 0);
        assert_eq!(listener(&loopback6), Some((Ipv6Addr::LOCALHOST.into(), 80)));
    }

    #[test]
    fn only_loopback_and_unspecified_listeners_are_forwarded() {
        assert!(reachable_from_loopback(&Ipv4Addr::UNSPECIFIED.into()));
        assert!(reachable_from_loopback(&Ipv4Addr::LOCALHOST.into()));
        assert!(reachable_from_loopback(&Ipv6Addr::LOCALHOST.into()));
        assert!(reachable_from_loopback(&Ipv4Addr::LOCALHOST.to_ipv6_mapped().into()));
        assert!(!reachable_from_loopback(&Ipv4Addr::new(10, 0, 0, 2).into()));
    }

    #[test]
    fn garbage_in_the_table_is_skipped() {
        for line in [
            "",
            "x",
            "  0: zz:zz 0 0A",
            "  0: 0100007F 0 0A",
            "  0: 0100007F:FFFFF 0 0A",
            "  0: 01:0050 0 0A",
        ] {
            assert_eq!(listener(line), None, "{line:?}");
        }
    }
}
