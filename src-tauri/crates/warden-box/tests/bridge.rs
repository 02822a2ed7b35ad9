//! The launcher as a box starts it, but outside any box: its loopback listener carries a
//! connection to the proxy's socket and back, the command's status is its own, and the bridge
//! ends with the command.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixListener;
use std::process::Command;

/// A port free on this machine's loopback now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn launcher() -> Command {
    Command::new(env!("CARGO_BIN_EXE_warden-box"))
}

/// Runs the launcher bridging a free port to `socket`, then `command`, and returns the port with
/// the output. A port free when chosen may be taken before the launcher listens (by another
/// test's listener or an outgoing connection's source port): that race is the test's, not the
/// launcher's, so a launch that says "cannot listen" is tried again on a new port.
fn launch(socket: &std::path::Path, command: impl Fn(u16) -> Vec<String>) -> (u16, std::process::Output) {
    let mut tries = 0;
    loop {
        let port = free_port();
        let out = launcher()
            .args(["--proxy-socket", socket.to_str().unwrap(), "--port", &port.to_string(), "--"])
            .args(command(port))
            .output()
            .unwrap();
        tries += 1;
        let taken = String::from_utf8_lossy(&out.stderr).contains("cannot listen on 127.0.0.1");
        if !(taken && tries < 5) {
            return (port, out);
        }
    }
}

#[test]
fn a_connection_to_the_port_reaches_the_socket_and_the_answer_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("proxy.sock");
    let proxy = UnixListener::bind(&socket).unwrap();
    let served = std::thread::spawn(move || {
        let (mut stream, _) = proxy.accept().unwrap();
        let mut asked = String::new();
        stream.read_to_string(&mut asked).unwrap(); // until the client's half-close
        stream.write_all(format!("answer to {asked}").as_bytes()).unwrap();
    });
    // A client that half-closes after its question, as HTTP clients do not but tunnels may.
    let client = |port: u16| {
        let python = format!(
            "import socket; s=socket.create_connection(('127.0.0.1',{port})); \
             s.sendall(b'question'); s.shutdown(socket.SHUT_WR); print(s.recv(100).decode(), end='')"
        );
        vec!["python3".to_owned(), "-c".to_owned(), python]
    };
    let (_, out) = launch(&socket, client);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "answer to question");
    served.join().unwrap();
}

#[test]
fn the_status_is_the_commands_and_the_bridge_ends_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("proxy.sock");
    let _proxy = UnixListener::bind(&socket).unwrap();
    let (port, out) = launch(&socket, |_| ["sh", "-c", "exit 7"].map(str::to_owned).to_vec());
    assert_eq!(out.status.code(), Some(7), "{}", String::from_utf8_lossy(&out.stderr));
    // The bridge (the command's child) is killed when the command ends; its port closes with it.
    let mut closed = false;
    for _ in 0..100 {
        if TcpStream::connect(("127.0.0.1", port)).is_err() {
            closed = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(closed, "the bridge outlived its command: 127.0.0.1:{port} still answers");
}

#[test]
fn a_missing_command_is_said_as_a_shell_says_it() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("proxy.sock");
    let (_, out) = launch(&socket, |_| vec!["no-such-command-here".to_owned()]);
    assert_eq!(out.status.code(), Some(127), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("execvp no-such-command-here: No such file"));
}
