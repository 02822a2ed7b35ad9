//! `warden-box --keep --proxy-socket PATH --port PORT --control PATH`: the keeper of one session's
//! network. Every box of a Warden session with the network shares one network namespace, made by
//! the keeper's box; the keeper holds it for the session and serves it two ways:
//!
//! - **Out:** it listens on the namespace's loopback at `PORT` and carries each connection to the
//!   proxy's socket (the boxes that join later find the proxy there, named by their environment).
//! - **In:** Warden forwards a port a boxed server listens on to the host. The namespace cannot be
//!   reached from the host, so each connection Warden accepts on the host comes here through the
//!   control socket (`PATH`, in a folder of Warden's that no other box sees): one byte for the
//!   address family (4 or 6), two for the port (big-endian); the keeper connects to that port on
//!   the namespace's loopback, answers one byte (0 connected, 1 not) and then carries the bytes.
//!
//! It ends when its standard input does: Warden holds the other end of that pipe, so the keeper
//! (and with it its box) ends when the session is dropped, and when Warden dies however it dies.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;

use crate::bridge;

/// What a keeper was asked to hold.
#[derive(Debug, PartialEq, Eq)]
pub struct Keep {
    pub proxy_socket: PathBuf,
    pub port: u16,
    pub control: PathBuf,
}

/// The answer to a connection asked for through the control socket.
pub const CONNECTED: u8 = 0;
pub const REFUSED: u8 = 1;

/// Hold the namespace until standard input ends.
pub fn run(keep: &Keep) -> Result<(), String> {
    let listeners = bridge::bind(keep.port)?;
    let control = UnixListener::bind(&keep.control)
        .map_err(|e| format!("cannot listen on the control socket {}: {e}", keep.control.display()))?;
    let proxy_socket = keep.proxy_socket.clone();
    std::thread::spawn(move || bridge::to_proxy(listeners, &proxy_socket));
    std::thread::spawn(move || {
        for asker in control.incoming().flatten() {
            std::thread::spawn(move || connect_inside(asker));
        }
    });
    // Until Warden closes its end (or dies): anything written to it is ignored.
    let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
    Ok(())
}

/// One connection asked for by Warden: read where to, connect there on this namespace's loopback,
/// say whether that worked, then carry the bytes.
fn connect_inside(mut asker: UnixStream) {
    let mut ask = [0u8; 3];
    if asker.read_exact(&mut ask).is_err() {
        return;
    }
    let port = u16::from_be_bytes([ask[1], ask[2]]);
    let address = match ask[0] {
        6 => SocketAddr::from((Ipv6Addr::LOCALHOST, port)),
        _ => SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
    };
    match TcpStream::connect(address) {
        Ok(inside) => {
            if asker.write_all(&[CONNECTED]).is_ok() {
                bridge::carry(asker, inside);
            }
        }
        Err(_) => {
            let _ = asker.write_all(&[REFUSED]);
        }
    }
}
