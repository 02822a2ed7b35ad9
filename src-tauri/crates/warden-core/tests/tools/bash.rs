//! `bash` with real processes: streaming order, exit codes, timeouts and cancel kill the whole group,
//! credentials stripped, stdin closed, and a 1 GB output keeps the buffer bounded.

use std::time::{Duration, Instant};

use serde_json::json;
use warden_core::scope::Scope;
use warden_core::tool::{OutputSink, ToolsConfig};
use warden_protocol::{ApprovalPreview, OutputStream, ToolCall, ToolErrorCode};

use super::common::*;

#[tokio::test]
async fn output_is_streamed_in_order_as_it_comes() {
    let env = TestEnv::new();
    let (sink, mut rx) = OutputSink::channel(1 << 20);
    let ctx = env.ctx.clone().with_output(sink);
    let command = "echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three";
    let started = Instant::now();
    let out = env.call_with("bash", json!({"command": command}), ctx).await;
    assert_ok(&out);
    assert_eq!(out.content, "one\ntwo\nthree\n");
    assert!(started.elapsed() >= Duration::from_millis(400));
    let mut chunks = Vec::new();
    while let Ok(chunk) = rx.try_recv() {
        chunks.push(chunk);
    }
    assert_eq!(
        chunks,
        [
            (OutputStream::Stdout, "one\n".to_owned()),
            (OutputStream::Stderr, "two\n".to_owned()),
            (OutputStream::Stdout, "three\n".to_owned())
        ]
    );
    assert_eq!(part(&out, "command")["exitCode"], json!(0));
}

#[tokio::test]
async fn runs_in_the_project_root_and_non_zero_exit_is_an_error_with_the_code() {
    let env = TestEnv::new();
    let out = env.call("bash", json!({"command": "pwd"})).await;
    assert_eq!(out.content.trim(), env.root().to_string_lossy());
    let out = env.call("bash", json!({"command": "echo failing >&2; exit 3"})).await;
    assert_code(&out, ToolErrorCode::ExecutionError);
    assert!(out.content.contains("failing") && out.content.contains("exit code 3"), "{}", out.content);
    assert_eq!(part(&out, "command")["exitCode"], json!(3));
    let out = env.call("bash", json!({"command": "cat; echo done"})).await;
    assert_eq!(out.content, "done\n", "stdin must be closed");
    let out = env.call("bash", json!({"command": "true"})).await;
    assert_eq!(out.content, "(no output)");
}

#[tokio::test]
async fn credentials_are_not_in_the_child_environment() {
    // In the environment of this test's own process (as in Warden's when the user gave them), and
    // of no other test: the child must not see them.
    let warden_env = [
        ("FOO_API_KEY", "sk-leak-1"),
        ("WARDEN_TEST_TOKEN", "tok-leak-2"),
        ("ANTHROPIC_API_KEY", "sk-ant-leak-3"),
        ("WARDEN_TEST_PLAIN", "warden-own"),
        ("PLAIN_TEST_VAR", "visible"),
    ];
    if !warden_testkit::rerun_with_env(
        module_path!(),
        "credentials_are_not_in_the_child_environment",
        &warden_env,
    ) {
        return;
    }
    let env = TestEnv::new();
    let out = env.call("bash", json!({"command": "env"})).await;
    assert_ok(&out);
    for leak in ["sk-leak-1", "tok-leak-2", "sk-ant-leak-3", "FOO_API_KEY", "ANTHROPIC_API_KEY", "warden-own"]
    {
        assert!(!out.content.contains(leak), "{leak} reached the child");
    }
    assert!(out.content.contains("PLAIN_TEST_VAR=visible"));
    assert!(out.content.contains("PATH="));
}

#[tokio::test]
async fn a_boxed_command_gets_neither_the_desktop_session_nor_secret_shaped_values() {
    // As a desktop session gives them to Warden: the X server, the compositor, the session bus
    // (the keychain is one call away on it), the agents; and a token under a name without a marker.
    let warden_env = [
        ("DISPLAY", ":77"),
        ("WAYLAND_DISPLAY", "wayland-77"),
        ("XAUTHORITY", "/home/u/.Xauthority-77"),
        ("DBUS_SESSION_BUS_ADDRESS", "unix:abstract=/tmp/dbus-77"),
        ("SSH_AUTH_SOCK", "/tmp/ssh-77/agent.1"),
        ("GPG_AGENT_INFO", "/tmp/gpg-77:0:1"),
        ("DEPLOY_HOOK", "https://hooks.slack.com/services/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"),
        ("BILLING", "sk_live_a1B2c3D4e5F6g7H8i9J0k1L2m3N4"),
        ("PLAIN_TEST_VAR", "visible"),
    ];
    let test = "a_boxed_command_gets_neither_the_desktop_session_nor_secret_shaped_values";
    if !warden_testkit::rerun_with_env(module_path!(), test, &warden_env) {
        return;
    }
    let mechanism = warden_core::containment::mechanism();
    assert!(mechanism.is_contained(), "this test needs the sandbox: {}", mechanism.describe());
    let env = TestEnv::new();
    let home = env.outside.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    let policy = warden_core::containment::BoxPolicy::with_home(&env.root(), Some(&home), &[]);
    let ctx = env.ctx.clone().with_commands_box(Some(std::sync::Arc::new(policy)));
    let out = env.call_with("bash", json!({"command": "env"}), ctx).await;
    assert_ok(&out);
    for leak in ["DISPLAY", "XAUTHORITY", "DBUS_SESSION", "SSH_AUTH_SOCK", "GPG_AGENT", "LEAK", "sk_live_"] {
        assert!(!out.content.contains(leak), "{leak} reached the boxed command:\n{}", out.content);
    }
    assert!(out.content.contains("PLAIN_TEST_VAR=visible"), "{}", out.content);
    assert_eq!(part(&out, "sandbox")["contained"], json!(true), "{}", out.content);
}

#[tokio::test]
async fn timeout_kills_the_whole_process_group() {
    let env = TestEnv::new();
    let pid_file = env.path("grandchild.pid");
    let command = format!("sleep 300 & echo $! > {}; echo started; wait", pid_file.display());
    let started = Instant::now();
    let out = env.call("bash", json!({"command": command, "timeout": 1})).await;
    assert_code(&out, ToolErrorCode::ToolTimeout);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(out.content.contains("started") && out.content.contains("timed out"), "{}", out.content);
    let pid: i32 = std::fs::read_to_string(&pid_file).expect("pid").trim().parse().expect("pid number");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!alive(pid), "the sleep grandchild {pid} survived the timeout");
}

#[tokio::test]
async fn timeouts_are_capped_by_config_and_scope() {
    let mut scope = Scope::all();
    scope.timeouts_secs.insert("bash".to_owned(), 1);
    let config = ToolsConfig { bash_max_timeout: Duration::from_secs(2), ..Default::default() };
    let env = TestEnv::with(scope, config);
    let started = Instant::now();
    let out = env.call("bash", json!({"command": "sleep 30", "timeout": 600})).await;
    assert_code(&out, ToolErrorCode::ToolTimeout);
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
}

#[tokio::test]
async fn cancel_kills_the_whole_process_group() {
    let env = TestEnv::new();
    let pid_file = env.path("cancel.pid");
    let ctx = env.ctx.clone();
    let cancel = ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        cancel.cancel();
    });
    let command = format!("sleep 300 & echo $! > {}; wait", pid_file.display());
    let out = env.call_with("bash", json!({"command": command}), ctx).await;
    assert_code(&out, ToolErrorCode::Cancelled);
    let pid: i32 = std::fs::read_to_string(&pid_file).expect("pid").trim().parse().expect("pid number");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!alive(pid), "the sleep grandchild {pid} survived cancel");
}

#[tokio::test]
async fn leftover_background_children_of_a_finished_command_are_ended() {
    let env = TestEnv::new();
    let pid_file = env.path("left.pid");
    let command = format!("sleep 300 & echo $! > {}; echo done", pid_file.display());
    let started = Instant::now();
    let out = env.call("bash", json!({"command": command})).await;
    assert_ok(&out);
    assert!(started.elapsed() < Duration::from_secs(5));
    let pid: i32 = std::fs::read_to_string(&pid_file).expect("pid").trim().parse().expect("pid number");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!alive(pid));
}

#[tokio::test]
async fn a_gigabyte_of_output_keeps_the_buffer_bounded() {
    let env = TestEnv::new();
    let (sink, mut rx) = OutputSink::channel(1 << 20);
    let ctx = env.ctx.clone().with_output(sink);
    let drain = tokio::spawn(async move {
        let mut streamed = 0usize;
        while let Some((_, chunk)) = rx.recv().await {
            streamed += chunk.len();
        }
        streamed
    });
    let command = "echo FIRST; head -c 1000000000 /dev/zero | tr '\\0' 'a'; echo; echo LAST";
    let out = env.call_with("bash", json!({"command": command, "timeout": 300}), ctx).await;
    assert_ok(&out);
    assert!(out.content.len() <= 100 * 1024 + 512, "content {} bytes", out.content.len());
    assert!(out.content.starts_with("FIRST\naaaa") && out.content.ends_with("LAST\n"));
    assert_eq!(meta(&out, "output_bytes"), &json!(1_000_000_000u64 + 12));
    assert_eq!(meta(&out, "truncated"), &json!(true));
    let streamed = drain.await.unwrap_or_default();
    assert!(streamed <= (1 << 20) + 200, "the UI stream is capped too: {streamed}");
}

#[tokio::test]
async fn preview_shows_the_command_and_where_it_runs() {
    let env = TestEnv::new();
    let call = ToolCall { id: "t".into(), name: "bash".into(), input: json!({"command": "cargo test"}) };
    match env.registry.preview(&call, &env.ctx).await {
        Some(ApprovalPreview::Command { command, cwd }) => {
            assert_eq!(command, "cargo test");
            assert_eq!(cwd, env.root().to_string_lossy());
        }
        other => panic!("expected a command preview, got {other:?}"),
    }
}

#[tokio::test]
async fn a_command_leads_a_session_of_its_own_without_a_controlling_terminal() {
    // Its own session: the command cannot open Warden's terminal (`/dev/tty`) to read or forge the
    // answers to confirmations, and the session is what the end-of-call sweep keys on.
    let env = TestEnv::new();
    let command = "read -r stat < /proc/$$/stat; set -- $stat; \
                   [ \"$6\" = \"$$\" ] && [ \"$5\" = \"$$\" ] && echo own-session; \
                   (: < /dev/tty) 2>/dev/null && echo tty-opened || echo no-tty";
    let out = env.call("bash", json!({"command": command})).await;
    assert_ok(&out);
    assert_eq!(out.content, "own-session\nno-tty\n");
}

/// A dev server a background command starts is reached from the session's next command and,
/// forwarded by Warden, from this machine; each result names the forward, and the forward closes
/// with the session (bubblewrap: the session's boxes share one network of their own).
#[tokio::test]
async fn a_background_server_is_reached_from_the_next_call_and_from_this_machine() {
    use warden_core::agent::ToolEnvironment;
    use warden_core::containment::{self, BoxPolicy, Mechanism};
    let mechanism = containment::mechanism();
    assert!(
        matches!(mechanism, Mechanism::Bubblewrap { .. }),
        "this test needs bubblewrap: {}",
        mechanism.describe()
    );
    let env = TestEnv::new();
    write(&env.path("hello.txt"), "hello from the box\n");
    let home = env.outside.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    let mut policy = BoxPolicy::with_home(&env.root(), Some(&home), &[]);
    policy.network = true;
    let storage = warden_core::config::WardenHome::at(env.home.path()).project_dir(env.project.path());
    let workspace =
        warden_core::sandbox::Workspace::new(env.project.path(), storage, Scope::all()).expect("workspace");
    let session = ToolEnvironment::with_box(workspace, policy);
    let ctx = session.context(&env.registry, tokio_util::sync::CancellationToken::new());
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();

    let server = format!("python3 -m http.server {port} --bind 127.0.0.1");
    let started = env.call_with("bash", json!({"command": server, "background": true}), ctx.clone()).await;
    assert_ok(&started);
    let fetch = format!("curl -sS -m 5 http://127.0.0.1:{port}/hello.txt");
    let deadline = Instant::now() + Duration::from_secs(30);
    let reached = loop {
        let out = env.call_with("bash", json!({"command": fetch}), ctx.clone()).await;
        if out.content.contains("hello from the box") {
            break out;
        }
        assert!(Instant::now() < deadline, "the next call never reached the server: {}", out.content);
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let forwarded = part(&reached, "forwardedPorts");
    assert_eq!(forwarded, json!([{"port": port, "hostPort": port}]), "{}", reached.content);
    assert!(reached.content.contains(&format!("{port} → localhost:{port}")), "{}", reached.content);

    let page = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
        stream.set_read_timeout(Some(Duration::from_secs(10))).map_err(|e| e.to_string())?;
        stream.write_all(b"GET /hello.txt HTTP/1.0\r\n\r\n").map_err(|e| e.to_string())?;
        let mut page = String::new();
        stream.read_to_string(&mut page).map_err(|e| e.to_string())?;
        Ok::<_, String>(page)
    })
    .await
    .expect("join");
    assert!(
        page.as_deref().is_ok_and(|p| p.contains("hello from the box")),
        "not reached from this machine: {page:?}"
    );

    drop(ctx);
    drop(session);
    let mut closed = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            closed = true;
            break;
        }
    }
    assert!(closed, "the forward outlived the session: 127.0.0.1:{port} still answers");
}

#[tokio::test]
async fn a_failed_boxed_command_names_the_paths_of_the_home_the_box_does_not_show() {
    let mechanism = warden_core::containment::mechanism();
    assert!(mechanism.is_contained(), "this test needs the sandbox: {}", mechanism.describe());
    let env = TestEnv::new();
    let home = std::fs::canonicalize(env.outside.path()).expect("outside").join("home");
    std::fs::create_dir_all(home.join("Documents")).expect("home");
    std::fs::write(home.join("Documents/notes.txt"), "NOTES").expect("notes");
    let policy = warden_core::containment::BoxPolicy::with_home(&env.root(), Some(&home), &[]);
    let ctx = env.ctx.clone().with_commands_box(Some(std::sync::Arc::new(policy)));
    let notes = home.join("Documents/notes.txt");
    let command = format!("cat {}", notes.display());
    let out = env.call_with("bash", json!({"command": command}), ctx).await;
    assert!(out.is_error, "{}", out.content);
    assert!(!out.content.contains("NOTES"), "{}", out.content);
    assert_eq!(part(&out, "readableOffers"), json!([notes.display().to_string()]), "{}", out.content);
    assert!(out.content.contains("Settings → Sandbox"), "the model is told why: {}", out.content);
}

/// A boxed command that writes outside the project and connects without the network: its report
/// names both refusals for the block, in the box's real failures (no output faked).
#[tokio::test]
async fn a_failed_boxed_command_reports_what_the_box_refused() {
    let mechanism = warden_core::containment::mechanism();
    assert!(mechanism.is_contained(), "this test needs the sandbox: {}", mechanism.describe());
    let env = TestEnv::new();
    let outside = std::fs::canonicalize(env.outside.path()).expect("outside");
    let policy =
        warden_core::containment::BoxPolicy::with_home(&env.root(), Some(&outside.join("home")), &[]);
    let ctx = env.ctx.clone().with_commands_box(Some(std::sync::Arc::new(policy)));
    // Outside the project, where the box shows the system read-only (its /tmp is its own).
    let target = std::path::PathBuf::from(format!("/usr/warden-box-refusal-{}", std::process::id()));
    // Python's own socket: a name resolved without the network, as any program would.
    let command = format!(
        "touch {} ; python3 -c 'import socket; socket.create_connection((\"example.com\", 80), 2)'",
        target.display()
    );
    let out = env.call_with("bash", json!({"command": command}), ctx.clone()).await;
    assert!(out.is_error, "{}", out.content);
    assert!(!target.exists(), "the write went through");
    assert_eq!(part(&out, "boxRefused"), json!(["writeOutside", "noNetwork"]), "{}", out.content);

    let fine = env.call_with("bash", json!({"command": "false"}), ctx).await;
    assert!(fine.is_error);
    assert_eq!(part(&fine, "boxRefused"), serde_json::Value::Null, "a plain failure names no refusal");
}
