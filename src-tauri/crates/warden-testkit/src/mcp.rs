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

/// `mcp-server-everything streamableHttp` on a free loopback port; killed when dropped.
pub struct HttpEverything {
    child: Child,
    pub port: u16,
}

impl HttpEverything {
    pub fn start() -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new(server_bin("mcp-server-everything"))
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mcp-server-everything");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the HTTP server did not listen within 30 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

impl Drop for HttpEverything {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The official TypeScript SDK's example server with OAuth on (`simpleStreamableHttp.js --oauth`):
/// an MCP server at `/mcp` that answers 401 until the client signs in at its authorization server
/// (which approves at once and sends the browser straight back). Killed when dropped.
pub struct OAuthServer {
    child: Child,
    pub port: u16,
}

impl OAuthServer {
    pub fn start() -> Self {
        let free = || {
            TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map(|a| a.port())
                .expect("a free port")
        };
        let (port, auth_port) = (free(), free());
        let script = servers_dir()
            .join("node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js");
        assert!(script.exists(), "{} is missing: run scripts/setup.sh", script.display());
        let child = Command::new("node")
            .arg(script)
            .arg("--oauth")
            .env("MCP_PORT", port.to_string())
            .env("MCP_AUTH_PORT", auth_port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the OAuth example server");
        let started = Instant::now();
        for wait_port in [port, auth_port] {
            while std::net::TcpStream::connect(("127.0.0.1", wait_port)).is_err() {
                assert!(
                    started.elapsed() < Duration::from_secs(30),
                    "the OAuth server did not listen within 30 s"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Self { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://localhost:{}/mcp", self.port)
    }
}

impl Drop for OAuthServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
