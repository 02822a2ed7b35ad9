//! The box's network with the network allowed: its only way out is Warden's proxy (bubblewrap: a
//! namespace of its own bridged to the proxy's socket; Landlock: TCP connections to the proxy's
//! loopback port only, other internet sockets refused by the filter). A server on this machine's loopback stands in for a registry (given a name
//! through the proxy's resolver map, not through the box); a host abstract socket stands in for an
//! X server or a session bus. Each reached-or-not is proven outside the box: the server counts its
//! connections, the listener's queue stays empty.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use warden_core::containment::net::{self, HostRule, Rules};
use warden_core::containment::BoxPolicy;

use super::{boxed, text, tree, work_tree};

/// An HTTP server on this machine's loopback answering `from-host` to every request; its port and
/// how many requests reached it.
fn registry() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("listener");
    let port = listener.local_addr().expect("addr").port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&hits);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            counted.fetch_add(1, Ordering::SeqCst);
            let mut stream = stream;
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).is_ok_and(|n| n == 1) {
                head.push(byte[0]);
            }
            let _ = stream.write_all(b"HTTP/1.0 200 OK\r\nContent-Length: 9\r\n\r\nfrom-host");
        }
    });
    (port, hits)
}

fn rules(allow: &[&str]) -> Rules {
    Rules {
        allow: allow.iter().map(|h| HostRule::parse(h).expect("host rule")).collect(),
        deny: Vec::new(),
        resolve: vec![("registry.test".to_owned(), "127.0.0.1".parse().expect("ip"))],
        ..Rules::default()
    }
}

pub(super) fn network_on_goes_through_the_proxy_only() {
    let t = tree();
    let (port, hits) = registry();
    let mut policy = t.policy();
    policy.network = true;
    policy.network_rules = rules(&["registry.test"]);
    let script = format!(
        "curl -sS -m 5 http://registry.test:{port}/plain; echo; \
         curl -sS -m 5 --proxytunnel http://registry.test:{port}/tunnel; echo; \
         curl -sS -m 5 --proxy \"$ALL_PROXY\" http://registry.test:{port}/socks; echo; \
         curl -sS -m 3 --noproxy '*' http://127.0.0.1:{port}/direct || echo direct-refused"
    );
    // UDP has no proxy: a datagram to this machine must not arrive (Landlock: the filter refuses
    // the socket; bubblewrap: it goes to the box's own loopback).
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").expect("udp");
    udp.set_nonblocking(true).expect("nonblocking");
    let udp_port = udp.local_addr().expect("addr").port();
    let script = format!(
        "{script}; python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b\"x\", (\"127.0.0.1\", {udp_port}))'"
    );
    let out = boxed(&policy, &script);
    let seen = text(&out.stdout);
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(udp.recv(&mut [0u8; 8]).is_err(), "a datagram from the box reached this machine");
    assert_eq!(
        seen.matches("from-host").count(),
        3,
        "plain, CONNECT and SOCKS through the proxy: {seen}{}",
        text(&out.stderr)
    );
    assert!(seen.contains("direct-refused"), "the box reached this machine's loopback directly: {seen}");
    assert_eq!(hits.load(Ordering::SeqCst), 3, "only the proxy's connections reached the server");
    let proxy = net::proxy_for(&policy.network_rules).expect("the box's proxy");
    let logged: Vec<_> =
        proxy.decisions().into_iter().filter(|d| d.host == "registry.test" && d.port == port).collect();
    assert_eq!(logged.len(), 3, "the proxy's log has each request: {logged:?}");
    assert!(logged.iter().all(|d| d.outcome.is_ok()));

    // The same name without its rule: refused by the proxy, in words, and never reached.
    policy.network_rules = rules(&[]);
    let refused = boxed(&policy, &format!("curl -sS -m 5 http://registry.test:{port}/; curl -sS -m 5 http://169.254.169.254/latest/meta-data/"));
    let said = text(&refused.stdout);
    assert!(said.contains("registry.test resolves only to a loopback address"), "{said}");
    assert!(said.contains("a link-local address (cloud metadata services live there)"), "{said}");
    assert_eq!(hits.load(Ordering::SeqCst), 3, "a refused request reached the server");
}

pub(super) fn host_abstract_sockets_are_unreachable_with_the_network() {
    let t = tree();
    let mut policy = t.policy();
    policy.network = true;
    abstract_socket_out_of_reach(&policy, "a boxed command with the network");
}

/// The same from a box that joined its session's network (the keeper's namespaces, entered before
/// bubblewrap starts): the keeper's network namespace is not this machine's, so neither are its
/// abstract sockets.
pub(super) fn host_abstract_sockets_are_unreachable_from_a_sessions_shared_network() {
    let t = tree();
    let shared = net::SharedNet::new();
    let mut policy = t.policy();
    policy.network = true;
    policy.shared_net = Some(shared.clone());
    // The first box starts the keeper; the probe's box joins it.
    let first = boxed(&policy, "true");
    assert!(first.status.success(), "the session's first box: {}", text(&first.stderr));
    abstract_socket_out_of_reach(&policy, "a box joining the session's network");
    drop(shared);
}

/// A host abstract socket (where an X server, `@/tmp/.X11-unix/X0`, or a session bus at an
/// abstract address listens) reached from here — the control — and not from `policy`'s box.
fn abstract_socket_out_of_reach(policy: &BoxPolicy, who: &str) {
    let name = format!("warden-test-abstract-{}-{}", std::process::id(), rand_suffix());
    let address = SocketAddr::from_abstract_name(name.as_bytes()).expect("abstract address");
    let listener = UnixListener::bind_addr(&address).expect("abstract listener");
    listener.set_nonblocking(true).expect("nonblocking");
    UnixStream::connect_addr(&address).expect("the listener answers outside the box");
    assert!(listener.accept().is_ok());

    let script = format!(
        "python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"\\0{name}\"); print(\"CONNECTED\")'"
    );
    let out = boxed(policy, &script);
    assert!(!text(&out.stdout).contains("CONNECTED"), "{who}: {}", text(&out.stderr));
    assert!(listener.accept().is_err(), "{who} reached a host abstract socket");
}

/// A few random hex digits, so that two cases in one process never share a name.
fn rand_suffix() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos());
    format!("{:x}", nanos.unwrap_or_default())
}

/// A package registry on this machine's loopback: `python3 -m http.server` over a folder of
/// package files the test builds, and its port.
struct Index {
    _dir: tempfile::TempDir,
    server: std::process::Child,
    port: u16,
}

impl Index {
    /// A Python package index holding one wheel.
    fn start() -> Self {
        let dir = tempfile::tempdir().expect("index dir");
        let files = dir.path().join("files");
        let project = dir.path().join("simple/demo-pkg");
        std::fs::create_dir_all(&files).expect("files");
        std::fs::create_dir_all(&project).expect("simple");
        let wheel = files.join("demo_pkg-1.0-py3-none-any.whl");
        let built = std::process::Command::new("python3")
            .arg("-c")
            .arg(
                "import sys, zipfile\n\
                 with zipfile.ZipFile(sys.argv[1], 'w') as z:\n\
                 \x20   z.writestr('demo_pkg/__init__.py', 'VALUE = \"installed through the proxy\"\\n')\n\
                 \x20   z.writestr('demo_pkg-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: demo-pkg\\nVersion: 1.0\\n')\n\
                 \x20   z.writestr('demo_pkg-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: warden-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n\
                 \x20   z.writestr('demo_pkg-1.0.dist-info/RECORD', '')\n",
            )
            .arg(&wheel)
            .status()
            .expect("python3");
        assert!(built.success(), "the wheel was not built");
        std::fs::write(
            project.join("index.html"),
            "<html><body><a href=\"/files/demo_pkg-1.0-py3-none-any.whl\">demo_pkg-1.0-py3-none-any.whl</a></body></html>\n",
        )
        .expect("index");
        Self::serving(dir)
    }

    /// An npm registry holding one package's tarball (`npm ci` fetches what the lockfile names).
    fn npm() -> Self {
        let dir = tempfile::tempdir().expect("registry dir");
        let package = dir.path().join("build/package");
        std::fs::create_dir_all(&package).expect("package");
        std::fs::write(
            package.join("package.json"),
            r#"{"name": "demo-npm-pkg", "version": "1.0.0", "main": "index.js"}"#,
        )
        .expect("package.json");
        std::fs::write(package.join("index.js"), "exports.VALUE = 'installed through the proxy';\n")
            .expect("index.js");
        let tarballs = dir.path().join("demo-npm-pkg/-");
        std::fs::create_dir_all(&tarballs).expect("tarballs");
        let packed = std::process::Command::new("tar")
            .arg("czf")
            .arg(tarballs.join("demo-npm-pkg-1.0.0.tgz"))
            .arg("-C")
            .arg(dir.path().join("build"))
            .arg("package")
            .status()
            .expect("tar");
        assert!(packed.success(), "the tarball was not packed");
        Self::serving(dir)
    }

    fn serving(dir: tempfile::TempDir) -> Self {
        let mut server = std::process::Command::new("python3")
            .args(["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory"])
            .arg(dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("http.server");
        let mut line = String::new();
        let stdout = server.stdout.take().expect("stdout");
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).expect("its first line");
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        let port = line
            .split_whitespace()
            .skip_while(|w| *w != "port")
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Self { _dir: dir, server, port }
    }
}

impl Drop for Index {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

pub(super) fn pip_installs_through_the_proxy_from_an_allowed_registry_only() {
    // The venv is made in the project root (under Landlock: a root without a hidden `.env`).
    let t = work_tree();
    let index = Index::start();
    let port = index.port;
    let mut policy = t.policy();
    policy.network = true;
    policy.network_rules = Rules {
        resolve: vec![("pypi.test".to_owned(), "127.0.0.1".parse().expect("ip"))],
        ..Rules::default()
    };
    let install = format!(
        "python3 -m venv .venv && .venv/bin/pip install --no-cache-dir --disable-pip-version-check -q \
         --index-url http://pypi.test:{port}/simple/ --trusted-host pypi.test demo-pkg && \
         .venv/bin/python -c 'import demo_pkg; print(demo_pkg.VALUE)'"
    );
    // Without a rule the name resolves to this machine: pip gets the proxy's refusal.
    let refused = boxed(&policy, &install);
    assert!(!refused.status.success(), "{}", text(&refused.stdout));
    let proxy = net::proxy_for(&policy.network_rules).expect("the box's proxy");
    assert!(
        proxy.decisions().iter().any(|d| d.host == "pypi.test" && d.outcome.is_err()),
        "the proxy's log has the refused request: {:?}",
        proxy.decisions()
    );

    policy.network_rules.allow = vec![HostRule::parse(&format!("pypi.test:{port}")).expect("rule")];
    let out = boxed(&policy, &install);
    assert_eq!(
        text(&out.stdout).trim(),
        "installed through the proxy",
        "pip did not install through the proxy: {}",
        text(&out.stderr)
    );
    let proxy = net::proxy_for(&policy.network_rules).expect("the box's proxy");
    assert!(
        proxy.decisions().iter().any(|d| d.host == "pypi.test" && d.port == port && d.outcome.is_ok()),
        "the proxy's log has pip's requests: {:?}",
        proxy.decisions()
    );
}

/// `npm ci` through the proxy from a registry the rules allow, refused (and logged) without the
/// rule; the box never reaches the registry's address directly.
pub(super) fn npm_ci_installs_through_the_proxy_from_an_allowed_registry_only() {
    let t = work_tree();
    let registry = Index::npm();
    let port = registry.port;
    let tarball = format!("http://npm.test:{port}/demo-npm-pkg/-/demo-npm-pkg-1.0.0.tgz");
    std::fs::write(
        t.project.join("package.json"),
        r#"{"name": "proj", "version": "1.0.0", "dependencies": {"demo-npm-pkg": "1.0.0"}}"#,
    )
    .expect("package.json");
    let lock = format!(
        r#"{{"name": "proj", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": {{
            "": {{"name": "proj", "version": "1.0.0", "dependencies": {{"demo-npm-pkg": "1.0.0"}}}},
            "node_modules/demo-npm-pkg": {{"version": "1.0.0", "resolved": "{tarball}"}}}}}}"#
    );
    std::fs::write(t.project.join("package-lock.json"), lock).expect("package-lock.json");
    let mut policy = t.policy();
    policy.network = true;
    policy.network_rules = Rules {
        resolve: vec![("npm.test".to_owned(), "127.0.0.1".parse().expect("ip"))],
        ..Rules::default()
    };
    // Its cache in the box's private temporary folder, no audit or funding round trips, a short retry.
    let install = format!(
        "npm ci --cache \"${{TMPDIR:-/tmp}}/npm-cache\" --no-audit --no-fund --fetch-retries 0 --registry http://npm.test:{port}/ \
         && node -e \"console.log(require('demo-npm-pkg').VALUE)\"; \
         curl -sS -m 3 --noproxy '*' http://127.0.0.1:{port}/ >/dev/null 2>&1 && echo direct-reached || echo direct-refused"
    );
    let refused = boxed(&policy, &install);
    assert!(!text(&refused.stdout).contains("installed through the proxy"), "{}", text(&refused.stdout));
    let proxy = net::proxy_for(&policy.network_rules).expect("the box's proxy");
    assert!(
        proxy.decisions().iter().any(|d| d.host == "npm.test" && d.outcome.is_err()),
        "the proxy's log has the refused request: {:?}",
        proxy.decisions()
    );

    policy.network_rules.allow = vec![HostRule::parse(&format!("npm.test:{port}")).expect("rule")];
    let out = boxed(&policy, &install);
    let seen = text(&out.stdout);
    assert!(
        seen.contains("installed through the proxy"),
        "npm ci did not install through the proxy: {seen}{}",
        text(&out.stderr)
    );
    assert!(seen.contains("direct-refused"), "the box reached the registry's address directly: {seen}");
    let proxy = net::proxy_for(&policy.network_rules).expect("the box's proxy");
    assert!(
        proxy.decisions().iter().any(|d| d.host == "npm.test" && d.port == port && d.outcome.is_ok()),
        "the proxy's log has npm's request: {:?}",
        proxy.decisions()
    );
}

pub(super) fn docker_desktops_socket_is_out_of_reach_of_a_box_with_the_network() {
    let t = tree();
    let dir = t.home.join(".docker/run");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let path = dir.join("docker.sock");
    let listener = UnixListener::bind(&path).expect("the daemon's socket");
    listener.set_nonblocking(true).expect("nonblocking");
    let mut policy = t.policy();
    policy.network = true;
    let script = format!(
        "python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"{}\"); print(\"CONNECTED\")'",
        path.display()
    );
    let out = boxed(&policy, &script);
    assert!(!text(&out.stdout).contains("CONNECTED"), "{}", text(&out.stderr));
    assert!(listener.accept().is_err(), "a boxed command with the network reached Docker Desktop's socket");
}

/// A GET of `path` on this machine's `127.0.0.1:port`: the response, or why there was none.
fn get_from_host(port: u16, path: &str) -> Result<String, String> {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).map_err(|e| e.to_string())?;
    write!(stream, "GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").map_err(|e| e.to_string())?;
    let mut response = String::new();
    stream.read_to_string(&mut response).map_err(|e| e.to_string())?;
    Ok(response)
}

/// The boxes of one session share a network: a server one box starts (a background dev server)
/// is reached from the session's next box and, forwarded by Warden, from this machine; the
/// forward closes with the session.
pub(super) fn a_sessions_boxes_share_one_network_forwarded_to_the_host() {
    let t = tree();
    std::fs::write(t.project.join("hello.txt"), "hello from the box\n").expect("page");
    let shared = net::SharedNet::new();
    let mut policy = t.policy();
    policy.network = true;
    policy.shared_net = Some(shared.clone());
    // A port free on this machine, so that the forward can take the same one.
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port();
    let argv: Vec<std::ffi::OsString> =
        ["python3", "-m", "http.server", &port.to_string(), "--bind", "127.0.0.1"]
            .iter()
            .map(Into::into)
            .collect();
    let launch = warden_core::containment::launch(&policy, &argv, &policy.project).expect("launch");
    let mut command = launch.command();
    command.env_clear().env("PATH", "/usr/local/bin:/usr/bin:/bin").env("HOME", super::home_of(&policy));
    command.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    let mut server = command.spawn().expect("the server's box");
    drop(launch);

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let forward = loop {
        if let Some(forward) = shared.forwarded().into_iter().find(|f| f.port == port) {
            break forward;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server's port was never forwarded: {:?}",
            shared.forwarded()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(forward.host_port, port, "the port was free here, so the forward takes it");

    let out = boxed(&policy, &format!("curl -sS -m 10 http://127.0.0.1:{port}/hello.txt; echo uid=$(id -u)"));
    // bubblewrap runs as the root of the keeper's user namespace; the command must not.
    let uid = format!("uid={}", nix::unistd::getuid());
    assert!(
        text(&out.stdout).contains(&uid),
        "the joined box's user is not the user's: {}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stdout).contains("hello from the box"),
        "the next box did not reach the server: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let page = get_from_host(forward.host_port, "/hello.txt");
    assert!(
        page.as_deref().is_ok_and(|p| p.contains("hello from the box")),
        "not reached from the host: {page:?}"
    );

    // The session ends: its boxes' processes are killed, its network and forwards closed.
    let _ = server.kill();
    let _ = server.wait();
    drop(policy);
    drop(shared);
    let closed = (0..100).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::net::TcpStream::connect(("127.0.0.1", forward.host_port)).is_err()
    });
    assert!(closed, "127.0.0.1:{} still answers after the session ended", forward.host_port);
}

/// The session's keeper dies with Warden, however Warden dies: a process holding a session's
/// network is killed with SIGKILL, and the keeper's box is gone soon after (its standard input
/// was the only tie left).
pub(super) fn a_sessions_network_dies_with_warden_killed() {
    const CHILD: &str = "WARDEN_TEST_KEEPER_CHILD";
    if std::env::var_os(CHILD).is_some() {
        let t = tree();
        let shared = net::SharedNet::new();
        let mut policy = t.policy();
        policy.network = true;
        policy.shared_net = Some(shared.clone());
        let out = boxed(&policy, "true");
        assert!(out.status.success(), "{}", text(&out.stderr));
        // Read by the test that runs this one (the lint keeps prints out of the product).
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "keeper-pid={}", shared.keeper_pid().expect("a keeper runs")).expect("stdout");
        stdout.flush().expect("stdout");
        drop(stdout);
        std::thread::sleep(std::time::Duration::from_secs(120));
        return;
    }
    let exe = std::env::current_exe().expect("test binary");
    let test = "a_sessions_network_dies_with_warden_killed::bubblewrap";
    let mut warden = std::process::Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .env(warden_core::containment::MECHANISM_ENV, "bwrap")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the stand-in for Warden");
    let stdout = warden.stdout.take().expect("stdout");
    let keeper = std::io::BufRead::lines(std::io::BufReader::new(stdout))
        .map_while(Result::ok)
        // libtest may print the test's name on the same line first.
        .find_map(|line| line.split_once("keeper-pid=").and_then(|(_, pid)| pid.trim().parse::<u32>().ok()));
    let Some(keeper) = keeper else {
        let _ = warden.kill();
        panic!("the stand-in never started a keeper");
    };
    assert!(std::path::Path::new(&format!("/proc/{keeper}")).exists(), "the keeper is not running");
    warden.kill().expect("SIGKILL");
    let _ = warden.wait();
    let gone = (0..250).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(20));
        !std::path::Path::new(&format!("/proc/{keeper}")).exists()
    });
    assert!(gone, "the keeper (pid {keeper}) outlived the Warden that was killed");
}
