//! Keys given to Warden in its environment cannot be read from Warden by the commands it runs
//! (review finding 3: `tr '\0' '\n' < /proc/$PPID/environ` printed them), its children get no
//! credential and no `WARDEN_*` variable (finding 9), and the keys still reach the provider.

use warden_testkit::scripted::{anthropic, text};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, Dirs, Warden};

/// Credentials by name and by value, each with a value found nowhere else.
const CANARIES: &[(&str, &str)] = &[
    ("ANTHROPIC_API_KEY", "sk-ant-CANARY-a1"),
    ("OPENAI_API_KEY", "sk-CANARY-b2"),
    ("GITHUB_TOKEN", "ghp_CANARY-c3"),
    ("MY_DB_PASSWORD", "CANARY-d4"),
    ("MYSQL_PWD", "CANARY-e5"),
    ("SENTRY_DSN", "https://CANARY-f6@o1.ingest.sentry.io/1"),
    ("DATABASE_URL", "postgres://app:CANARY-g7@db/app"),
    ("QUEUE", "amqp://app:CANARY-h8@mq:5672/"),
];

/// Every environment a command can see: its own, and each of its ancestors' up to init.
const READ_ANCESTORS: &str = r#"env; p=$PPID; while [ "$p" -gt 1 ]; do echo "== $p"; tr '\0' '\n' < /proc/$p/environ; p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2); done"#;

fn with_canaries(dirs: &Dirs, args: &[&str]) -> tokio::process::Command {
    let mut cmd = command(dirs, args);
    for (name, value) in CANARIES {
        cmd.env(name, value);
    }
    cmd
}

#[tokio::test]
async fn a_command_finds_no_key_in_wardens_environment_or_its_own() {
    let dirs = Dirs::new();
    let input = serde_json::json!({ "command": READ_ANCESTORS }).to_string();
    // The blocklist cannot judge `$PPID` loops, so it asks even in Autonomous: answer yes.
    let args = ["tool", "bash", input.as_str(), "--allow", "all", "--approve", "all", "--json"];
    // Outside the OS box, where the ancestors are visible: what keeps the keys from the command
    // there is Warden's own hardening and environment. (In the box, no ancestor is visible at all.)
    let out =
        with_canaries(&dirs, &args).env("WARDEN_SANDBOX", "none").output().await.expect("run warden tool");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("== "), "the command read no ancestor: {stdout}");
    for (name, value) in CANARIES {
        let secret = value.split("CANARY").nth(1).unwrap_or(value);
        assert!(!stdout.contains(secret), "{name}'s value is readable by the command: {stdout}");
    }
    let own = stdout.split("== ").next().unwrap_or_default();
    assert!(!own.contains("WARDEN_HOME="), "the command's environment names Warden's home: {own}");
}

#[tokio::test]
async fn wardens_own_environ_holds_no_key_while_it_runs() {
    let dirs = Dirs::new();
    let input = serde_json::json!({ "command": "sleep 30" }).to_string();
    let args = ["tool", "bash", input.as_str(), "--allow", "all", "--trust", "autonomous", "--json"];
    let mut child = with_canaries(&dirs, &args).spawn().expect("spawn warden tool");
    let pid = child.id().expect("pid");
    // Wait until it runs its command (its child exists), then read its environ as root can.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let children =
            std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
        if !children.trim().is_empty() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "warden never started its command");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let environ = std::fs::read(format!("/proc/{pid}/environ")).expect("read environ");
    let environ = String::from_utf8_lossy(&environ);
    let _ = child.kill().await;
    for (name, value) in CANARIES {
        let secret = value.split("CANARY").nth(1).unwrap_or(value);
        assert!(!environ.contains(secret), "{name}'s value is in /proc/<warden>/environ");
    }
    // What is not a credential is still there.
    assert!(environ.contains("WARDEN_HOME="), "{environ}");
}

#[tokio::test]
async fn the_key_taken_from_the_environment_still_reaches_the_provider() {
    let server = TestServer::start(vec![Reply::sse(anthropic(&[text("ok")], 10), Split::Random(2))]).await;
    let dirs = Dirs::new();
    let args = ["exec", "--json", "--provider", "anthropic", "--model", "m", "--base-url", &server.url, "hi"];
    let (code, _, stderr) = Warden::spawn(with_canaries(&dirs, &args)).finish().await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.requests()[0].header("x-api-key"), Some("sk-ant-CANARY-a1"));
}
