//! `warden exec --remote` and `warden serve --stdio`: the engine of another user (the remote side,
//! [`super::remote_side`]) driven over a real OpenSSH connection on loopback and over `runuser`;
//! its tool calls run as that user, in its box, after an answer given here; the key sent for the
//! session reaches no file, environment or log there; versions that differ, host keys that do
//! not match and transports that fail are refused in words.

use std::process::Stdio;
use std::time::Duration;

use serde_json::json;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, find, names, Dirs, Warden};
use super::raw_link::RawLink;
use super::remote_side::{files_containing, processes_of, remote_user, RemoteProject, RunDir, Sshd, USER};

/// The key of these tests: it lives in this side's environment only.
const KEY: &str = "sk-ant-remote-test-5f1e9c2b7d";

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

/// `warden exec --json --remote TARGET` against `server`, then `extra`, with the key in this
/// side's environment.
fn remote_exec(dirs: &Dirs, server: &TestServer, target: &str, extra: &[&str]) -> tokio::process::Command {
    let mut args = vec!["--remote", target];
    args.extend_from_slice(extra);
    let mut cmd = command(dirs, &exec_args(server, &args));
    cmd.env("ANTHROPIC_API_KEY", KEY);
    cmd
}

/// The model asks for a command that says who runs it and where, then answers "Done.".
async fn asks_for_a_command() -> TestServer {
    let command = "id -u > who.txt && pwd > where.txt";
    TestServer::start(vec![
        answer(&[tool("toolu_1", "bash", json!({ "command": command }))]),
        answer(&[text("Done.")]),
    ])
    .await
}

/// No process of the remote user shows `key` in its command line or environment.
fn assert_no_key_in_processes(uid: u32, key: &str) {
    for (pid, cmdline, environ) in processes_of(uid) {
        for (what, bytes) in [("command line", &cmdline), ("environment", &environ)] {
            assert!(
                !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                "the key is in the {what} of process {pid} ({})",
                String::from_utf8_lossy(&cmdline)
            );
        }
    }
}

#[tokio::test]
async fn a_turn_over_ssh_runs_as_the_remote_user_after_the_answer_given_here() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[("README.md", "remote project\n")]);
    let sshd = Sshd::start();
    let server = asks_for_a_command().await;
    let dirs = Dirs::new();
    let mut cmd =
        remote_exec(&dirs, &server, &project.target("warden-test"), &["--allow", "all", "who are you?"]);
    cmd.env("WARDEN_SSH_COMMAND", sshd.ssh_command());
    let mut warden = Warden::spawn(cmd);

    let confirm = warden.until("chat:tool-confirm").await;
    assert_eq!(confirm["payload"]["toolId"], "toolu_1");
    assert!(!project.path.join("who.txt").exists(), "nothing runs before the answer");
    // While the session waits there: the key is in no process of the remote user.
    assert_no_key_in_processes(user.uid, KEY);
    let confirm_id = confirm["payload"]["confirmId"].as_str().unwrap().to_owned();
    warden.send_line(&json!({"confirmId": confirm_id, "approved": true}).to_string()).await;
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}\nsshd: {}", sshd.log());

    // The command ran there, as that user, in the project there.
    let result = &find(&lines, "chat:tool-result")[0]["payload"];
    assert_eq!(result["status"], "success", "{result}");
    let who = std::fs::read_to_string(project.path.join("who.txt")).unwrap();
    assert_eq!(who.trim(), user.uid.to_string(), "run as the remote user");
    let meta = std::fs::metadata(project.path.join("who.txt")).unwrap();
    assert_eq!(std::os::unix::fs::MetadataExt::uid(&meta), user.uid);
    assert_eq!(lines.last().unwrap()["event"], "chat:stream-end");
    // The key went to the provider (sent by the remote engine), and nowhere on the remote side.
    assert_eq!(server.requests()[0].header("x-api-key"), Some(KEY));
    assert!(
        files_containing(&user.home, KEY.as_bytes()).is_empty(),
        "the key is in a file of the remote user"
    );
    // Nor in the engine's runtime folder (its socket, its lock, its log).
    assert!(
        sshd.run.dir.path().join("warden/engine.log").exists(),
        "the engine's log is where it is looked for"
    );
    assert!(
        files_containing(sshd.run.dir.path(), KEY.as_bytes()).is_empty(),
        "the key is in the engine's folder"
    );
    assert!(!sshd.log().contains(KEY) && !stderr.contains(KEY), "the key is in a log");
    assert!(sshd.log().contains(&format!("Accepted publickey for {USER}")), "{}", sshd.log());
}

/// What the boxed command records: it changes a file, says whether it runs under a seccomp
/// filter and whether it sees Warden's engine in the remote user's home, and writes to the remote
/// user's npm cache (which the box gives its own layer).
const BOXED: &str = "echo second > notes.txt; grep Seccomp: /proc/self/status > seccomp.txt; \
    test -e \"$HOME/.local/share/warden/bin/warden\"; echo $? > warden-seen.txt; \
    echo layered > \"$HOME/.npm/from-the-box\"; echo $? > cache-write.txt";

#[tokio::test]
async fn the_box_runs_on_the_remote_side_and_a_checkpoint_is_restored_there() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[("notes.txt", "first\n")]);
    let npm = user.home.join(".npm");
    std::fs::create_dir_all(&npm).unwrap();
    std::os::unix::fs::chown(&npm, Some(user.uid), Some(user.gid)).unwrap();
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "bash", json!({"command": BOXED}))]),
        answer(&[text("Changed.")]),
    ])
    .await;
    let dirs = Dirs::new();
    let run = RunDir::new(user);
    let mut cmd = remote_exec(
        &dirs,
        &server,
        &project.target("local"),
        // With the network through the proxy: the box there starts with Warden's launcher, copied
        // with the engine into the remote user's Warden folder.
        &["--allow", "all", "--approve", "all", "--network", "rules", "change it"],
    );
    cmd.args(["--transport", &run.runuser(user, 5)]);
    let (code, _, stderr) = Warden::spawn(cmd).finish().await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(project.path.join("notes.txt")).unwrap(), "second\n");
    // The command ran in the box there: under its seccomp filter, without Warden's own files.
    let seccomp = std::fs::read_to_string(project.path.join("seccomp.txt")).unwrap();
    assert_eq!(seccomp.split_whitespace().last(), Some("2"), "no seccomp filter: {seccomp}");
    let warden_seen = std::fs::read_to_string(project.path.join("warden-seen.txt")).unwrap();
    assert_eq!(warden_seen.trim(), "1", "the box shows Warden's copy in the remote home");
    // The cache's layer works with the launcher that lives inside Warden's hidden folder there:
    // the write succeeded in the box, and reached the layer, not the remote user's cache.
    let cache_write = std::fs::read_to_string(project.path.join("cache-write.txt")).unwrap();
    assert_eq!(cache_write.trim(), "0", "the cache is read-only in the box: no layer was mounted");
    assert!(!npm.join("from-the-box").exists(), "the box wrote to the remote user's own cache");

    // The checkpoint taken there before the command, listed and restored over the link.
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    let list = link
        .request(
            json!({"method": "checkpoint_list", "params": {"project": project.path, "conversation": null}}),
        )
        .await;
    let checkpoints = list["ok"]["value"].as_array().unwrap_or_else(|| panic!("{list}"));
    let before = checkpoints.iter().find(|c| c["toolName"] == "bash").unwrap_or_else(|| panic!("{list}"));
    let restored = link
        .request(
            json!({"method": "checkpoint_restore", "params": {"project": project.path, "id": before["id"]}}),
        )
        .await;
    assert_eq!(restored["ok"]["kind"], "restored", "{restored}");
    assert_eq!(std::fs::read_to_string(project.path.join("notes.txt")).unwrap(), "first\n");
    let unknown = link
        .request(json!({"method": "checkpoint_restore", "params": {"project": project.path, "id": "nope"}}))
        .await;
    assert_eq!(unknown["error"]["usage"], true, "{unknown}");
    assert_eq!(link.finish().await, Some(0));
}

#[tokio::test]
async fn only_the_key_sent_is_used_there_unless_the_user_says_to_use_the_remotes_own() {
    const REMOTE_KEY: &str = "sk-ant-of-the-remote-machine-3c8a";
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let server = TestServer::start(vec![answer(&[text("One.")]), answer(&[text("Two.")])]).await;
    let dirs = Dirs::new();
    let run = RunDir::new(user);
    // The remote engine starts with a key of its own in its environment.
    let transport = run.runuser(user, 5).replacen("env ", &format!("env ANTHROPIC_API_KEY={REMOTE_KEY} "), 1);
    for extra in [None, Some("--remote-env-keys")] {
        let mut args = vec!["--transport", transport.as_str()];
        args.extend(extra);
        args.push("hello");
        let (code, _, stderr) =
            Warden::spawn(remote_exec(&dirs, &server, &project.target("local"), &args)).finish().await;
        assert_eq!(code, 0, "{stderr}");
        // The engine there took its key out of its environment block.
        assert_no_key_in_processes(user.uid, REMOTE_KEY);
    }
    let used: Vec<_> = server.requests().iter().map(|r| r.header("x-api-key").map(str::to_owned)).collect();
    assert_eq!(
        used,
        [Some(KEY.to_owned()), Some(REMOTE_KEY.to_owned())],
        "the key sent wins there; the remote's own only when asked for"
    );
}

#[tokio::test]
async fn a_link_killed_mid_turn_is_made_again_and_the_turn_goes_on_from_where_it_was() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let sshd = Sshd::start();
    let server = asks_for_a_command().await;
    let dirs = Dirs::new();
    let mut cmd = remote_exec(&dirs, &server, &project.target("warden-test"), &["--allow", "all", "who?"]);
    cmd.env("WARDEN_SSH_COMMAND", sshd.ssh_command());
    let mut warden = Warden::spawn(cmd);
    let confirm = warden.until("chat:tool-confirm").await;
    let confirm_id = confirm["payload"]["confirmId"].as_str().unwrap().to_owned();
    // The ssh client under this `warden exec`, killed as a dropped connection would end it.
    let exec_pid = warden.child.id().unwrap();
    let ssh = descendants(exec_pid)
        .into_iter()
        .find(|(_, cmdline)| cmdline.starts_with("ssh"))
        .expect("an ssh client");
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(ssh.0 as i32), nix::sys::signal::Signal::SIGKILL)
        .unwrap();
    // Nothing ran without an answer; the answer given now goes out on the next link.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!project.path.join("who.txt").exists());
    warden.send_line(&json!({"confirmId": confirm_id, "approved": true}).to_string()).await;
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "{stderr}\nsshd: {}", sshd.log());
    assert!(stderr.contains("dropped") && stderr.contains("is back"), "says what happened: {stderr}");
    assert!(project.path.join("who.txt").exists(), "the approved command ran");
    // Every event once, in order: one start, one confirmation, one result, then the answer.
    let order = names(&lines);
    for once in ["chat:tool-confirm", "chat:tool-start", "chat:tool-result"] {
        assert_eq!(order.iter().filter(|n| *n == once).count(), 1, "{once} in {order:?}");
    }
    let at = |name: &str| order.iter().position(|n| n == name).unwrap();
    assert!(
        at("chat:tool-start") < at("chat:tool-result") && at("chat:tool-confirm") < at("chat:tool-result")
    );
    assert_eq!(lines.last().unwrap()["event"], "chat:stream-end");
    assert_eq!(find(&lines, "chat:stream-start").len(), 2, "{order:?}");
    assert!(sshd.log().matches(&format!("Accepted publickey for {USER}")).count() >= 2, "{}", sshd.log());
}

#[tokio::test]
async fn the_engine_leaves_when_it_has_had_no_link_and_no_turn_for_its_idle_time() {
    let user = remote_user();
    let run = RunDir::new(user);
    let mut link = RawLink::start(&run.runuser(user, 2)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    assert!(run.socket().exists(), "the engine listens on its socket");
    let machine = link.request(json!({"method": "machine"})).await;
    assert_eq!(machine["ok"]["value"]["uid"], user.uid, "{machine}");
    assert!(link.finish().await.is_some());
    let gone = warden_testkit::server::wait_until(|| !run.socket().exists(), Duration::from_secs(20)).await;
    assert!(gone, "the engine still listens after its idle time");
}

#[tokio::test]
async fn a_host_key_that_does_not_match_is_refused_as_ssh_refuses_it() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let sshd = Sshd::start();
    sshd.write_known_hosts(&sshd.a_different_host_key());
    let server = asks_for_a_command().await;
    let dirs = Dirs::new();
    let mut cmd = remote_exec(&dirs, &server, &project.target("warden-test"), &["hello"]);
    cmd.env("WARDEN_SSH_COMMAND", sshd.ssh_command());
    let (code, lines, stderr) = Warden::spawn(cmd).finish().await;
    assert_eq!(code, 1, "{stderr}");
    let message = find(&lines, "chat:error")[0]["payload"]["message"].as_str().unwrap().to_owned();
    assert!(message.contains("Host key verification failed"), "{message}");
    assert!(message.contains("exit status 255"), "{message}");
    assert!(server.requests().is_empty(), "no turn without the link");
    assert!(!sshd.log().contains(&format!("Accepted publickey for {USER}")));
}

#[tokio::test]
async fn a_remote_engine_of_another_version_is_refused_in_words_both_ways() {
    // The engine refuses a face of another version, says which, and closes the link.
    let run = RunDir::new(remote_user());
    let mut link = RawLink::start(&run.runuser(remote_user(), 5)).await;
    let refused = link.hello("0.0.1").await;
    assert_eq!(refused["type"], "refused", "{refused}");
    let reason = refused["reason"].as_str().unwrap();
    assert!(reason.contains("0.0.1") && reason.contains(env!("CARGO_PKG_VERSION")), "{reason}");
    assert!(link.finish().await.is_some());

    // The face refuses an engine of another version (an older one answering the hello).
    let older = r#"{"type":"welcome","engine":{"version":"0.0.1","protocol":1},"machine":{"host":"h","user":"u","uid":1,"os":"linux","arch":"x86_64","contained":true,"containment":"bubblewrap"}}"#;
    let fake = format!("printf '%s\\n' '{older}'; cat > /dev/null");
    let dirs = Dirs::new();
    let server = asks_for_a_command().await;
    let mut cmd = remote_exec(&dirs, &server, "old-box:/srv/app", &["hello", "--transport", &fake]);
    cmd.stdin(Stdio::null());
    let (code, lines, stderr) = Warden::spawn(cmd).finish().await;
    assert_eq!(code, 1, "{stderr}");
    let message = find(&lines, "chat:error")[0]["payload"]["message"].as_str().unwrap().to_owned();
    assert!(message.contains("Warden 0.0.1") && message.contains("Install Warden"), "{message}");
}

#[tokio::test]
async fn a_transport_that_fails_says_why() {
    let dirs = Dirs::new();
    let server = asks_for_a_command().await;
    for (transport, expected) in [
        ("echo 'no such container: box' >&2; exit 3", vec!["exit status 3", "no such container: box"]),
        (
            "echo 'sh: 1: exec: warden: not found' >&2; exit 127",
            vec!["exit status 127", "Is Warden installed there?"],
        ),
    ] {
        let mut cmd = remote_exec(&dirs, &server, "box:/srv/app", &["hello", "--transport", transport]);
        cmd.stdin(Stdio::null());
        let (code, lines, stderr) = Warden::spawn(cmd).finish().await;
        assert_eq!(code, 1, "{stderr}");
        let message = find(&lines, "chat:error")[0]["payload"]["message"].as_str().unwrap().to_owned();
        for part in expected {
            assert!(message.contains(part), "{transport}: {message}");
        }
    }
    // A target that is not host:/path is a usage error before anything starts.
    let (code, _, stderr) = Warden::spawn(remote_exec(&dirs, &server, "just-a-host", &["hi"])).finish().await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("host:/path"), "{stderr}");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn serve_speaks_only_over_stdio() {
    let dirs = Dirs::new();
    let (code, lines, stderr) = Warden::spawn(command(&dirs, &["serve"])).finish().await;
    assert_eq!((code, names(&lines).len()), (2, 0), "{stderr}");
    assert!(stderr.contains("--stdio") && stderr.contains("never listens"), "{stderr}");
}

/// The pids and command lines of every process under `pid`.
fn descendants(pid: u32) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    let mut parents = vec![pid];
    while let Some(parent) = parents.pop() {
        let children =
            std::fs::read_to_string(format!("/proc/{parent}/task/{parent}/children")).unwrap_or_default();
        for child in children.split_whitespace().filter_map(|c| c.parse::<u32>().ok()) {
            let cmdline = std::fs::read(format!("/proc/{child}/cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            found.push((child, cmdline));
            parents.push(child);
        }
    }
    found
}

#[tokio::test]
async fn a_machine_without_warden_gets_this_engine_copied_after_it_is_checked() {
    let (uid, home) = super::remote_side::fresh_user();
    let sshd = Sshd::start();
    let dirs = Dirs::new();
    let install = |yes: bool| {
        let mut args = vec!["remote", "install", "warden-fresh"];
        if yes {
            args.push("--yes");
        }
        let mut cmd = command(&dirs, &args);
        cmd.env("WARDEN_SSH_COMMAND", sshd.ssh_command()).stdin(Stdio::null());
        cmd
    };
    // No terminal to ask on: nothing is copied without --yes.
    let refused = install(false).output().await.unwrap();
    assert_eq!(refused.status.code(), Some(2), "{}", String::from_utf8_lossy(&refused.stderr));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--yes"));
    assert!(!home.join(".local/share/warden/bin/warden").exists());

    let copied = install(true).output().await.unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&copied.stdout), String::from_utf8_lossy(&copied.stderr));
    assert_eq!(copied.status.code(), Some(0), "{stderr}\nsshd: {}", sshd.log());
    assert!(stderr.contains("copy Warden") && stderr.contains("glibc"), "says what it does: {stderr}");
    assert!(stdout.contains(&format!("has Warden {} now", env!("CARGO_PKG_VERSION"))), "{stdout}");
    for name in ["warden", "warden-engine", "warden-box"] {
        let meta = std::fs::metadata(home.join(".local/share/warden/bin").join(name)).unwrap();
        assert_eq!(std::os::unix::fs::MetadataExt::uid(&meta), uid, "{name} belongs to the remote user");
        assert_eq!(std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777, 0o755);
    }
    let again = install(true).output().await.unwrap();
    assert!(String::from_utf8_lossy(&again.stdout).contains("already has"));

    // The copy serves a turn.
    let project = home.join("project");
    std::fs::create_dir(&project).unwrap();
    std::os::unix::fs::chown(&project, Some(uid), None).unwrap();
    let server = TestServer::start(vec![answer(&[text("Hello from there.")])]).await;
    let mut cmd = remote_exec(&dirs, &server, &format!("warden-fresh:{}", project.display()), &["hi"]);
    cmd.env("WARDEN_SSH_COMMAND", sshd.ssh_command());
    let (code, lines, stderr) = Warden::spawn(cmd).finish().await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(lines.last().unwrap()["event"], "chat:stream-end");
}

#[tokio::test]
async fn a_machine_this_engine_cannot_run_on_is_refused_before_anything_is_copied() {
    let dirs = Dirs::new();
    // Stand-ins for other machines: what their shells answer to the check, nothing else.
    for (said, expected) in [
        ("Linux\\nx86_64\\nldd (GNU libc) 2.17\\nnone", "glibc 2.17"),
        ("Linux\\naarch64\\nldd (GNU libc) 2.36\\nnone", "built for Linux x86_64"),
        ("Darwin\\narm64\\nldd: not found\\nnone", "built for Linux x86_64"),
    ] {
        let fake = dirs.home.path().join("fake-ssh");
        std::fs::write(&fake, format!("#!/bin/sh\ncat > /dev/null\nprintf '{said}\\n'\n")).unwrap();
        std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let mut cmd = command(&dirs, &["remote", "install", "old-box", "--yes"]);
        cmd.env("WARDEN_SSH_COMMAND", &fake).stdin(Stdio::null());
        let out = cmd.output().await.unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(expected), "{said}: {stderr}");
        assert!(!stderr.contains("copy Warden"), "nothing copied: {stderr}");
    }
}

#[tokio::test]
async fn a_process_of_the_same_user_without_the_engines_secret_gets_nothing_from_its_socket() {
    let user = remote_user();
    let run = RunDir::new(user);
    // The engine, started by a bridge as ssh would start it, serving a real link.
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    // Another process of the same user (a boxed command where the box leaves pathname sockets
    // reachable) connects to the socket and says hello as a face would.
    let hello = json!({"type": "hello", "version": env!("CARGO_PKG_VERSION"), "protocol": warden_protocol::REMOTE_PROTOCOL});
    let script = format!(
        "import socket; s = socket.socket(socket.AF_UNIX); s.connect({socket:?}); s.sendall(b'{hello}\\n'); \
         s.settimeout(15); print(s.recv(65536).decode() or 'CLOSED')",
        socket = run.socket().display().to_string()
    );
    let out = tokio::process::Command::new("runuser")
        .args(["-u", USER, "--", "python3", "-c", &script])
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        said.trim(),
        "CLOSED",
        "the engine answered a link without its secret: {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let secret = run.socket().with_extension("secret");
    let mode =
        std::fs::metadata(&secret).map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777);
    assert_eq!(mode.ok(), Some(0o600), "the secret is the user's alone");
    assert!(link.finish().await.is_some());
}

#[tokio::test]
async fn the_instructions_a_remote_project_gives_are_read_there() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[("AGENTS.md", "Run `make check` before you finish.\n")]);
    let bare = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    let settings = warden_protocol::Settings {
        global_instructions: "Answer in British English.".to_owned(),
        ..Default::default()
    };
    let ask = |project: &RemoteProject, settings: &warden_protocol::Settings| json!({"method": "instructions_in_use", "params": {"project": project.path, "settings": settings}});
    let found = link.request(ask(&project, &settings)).await;
    let in_use = &found["ok"]["value"];
    assert_eq!(in_use["global"], true, "{found}");
    assert_eq!(in_use["files"][0]["relativePath"], "AGENTS.md", "{found}");
    let read_at = project.path.join("AGENTS.md");
    assert_eq!(in_use["files"][0]["path"], read_at.to_str().unwrap(), "read there: {found}");
    let none = link.request(ask(&bare, &warden_protocol::Settings::default())).await;
    assert_eq!(none["ok"]["value"], json!({"files": [], "global": false}), "{none}");
    assert_eq!(link.finish().await, Some(0));
}
