//! Review #9, findings 6 and 2: nothing a command starts outlives its call (or, for background
//! commands, the session), whatever signal ends `warden exec`; and Warden's own process cannot be
//! read by a process of the same user.

use std::time::{Duration, Instant};

use serde_json::json;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, Dirs, Warden};

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

/// Pids of live (not zombie) `sleep` processes whose argument starts with `arg` (`1000.51` finds
/// `sleep 1000.511` and `sleep 1000.515`, not the shell that started them).
pub(super) fn running(arg: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let argv: Vec<&[u8]> = cmdline.split(|b| *b == 0).filter(|a| !a.is_empty()).collect();
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z'));
        if let [program, first] = argv[..] {
            if program.ends_with(b"sleep") && first.starts_with(arg.as_bytes()) && !zombie {
                pids.push(pid);
            }
        }
    }
    pids
}

/// A marker unique to this run of the tests (leftovers of an earlier, failed run do not count).
pub(super) fn tag(test: u32) -> String {
    format!("{test}{:07}", std::process::id() % 10_000_000)
}

pub(super) async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// An autonomous run with every tool in scope.
fn exec_args<'a>(server: &'a TestServer, prompt: &'a str) -> Vec<&'a str> {
    super::process::exec_args(server, &["--allow", "all", "--trust", "autonomous", prompt])
}
/// Every way out of a process group, each with a unique `sleep` argument to find it by.
fn escapes(tag: &str) -> String {
    format!(
        "setsid sleep 1000.{tag}1 >/dev/null 2>&1 & \
         setsid -f sleep 1000.{tag}2 >/dev/null 2>&1; \
         nohup sleep 1000.{tag}3 >/dev/null 2>&1 & \
         sh -c '(setsid sleep 1000.{tag}4 </dev/null >/dev/null 2>&1 &) &'; \
         for m in 1 2 3 4; do until pgrep -f \"^sleep 1000.{tag}$m\" >/dev/null; do sleep 0.02; done; done; \
         echo all-started"
    )
}

#[tokio::test]
async fn nothing_a_command_starts_outlives_its_call() {
    let tag = tag(51);
    let server = TestServer::start(vec![
        answer(&[tool(
            "toolu_1",
            "bash",
            json!({"command": format!("sleep 1000.{tag}5"), "background": true}),
        )]),
        answer(&[tool("toolu_2", "bash", json!({"command": escapes(&tag)}))]),
        answer(&[tool("toolu_3", "bash", json!({"command": "until [ -e release ]; do sleep 0.02; done"}))]),
        answer(&[text("Done.")]),
    ])
    .await;
    let dirs = Dirs::new();
    let mut warden = Warden::spawn(command(&dirs, &exec_args(&server, "escape")));
    loop {
        let result = warden.until("chat:tool-result").await;
        if result["payload"]["toolId"] == "toolu_2" {
            assert!(result["payload"]["result"].as_str().unwrap().contains("all-started"), "{result}");
            break;
        }
    }
    // The call is over: its escaped processes are gone, the background command still runs.
    let (all, background) = (format!("1000.{tag}"), format!("1000.{tag}5"));
    until("the escaped processes are gone", || running(&all).len() == 1).await;
    assert_eq!(running(&background).len(), 1, "the background command was killed with the call");
    std::fs::write(dirs.path("release"), "").unwrap();
    let (code, _, stderr) = warden.finish().await;
    assert_eq!(code, 0, "{stderr}");
    // The session is over: the background command is gone too.
    until("the background command is gone", || running(&all).is_empty()).await;
}

/// Without an OS box only Warden's sweep stands between a command and a process that outlives it:
/// a process whose name is not UTF-8 (its program file named so) is swept like any other.
#[tokio::test]
async fn an_unboxed_process_named_with_bytes_that_are_not_utf8_is_swept_too() {
    let tag = tag(56);
    let escape = format!(
        "name=$(printf '\\377sleep'); cp \"$(command -v sleep)\" \"./$name\" && \
         setsid \"./$name\" 1000.{tag}1 >/dev/null 2>&1 & \
         until grep -q 1000.{tag}1 /proc/$!/cmdline 2>/dev/null; do sleep 0.02; done; echo started"
    );
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "bash", json!({"command": escape}))]),
        answer(&[tool("toolu_2", "bash", json!({"command": "until [ -e release ]; do sleep 0.02; done"}))]),
        answer(&[text("Done.")]),
    ])
    .await;
    let dirs = Dirs::new();
    let mut args = exec_args(&server, "escape");
    args.extend(["--approve", "all"]);
    let mut cmd = command(&dirs, &args);
    cmd.env("WARDEN_SANDBOX", "none");
    let mut warden = Warden::spawn(cmd);
    let result = warden.until("chat:tool-result").await;
    assert!(result["payload"]["result"].as_str().unwrap_or_default().contains("started"), "{result}");
    until("the oddly named process is gone", || running(&format!("1000.{tag}")).is_empty()).await;
    std::fs::write(dirs.path("release"), "").unwrap();
    let (code, _, stderr) = warden.finish().await;
    assert_eq!(code, 0, "{stderr}");
}

async fn a_signal_ends_the_turn_and_every_process(signal: &str, code: i32, tag: &str) {
    let fg = format!("{}; sleep 1000.{tag}5 & wait", escapes(tag));
    let tag = tag.to_owned();
    let server = TestServer::start(vec![
        answer(&[tool(
            "toolu_1",
            "bash",
            json!({"command": format!("sleep 1000.{tag}6"), "background": true}),
        )]),
        answer(&[tool("toolu_2", "bash", json!({"command": fg}))]),
        answer(&[text("never")]),
    ])
    .await;
    let dirs = Dirs::new();
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, "run")));
    let marker = format!("1000.{tag}");
    until("every process runs", || running(&marker).len() == 6).await;
    let pid = warden.child.id().unwrap().to_string();
    assert!(std::process::Command::new("kill").args([signal, &pid]).status().unwrap().success());
    let (exit, lines, stderr) = warden.finish().await;
    assert_eq!(exit, code, "{signal}: {stderr}");
    let end = &lines.last().unwrap()["payload"];
    assert_eq!(end["stopReason"], "cancelled", "{signal}");
    until("no process is left", || running(&marker).is_empty()).await;
}

#[tokio::test]
async fn sigterm_ends_the_turn_kills_every_process_and_exits_143() {
    a_signal_ends_the_turn_and_every_process("-TERM", 143, &tag(52)).await;
}

#[tokio::test]
async fn sighup_ends_the_turn_kills_every_process_and_exits_129() {
    a_signal_ends_the_turn_and_every_process("-HUP", 129, &tag(53)).await;
}

/// A process of the same user as Warden can neither read its environment nor open its file
/// descriptors, while it can for a dumpable process of that user (Warden's own child `sleep`).
/// Root opens any process whatever `PR_SET_DUMPABLE` says, so as root Warden and the probe both
/// run as uid 65534 (`setpriv`); as any other user, both run as that user. It runs either way:
/// there is no case where it passes without looking.
#[tokio::test]
async fn a_same_user_process_cannot_read_wardens_environment_or_fds() {
    use std::os::unix::fs::chown;
    let root = nix::unistd::geteuid().is_root();
    let marker = format!("1000.{}", tag(54));
    let dirs = Dirs::new();
    if root {
        for dir in [dirs.project.path(), dirs.home.path()] {
            chown(dir, Some(65534), Some(65534)).unwrap();
        }
    }
    // `program` run as the user both Warden and the probe are.
    let as_the_user = |program: &std::ffi::OsStr| {
        if root {
            let mut setpriv = std::process::Command::new("setpriv");
            setpriv.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]).arg(program);
            setpriv
        } else {
            std::process::Command::new(program)
        }
    };
    let mut cmd = command(&dirs, &[]);
    let cmd = cmd.as_std_mut();
    let mut wrapped = as_the_user(cmd.get_program());
    wrapped
        .args([
            "tool",
            "bash",
            &json!({"command": format!("sleep {marker}")}).to_string(),
            "--allow",
            "bash",
            "--approve",
            "all",
            "--json",
        ])
        .env_clear()
        .envs(cmd.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .env("WARDEN_SECRET_PROBE", "visible-in-environ")
        .current_dir(dirs.project.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut warden = wrapped.spawn().unwrap();
    until("the command runs", || running(&marker).len() == 1).await;
    let sleeper = running(&marker)[0];
    let probe = |pid: u32| {
        let script = format!(
            "cat /proc/{pid}/environ >/dev/null 2>&1 && echo environ-read; \
             (exec 3</proc/{pid}/fd/0) 2>/dev/null && echo fd-opened; \
             ls /proc/{pid}/fd >/dev/null 2>&1 && echo fds-listed; true"
        );
        let out = as_the_user("sh".as_ref()).args(["-c", &script]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The probe works: the dumpable child of the same user is open to it.
    assert_eq!(probe(sleeper), "environ-read\nfd-opened\nfds-listed\n");
    // Warden, same user, is not.
    assert_eq!(probe(warden.id()), "", "a same-user process reached into Warden");
    assert!(std::process::Command::new("kill")
        .args(["-TERM", &warden.id().to_string()])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = warden.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "warden tool did not end on SIGTERM");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(status.code(), Some(143));
    until("the command is gone", || running(&marker).is_empty()).await;
}
