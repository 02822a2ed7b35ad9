//! The real MCP servers the tests run against, installed from npm into `tests/mcp/` by
//! `scripts/setup.sh`: `@modelcontextprotocol/server-everything` and `server-filesystem`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
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
    /// Start `command` (its stdio closed) and wait until every port of `ports` listens.
    fn start(mut command: Command, ports: &[u16], what: &str) -> Self {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {what}: {e}"));
        let started = Instant::now();
        for &port in ports {
            while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
                assert!(started.elapsed() < Duration::from_secs(30), "{what} did not listen within 30 s");
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Self { child, port: ports[0] }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// `mcp-server-everything streamableHttp` on a free loopback port.
pub struct HttpEverything(Listening);

impl HttpEverything {
    pub fn start() -> Self {
        let port = free_port();
        let mut command = Command::new(server_bin("mcp-server-everything"));
        command.arg("streamableHttp").env("PORT", port.to_string());
        Self(Listening::start(command, &[port], "mcp-server-everything"))
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
        let (port, auth_port) = (free_port(), free_port());
        let script = servers_dir()
            .join("node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js");
        assert!(script.exists(), "{} is missing: run scripts/setup.sh", script.display());
        let mut command = Command::new("node");
        command
            .arg(script)
            .arg("--oauth")
            .env("MCP_PORT", port.to_string())
            .env("MCP_AUTH_PORT", auth_port.to_string());
        Self(Listening::start(command, &[port, auth_port], "the OAuth example server"))
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
