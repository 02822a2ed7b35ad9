//! The real MCP servers the tests run against, installed from npm into `tests/mcp/` by
//! `scripts/setup.sh`: `@modelcontextprotocol/server-everything` and `server-filesystem`.

use std::collections::BTreeSet;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The repository's `tests/mcp` folder.
pub fn servers_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/mcp")
}

/// The executable of an npm-installed server (`mcp-server-everything`, `mcp-server-filesystem`).
pub fn server_bin(name: &str) -> PathBuf {
    let bin = servers_dir().join("node_modules/.bin").join(name);
    assert!(
        bin.exists(),
        "{} is missing: the MCP test servers are installed by scripts/setup.sh (npm ci in tests/mcp)",
        bin.display()
    );
    bin
}

/// A server process the tests talk to over loopback HTTP; killed when dropped.
pub struct Listening {
    child: Child,
    pub port: u16,
}

impl Listening {
    /// Start the command `make` builds for fresh ports (its stdio closed) and wait until every one
    /// of them listens. A port is free when it is chosen, not when the server binds it: a server
    /// that exits before it listens (another process took the port) is started again on others.
    fn start(make: impl Fn(&[u16]) -> Command, ports: usize, what: &str) -> Self {
        const ATTEMPTS: usize = 3;
        for attempt in 1..=ATTEMPTS {
            let chosen: Vec<u16> = (0..ports).map(|_| free_port()).collect();
            let mut child = make(&chosen)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("start {what}: {e}"));
            match wait_listening(&mut child, &chosen, what) {
                Ok(()) => return Self { child, port: chosen[0] },
                Err(exit) if attempt < ATTEMPTS => {
                    eprintln!("{what} exited before it listened ({exit}); again on other ports")
                }
                Err(exit) => panic!("{what} exited before it listened ({exit}), {ATTEMPTS} times"),
            }
        }
        unreachable!("the last attempt returns or panics")
    }
}

/// Wait until `child` listens on every port, or say how it ended if it ends first.
fn wait_listening(child: &mut Child, ports: &[u16], what: &str) -> Result<(), String> {
    let started = Instant::now();
    for &port in ports {
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(status.to_string());
            }
            assert!(started.elapsed() < Duration::from_secs(30), "{what} did not listen within 30 s");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    // Listening, and still ours: a port another process listens on answers too, so the server
    // must not have exited once its ports answered.
    std::thread::sleep(Duration::from_millis(100));
    match child.try_wait() {
        Ok(Some(status)) => Err(status.to_string()),
        _ => Ok(()),
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback port nobody listens on now, never the same twice in one test process (the kernel
/// may hand a port just closed to the next caller, and the tests start servers side by side).
fn free_port() -> u16 {
    static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    let mut given = GIVEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    loop {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        if given.insert(port) {
            return port;
        }
    }
}

/// `mcp-server-everything streamableHttp` on a free loopback port.
pub struct HttpEverything(Listening);

impl HttpEverything {
    pub fn start() -> Self {
        let bin = server_bin("mcp-server-everything");
        let command = |ports: &[u16]| {
            let mut command = Command::new(&bin);
            command.arg("streamableHttp").env("PORT", ports[0].to_string());
            command
        };
        Self(Listening::start(command, 1, "mcp-server-everything"))
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.0.port)
    }
}

/// The official TypeScript SDK's example server with OAuth on (`simpleStreamableHttp.js --oauth`):
/// an MCP server at `/mcp` that answers 401 until the client signs in at its authorization server
/// (which approves at once and sends the browser straight back).
pub struct OAuthServer(Listening);

impl OAuthServer {
    pub fn start() -> Self {
        let script = servers_dir()
            .join("node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js");
        assert!(script.exists(), "{} is missing: run scripts/setup.sh", script.display());
        let command = |ports: &[u16]| {
            let mut command = Command::new("node");
            command
                .arg(&script)
                .arg("--oauth")
                .env("MCP_PORT", ports[0].to_string())
                .env("MCP_AUTH_PORT", ports[1].to_string());
            command
        };
        Self(Listening::start(command, 2, "the OAuth example server"))
    }

    pub fn url(&self) -> String {
        format!("http://localhost:{}/mcp", self.0.port)
    }
}

/// A stand-in for the user's browser: a script that fetches the page it is given and follows
/// the redirects, as a browser would after the user approved (set `WARDEN_OPENER` to it).
pub fn following_browser(dir: &std::path::Path) -> PathBuf {
    let script = dir.join("browser.sh");
    std::fs::write(&script, "#!/bin/sh\nexec curl -sfL -o /dev/null \"$1\"\n")
        .expect("write the browser script");
    let mut permissions = std::fs::metadata(&script).expect("the script").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).expect("make it executable");
    script
}
