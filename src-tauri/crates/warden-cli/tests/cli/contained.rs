//! Commands as users run them, through the real `warden tool bash`: inside the OS box by default,
//! asking before anything more (the network, the outside), and asking in Autonomous where there is
//! no box. Canaries and a loopback listener outside prove what the command could not do.
#![cfg(target_os = "linux")]

use std::net::TcpListener;
use std::time::Duration;

use super::process::{command, Dirs};

const SECRET: &str = "SSH-KEY-CANARY";
const CANARY: &str = "canary: untouched\n";

/// `warden tool bash INPUT ARGS… --json`, with `env` set; its exit code and result line.
async fn bash(
    dirs: &Dirs,
    input: serde_json::Value,
    args: &[&str],
    env: &[(&str, &str)],
) -> (i32, serde_json::Value) {
    let input = input.to_string();
    let mut all = vec!["tool", "bash", input.as_str(), "--allow", "bash", "--json"];
    all.extend_from_slice(args);
    let mut cmd = command(dirs, &all);
    cmd.stdin(std::process::Stdio::null());
    for (name, value) in env {
        cmd.env(name, value);
    }
    let output = cmd.output().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!("not a result line ({e}): {stdout} / {}", String::from_utf8_lossy(&output.stderr))
    });
    (output.status.code().unwrap_or(-1), value)
}

/// A loopback listener that counts the connections that reached it.
fn listener() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    (listener, port)
}

fn reached(listener: &TcpListener) -> bool {
    // The command has ended; a connection it made is queued by now.
    std::thread::sleep(Duration::from_millis(50));
    listener.accept().is_ok()
}

fn connect(port: u16) -> String {
    format!(
        "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), 2)' && echo connected"
    )
}

#[tokio::test]
async fn an_autonomous_command_runs_in_the_box() {
    let dirs = Dirs::new();
    std::fs::create_dir_all(dirs.home.path().join(".ssh")).unwrap();
    std::fs::write(dirs.home.path().join(".ssh/id_ed25519"), SECRET).unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("canary"), CANARY).unwrap();
    let (listener, port) = listener();
    let script = format!(
        "echo made > inside.txt; cat ~/.ssh/id_ed25519; echo pwned > {}/canary; {}",
        outside.path().display(),
        connect(port)
    );
    let (code, out) =
        bash(&dirs, serde_json::json!({ "command": script }), &["--trust", "autonomous"], &[]).await;
    assert_eq!((code, out["code"].as_str()), (1, Some("EXECUTION_ERROR")), "{out}");
    let text = out["result"].as_str().unwrap();
    assert!(!text.contains(SECRET), "the secret was read: {text}");
    assert_eq!(std::fs::read_to_string(outside.path().join("canary")).unwrap(), CANARY);
    assert!(!reached(&listener), "the command reached a loopback listener");
    assert_eq!(
        std::fs::read_to_string(dirs.path("inside.txt")).unwrap(),
        "made\n",
        "work in the project goes on"
    );
    assert_eq!(out["report"]["sandbox"]["contained"], true);
    assert_eq!(out["metadata"]["contained"], true, "the old key, kept for one release");
    // The project's network is `rules` (its default): the proxy, and nothing else.
    assert_eq!(out["report"]["sandbox"]["summary"].as_str().unwrap(), "network · writes: project");
    assert!(text.contains("only through Warden's proxy"), "the result says why: {text}");

    // The same with the project's network off: no network at all, and the model is told it may ask.
    let input = serde_json::json!({ "command": connect(port) });
    let (_, out) = bash(&dirs, input, &["--trust", "autonomous", "--network", "off"], &[]).await;
    assert!(!reached(&listener), "the command reached a loopback listener");
    assert_eq!(out["report"]["sandbox"]["summary"].as_str().unwrap(), "no network · writes: project");
    let text = out["result"].as_str().unwrap();
    assert!(text.contains("the sandbox has no network"), "the result says why: {text}");
}

/// The project's network is `rules` (the default): every command has the proxy, a host no rule
/// names is the only question — in every trust level, Autonomous too — and the input's
/// `"network": true` asks for nothing more.
#[tokio::test]
async fn with_the_projects_network_rules_an_unknown_host_is_the_only_question() {
    let dirs = Dirs::new();
    let (listener, port) = listener();
    let command = format!("curl -fsS -m 5 -o /dev/null http://registry.test:{port}/ && echo fetched");
    let input = serde_json::json!({ "command": command, "network": true });
    let resolve = [("WARDEN_NET_RESOLVE", "registry.test=127.0.0.1")];
    // Nobody allows it: the call runs (no escalation was asked about), the host is refused.
    let (code, out) =
        bash(&dirs, input.clone(), &["--trust", "autonomous", "--approve", "none"], &resolve).await;
    let result = out["result"].as_str().unwrap_or_default();
    assert_eq!((code, out["code"].as_str()), (1, Some("EXECUTION_ERROR")), "{out}");
    assert!(result.contains("the sandbox's network refused: registry.test"), "{out}");
    assert_eq!(out["report"]["network"][0]["allowed"], false, "the block shows the host: {out}");
    assert!(!reached(&listener));
    assert_eq!(out["report"]["sandbox"]["summary"].as_str().unwrap(), "network · writes: project");
    // Allowed once: the proxy connects, to this machine's loopback only because the user said so.
    let (code, out) = bash(&dirs, input, &["--trust", "autonomous", "--approve", "all"], &resolve).await;
    assert!(reached(&listener), "the allowed host was not reached: {code} {out}");
}

#[tokio::test]
async fn with_the_projects_network_off_the_network_is_asked_for_even_in_autonomous() {
    let dirs = Dirs::new();
    let (listener, port) = listener();
    // What the approved call gets is Warden's proxy, not this machine's network: the name the
    // proxy resolves (to this machine's loopback) is refused without a rule naming it, in words,
    // and a direct connection has nowhere to go.
    let command = format!("curl -sS -m 5 http://registry.test:{port}/; {}", connect(port));
    let input = serde_json::json!({ "command": command, "network": true });
    let resolve = [("WARDEN_NET_RESOLVE", "registry.test=127.0.0.1")];
    let off = ["--trust", "autonomous", "--network", "off"];
    let (code, out) =
        bash(&dirs, input.clone(), &[&off[..], &["--approve", "none"]].concat(), &resolve).await;
    assert_eq!((code, out["code"].as_str()), (1, Some("USER_REJECTED")), "{out}");
    assert!(!reached(&listener));
    let (code, out) = bash(&dirs, input, &[&off[..], &["--approve", "all"]].concat(), &resolve).await;
    let result = out["result"].as_str().unwrap_or_default();
    assert!(result.contains("Warden's proxy did not connect to registry.test"), "{out}");
    assert!(result.contains("a rule naming the host is needed"), "{out}");
    assert!(!result.contains("connected\n") && code != 0, "connected directly: {out}");
    assert!(!reached(&listener));
    assert_eq!(out["report"]["sandbox"]["summary"].as_str().unwrap(), "network · writes: project");
}

/// The Landlock fallback has no network namespace and no rule for `connect`: with the network (the
/// project's default `rules`) its commands could reach this machine's unix sockets, the session bus
/// among them. They ask as uncontained ones do — in Autonomous too — and the block says why; with
/// the network off they run unasked in the box.
#[tokio::test]
async fn in_the_landlock_fallback_a_command_with_the_network_asks_even_in_autonomous() {
    let dirs = Dirs::new();
    let landlock = [("WARDEN_SANDBOX", "landlock")];
    let input = serde_json::json!({ "command": "echo ran" });
    let (code, out) =
        bash(&dirs, input.clone(), &["--trust", "autonomous", "--approve", "none"], &landlock).await;
    assert_eq!((code, out["code"].as_str()), (1, Some("USER_REJECTED")), "{out}");
    let (code, out) =
        bash(&dirs, input.clone(), &["--trust", "autonomous", "--approve", "all"], &landlock).await;
    assert_eq!(code, 0, "{out}");
    let sandbox = out["report"]["sandbox"]["summary"].as_str().unwrap_or_default();
    assert_eq!(sandbox, "network · writes: project · this machine's unix sockets reachable", "{out}");
    let off = ["--trust", "autonomous", "--approve", "none", "--network", "off"];
    let (code, out) = bash(&dirs, input, &off, &landlock).await;
    assert_eq!(code, 0, "with the network off the fallback holds the command in: {out}");
    assert_eq!(out["report"]["sandbox"]["summary"], "no network · writes: project");
}

/// The Landlock fallback cannot make `.git`'s config and hooks read-only (a Landlock right covers a
/// folder's whole hierarchy): what a command changes of them is put back when it ends and kept
/// aside, so the user's next git command runs nothing of the command's.
#[tokio::test]
async fn in_the_landlock_fallback_what_a_command_writes_in_git_metadata_is_put_back() {
    let dirs = Dirs::new();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(["-c", "user.name=u", "-c", "user.email=u@example.test"])
            .args(args)
            .current_dir(dirs.project.path())
            .output()
            .unwrap()
    };
    assert!(git(&["init", "-q"]).status.success());
    let hook = dirs.path(".git/hooks/pre-commit");
    std::fs::write(&hook, "#!/bin/sh\nexit 0\n").unwrap();
    let config = std::fs::read_to_string(dirs.path(".git/config")).unwrap();
    let command = "printf '#!/bin/sh\\ntouch HOOKED\\n' > .git/hooks/pre-commit && \
                   chmod +x .git/hooks/pre-commit && git config core.fsmonitor 'touch MONITORED' && echo planted";
    let input = serde_json::json!({ "command": command });
    let args = ["--trust", "autonomous", "--network", "off"];
    let (code, out) = bash(&dirs, input, &args, &[("WARDEN_SANDBOX", "landlock")]).await;
    let said = out["result"].as_str().unwrap_or_default();
    assert_eq!(code, 0, "{out}");
    assert!(said.contains("planted") && said.contains("Warden moved"), "{said}");
    assert_eq!(std::fs::read_to_string(&hook).unwrap(), "#!/bin/sh\nexit 0\n", "the user's hook is back");
    assert_eq!(std::fs::read_to_string(dirs.path(".git/config")).unwrap(), config, "the config is back");
    assert!(git(&["status"]).status.success());
    assert!(git(&["commit", "-q", "--allow-empty", "-m", "x"]).status.success());
    assert!(!dirs.path("HOOKED").exists() && !dirs.path("MONITORED").exists(), "code ran outside the box");
}

#[tokio::test]
async fn outside_the_sandbox_is_asked_for_and_marked() {
    let dirs = Dirs::new();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("written");
    let input = serde_json::json!({
        "command": format!("echo out > {}", target.display()),
        "outside_sandbox": true,
    });
    let (code, out) = bash(&dirs, input.clone(), &["--trust", "autonomous", "--approve", "none"], &[]).await;
    assert_eq!((code, out["code"].as_str()), (1, Some("USER_REJECTED")), "{out}");
    assert!(!target.exists());
    let (code, out) = bash(&dirs, input, &["--trust", "autonomous", "--approve", "all"], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert!(target.exists(), "approved: it ran outside");
    assert_eq!(out["metadata"]["contained"], false);
}

#[tokio::test]
async fn without_a_box_autonomous_asks_before_every_command() {
    let dirs = Dirs::new();
    let none = [("WARDEN_SANDBOX", "none")];
    let input = serde_json::json!({ "command": "echo hi" });
    let (code, out) =
        bash(&dirs, input.clone(), &["--trust", "autonomous", "--approve", "none"], &none).await;
    assert_eq!((code, out["code"].as_str()), (1, Some("USER_REJECTED")), "{out}");
    // The box is there: the same call runs unasked.
    let (code, out) = bash(&dirs, input.clone(), &["--trust", "autonomous", "--approve", "none"], &[]).await;
    assert_eq!((code, out["result"].as_str()), (0, Some("hi\n")), "{out}");
    let (code, out) = bash(&dirs, input, &["--trust", "autonomous", "--approve", "all"], &none).await;
    assert_eq!((code, out["metadata"]["contained"].as_bool()), (0, Some(false)), "{out}");
}

/// `warden sandbox ARGS… -- sh -c SCRIPT` in the project; its exit code and stderr.
async fn sandbox(dirs: &Dirs, args: &[&str], script: &str, env: &[(&str, &str)]) -> (i32, String) {
    let mut all = vec!["sandbox"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "sh", "-c", script]);
    let mut cmd = command(dirs, &all);
    cmd.stdin(std::process::Stdio::null());
    for (name, value) in env {
        cmd.env(name, value);
    }
    let output = cmd.output().await.unwrap();
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[tokio::test]
async fn warden_sandbox_passes_the_exit_status_through() {
    let dirs = Dirs::new();
    assert_eq!(sandbox(&dirs, &[], "exit 7", &[]).await.0, 7);
    assert_eq!(sandbox(&dirs, &[], "kill -TERM $$", &[]).await.0, 128 + 15);
    assert_eq!(sandbox(&dirs, &[], "echo made > here", &[]).await.0, 0);
    assert!(dirs.path("here").exists(), "the project is writable");
}

#[tokio::test]
async fn warden_sandbox_is_the_agents_box_and_widens_only_as_asked() {
    let dirs = Dirs::new();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("written");
    let write = format!("echo x > {}", target.display());
    let (code, stderr) = sandbox(&dirs, &[], &write, &[]).await;
    assert_ne!(code, 0, "{stderr}");
    assert!(!target.exists(), "wrote outside the project");
    let extra = outside.path().to_string_lossy().into_owned();
    assert_eq!(sandbox(&dirs, &["--write", &extra], &write, &[]).await.0, 0);
    assert!(target.exists(), "--write makes that folder writable");

    let (listener, port) = listener();
    assert_ne!(sandbox(&dirs, &[], &connect(port), &[]).await.0, 0);
    assert!(!reached(&listener), "no network without --network");
    assert_ne!(sandbox(&dirs, &["--network"], &connect(port), &[]).await.0, 0);
    assert!(!reached(&listener), "--network is the proxy, not this machine's loopback");
    let fetch = format!("curl -fsS -m 5 http://registry.test:{port}/");
    let named = ["--network", "--resolve", "registry.test:127.0.0.1"];
    let (code, stderr) = sandbox(&dirs, &named, &fetch, &[]).await;
    assert_ne!(code, 0);
    assert!(stderr.contains("the network proxy refused registry.test"), "said on stderr: {stderr}");
    assert!(!reached(&listener), "a loopback address needs a rule naming the host");
    let rule = format!("registry.test:{port}");
    let allowed = [&named[..], &["--allow-host", &rule]].concat();
    // The listener accepts nothing (it only counts), so curl gives up; the proxy reached it.
    let _ = sandbox(&dirs, &allowed, &format!("curl -sS -m 2 http://registry.test:{port}/"), &[]).await;
    assert!(reached(&listener), "--allow-host lets the proxy reach it");
}

#[tokio::test]
async fn warden_sandbox_never_runs_a_command_unboxed() {
    let dirs = Dirs::new();
    let (code, stderr) = sandbox(&dirs, &[], "echo made > here", &[("WARDEN_SANDBOX", "none")]).await;
    assert_eq!(code, 125, "{stderr}");
    assert!(stderr.contains("cannot be contained"), "{stderr}");
    assert!(!dirs.path("here").exists());
}
