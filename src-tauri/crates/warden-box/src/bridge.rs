//! Carrying bytes between the box's loopback and Warden's sockets: the listeners on the box's
//! loopback for the proxy, and the two-way copy every connection gets.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::Path;

/// Listeners on the box's loopback. IPv4 must work; IPv6 is taken when the box has it.
pub fn bind(port: u16) -> Result<Vec<TcpListener>, String> {
    let v4 = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port} for the proxy: {e}"))?;
    let mut listeners = vec![v4];
    if let Ok(v6) = TcpListener::bind(SocketAddr::from((Ipv6Addr::LOCALHOST, port))) {
        listeners.push(v6);
    }
    Ok(listeners)
}

/// Accept on every listener for as long as the box lives, each connection carried to the proxy's
/// `socket` on its own threads. Returns when every listener has failed.
pub fn to_proxy(listeners: Vec<TcpListener>, socket: &Path) {
    let handles: Vec<_> = listeners
        .into_iter()
        .map(|listener| {
            let socket = socket.to_path_buf();
            std::thread::spawn(move || accept_to_proxy(&listener, &socket))
        })
        .collect();
    for handle in handles {
        let _ = handle.join();
    }
}

fn accept_to_proxy(listener: &TcpListener, socket: &Path) {
    for client in listener.incoming().flatten() {
        let socket = socket.to_path_buf();
        std::thread::spawn(move || {
            if let Ok(proxy) = UnixStream::connect(&socket) {
                carry(client, proxy);
            }
        });
    }
}

/// A stream that can be split into a reading and a writing half and half-closed.
pub trait Duplex: Read + Write + Send + Sized + 'static {
    fn split(&self) -> std::io::Result<Self>;
    fn end_writing(&self);
}

impl Duplex for TcpStream {
    fn split(&self) -> std::io::Result<Self> {
        self.try_clone()
    }
    fn end_writing(&self) {
        let _ = self.shutdown(Shutdown::Write);
    }
}

impl Duplex for UnixStream {
    fn split(&self) -> std::io::Result<Self> {
        self.try_clone()
    }
    fn end_writing(&self) {
        let _ = self.shutdown(Shutdown::Write);
    }
}

/// Copy both ways between `a` and `b` until both sides have finished; a side that ends its
/// writing is passed on as a half-close, so request-then-response protocols see their end.
pub fn carry(a: impl Duplex, b: impl Duplex) {
    let (Ok(mut a_read), Ok(mut b_write)) = (a.split(), b.split()) else { return };
    let forth = std::thread::spawn(move || {
        let _ = std::io::copy(&mut a_read, &mut b_write);
        b_write.end_writing();
    });
    let (mut b_read, mut a_write) = (b, a);
    let _ = std::io::copy(&mut b_read, &mut a_write);
    a_write.end_writing();
    let _ = forth.join();
}
