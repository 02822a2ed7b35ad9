//! Permission rules through the CLI: "Always allow…" answered on `warden exec --json` keeps the
//! rule the confirmation offered, and the next conversation runs the same kind of call unasked;
//! `warden rules` lists, adds, checks and removes. Rules live in the sealed settings, so these run
//! against the real Secret Service (scripts/test.sh runs them under dbus-run-session with an
//! unlocked gnome-keyring), and "always" is offered for a command only in bubblewrap's box.

use serde_json::{json, Value};
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, find, with_keychain, Dirs, Warden};

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

/// One conversation whose model runs `command` with bash; what it printed and its exit status.
async fn conversation(
    dirs: &Dirs,
    command_line: &str,
    answer_with: impl Fn(&Value) -> Option<Value>,
) -> Vec<Value> {
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "bash", json!({ "command": command_line }))]),
        answer(&[text("Done.")]),
    ])
    .await;
    let mut warden =
        Warden::spawn(with_keychain(command(dirs, &exec_args(&server, &["--allow", "all", "go"]))));
    warden.answer_until_turn_ends(answer_with).await;
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    lines
}

fn rules(dirs: &Dirs, args: &[&str]) -> std::process::Output {
    let mut all = vec!["rules"];
    all.extend_from_slice(args);
    let mut cmd = with_keychain(command(dirs, &all));
    cmd.stdin(std::process::Stdio::null());
    let output = cmd.into_std().output();
    output.unwrap_or_else(|e| panic!("warden rules: {e}"))
}

fn contained_by_bubblewrap() -> bool {
    matches!(warden_core::containment::mechanism(), warden_core::containment::Mechanism::Bubblewrap { .. })
}

#[tokio::test]
#[ignore = "needs the Secret Service: scripts/test.sh runs it under dbus-run-session"]
async fn always_keeps_the_offered_rule_and_the_next_conversation_runs_unasked_keychain() {
    assert!(
        contained_by_bubblewrap(),
        "this machine must have bubblewrap's box (scripts/setup.sh installs it)"
    );
    let dirs = Dirs::new();
    let first = conversation(&dirs, "touch one --no-create", |confirm| {
        assert_eq!(confirm["askedBecause"], "no_rule", "{confirm}");
        assert_eq!(confirm["suggestedRule"], json!({"tool": "bash", "pattern": "touch *"}), "{confirm}");
        Some(json!({"confirmId": confirm["confirmId"], "approved": true, "remember": "always"}))
    })
    .await;
    let result = &find(&first, "chat:tool-result")[0]["payload"];
    assert_eq!(result["status"], "success", "{result}");
    assert_eq!(result["metadata"]["ruleKept"], "allow bash: touch * (project)", "{result}");
    // A new conversation: the kept rule covers another `touch`; nobody is there to answer.
    let second = conversation(&dirs, "touch two", |confirm| panic!("asked again: {confirm}")).await;
    assert!(find(&second, "chat:tool-confirm").is_empty());
    assert_eq!(find(&second, "chat:tool-result")[0]["payload"]["status"], "success");
    // Not a wider one: `touch` and then something else asks.
    let third = conversation(&dirs, "touch three && mkdir x", |_| None).await;
    assert_eq!(find(&third, "chat:tool-confirm").len(), 1, "a compound command is covered part by part");
    // Listed, with where it came from.
    let listed = rules(&dirs, &["list", "--json"]);
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap_or_default();
    assert_eq!(listed[0]["scope"], "project", "{listed}");
    assert_eq!(
        listed[0]["rule"],
        json!({"effect": "allow", "tool": "bash", "pattern": "touch *", "origin": {"kind": "card"}})
    );
    // It decided the second conversation's call: Settings shows when.
    let when = listed[0]["lastUsed"].as_str().unwrap_or_default();
    assert!(chrono::DateTime::parse_from_rfc3339(when).is_ok(), "{listed}");
}

#[tokio::test]
#[ignore = "needs the Secret Service: scripts/test.sh runs it under dbus-run-session"]
async fn a_command_that_only_reads_offers_the_read_only_class_which_then_covers_others_that_read_keychain() {
    assert!(contained_by_bubblewrap(), "this machine must have bubblewrap's box");
    let dirs = Dirs::new();
    let offered = json!({"tool": "bash", "pattern": "@read-only", "narrower": "git status *"});
    let first = conversation(&dirs, "git status", |confirm| {
        assert_eq!(confirm["suggestedRule"], offered, "{confirm}");
        Some(json!({"confirmId": confirm["confirmId"], "approved": true, "remember": "always"}))
    })
    .await;
    let result = &find(&first, "chat:tool-result")[0]["payload"];
    assert_eq!(result["metadata"]["ruleKept"], "allow bash: @read-only (project)", "{result}");
    // Other programs that only read, piped, run unasked in the next conversation.
    let second = conversation(&dirs, "ls -la | wc -l && git log --oneline -1 | head -1", |confirm| {
        panic!("asked again: {confirm}")
    })
    .await;
    assert_eq!(find(&second, "chat:tool-result")[0]["payload"]["status"], "success");
    // A command that writes still asks, and so does one that only looks like it reads.
    for writes in ["touch made.txt", "sort -o out.txt README.md", "ls > listing.txt"] {
        let asked = conversation(&dirs, writes, |_| None).await;
        assert_eq!(find(&asked, "chat:tool-confirm").len(), 1, "{writes} ran unasked");
    }
    // `warden rules check` says which rule decides, and what "always" would offer.
    let checked = rules(&dirs, &["check", "bash", "cat README.md"]);
    assert_eq!(checked.status.code(), Some(0), "{}", String::from_utf8_lossy(&checked.stdout));
    assert!(String::from_utf8_lossy(&checked.stdout).contains("@read-only (project)"));
    let fresh = Dirs::new();
    let offer =
        String::from_utf8_lossy(&rules(&fresh, &["check", "bash", "git diff --stat"]).stdout).into_owned();
    assert!(offer.contains("always allow would save: bash: @read-only"), "{offer}");
    assert!(offer.contains("narrower: git diff *"), "{offer}");
}

#[tokio::test]
#[ignore = "needs the Secret Service: scripts/test.sh runs it under dbus-run-session"]
async fn claude_codes_rules_are_shown_then_added_only_when_asked_and_wide_ones_left_out_keychain() {
    let dirs = Dirs::new();
    let claude = r#"{"permissions": {
        "allow": ["Bash(npm run test:*)", "Bash(*)", "Edit(src/**)", "Read(~/.ssh/config)"],
        "ask": ["Bash(git push:*)"],
        "deny": ["Read(.env)"]}}"#;
    std::fs::create_dir_all(dirs.path(".claude")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dirs.path(".claude/settings.json"), claude).unwrap_or_else(|e| panic!("{e}"));
    let shown = rules(&dirs, &["import", "--json"]);
    assert_eq!(shown.status.code(), Some(0), "{}", String::from_utf8_lossy(&shown.stderr));
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap_or_default();
    assert_eq!(shown["added"], 0, "nothing is added without --add");
    assert_eq!(shown["import"]["candidates"].as_array().map(Vec::len), Some(5), "{shown}");
    assert_eq!(shown["import"]["skipped"][0]["entry"], "Read(~/.ssh/config)");
    let listed: Value = serde_json::from_slice(&rules(&dirs, &["list", "--json"]).stdout).unwrap_or_default();
    assert_eq!(listed, json!([]));
    let added = rules(&dirs, &["import", "--add"]);
    assert_eq!(added.status.code(), Some(0), "{}", String::from_utf8_lossy(&added.stderr));
    let listed: Value = serde_json::from_slice(&rules(&dirs, &["list", "--json"]).stdout).unwrap_or_default();
    let shown_rules: Vec<String> = listed
        .as_array()
        .map(|all| {
            all.iter()
                .map(|r| format!("{} {} {}", r["rule"]["effect"], r["rule"]["tool"], r["rule"]["pattern"]))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        shown_rules,
        [
            r#""allow" "bash" "npm run test *""#,
            r#""allow" "write" "src/**""#,
            r#""ask" "bash" "git push *""#,
            r#""deny" "read" "**/.env""#,
        ],
        "the wide `Bash(*)` is left out: {listed}"
    );
    assert_eq!(listed[0]["rule"]["origin"]["kind"], "imported");
}

#[tokio::test]
#[ignore = "needs the Secret Service: scripts/test.sh runs it under dbus-run-session"]
async fn a_program_whose_danger_is_in_its_arguments_keeps_only_its_exact_command_keychain() {
    assert!(
        contained_by_bubblewrap(),
        "this machine must have bubblewrap's box (scripts/setup.sh installs it)"
    );
    let dirs = Dirs::new();
    std::fs::write(dirs.path("old.log"), "x").unwrap_or_else(|e| panic!("{e}"));
    let lines = conversation(&dirs, "rm old.log", |confirm| {
        assert_eq!(confirm["suggestedRule"], json!({"tool": "bash", "pattern": "rm old.log", "exactOnly": true}));
        // A script asks for a broader rule than offered: the call runs, the rule is not kept.
        let wider = json!({"tool": "bash", "pattern": "rm *"});
        Some(json!({"confirmId": confirm["confirmId"], "approved": true, "remember": "always", "always": wider}))
    })
    .await;
    let result = &find(&lines, "chat:tool-result")[0]["payload"];
    assert_eq!(result["status"], "success", "{result}");
    let why = result["metadata"]["ruleNotKept"].as_str().unwrap_or_default();
    assert!(why.contains("only the exact command"), "{result}");
    let listed: Value = serde_json::from_slice(&rules(&dirs, &["list", "--json"]).stdout).unwrap_or_default();
    assert_eq!(listed, json!([]));
}

#[tokio::test]
#[ignore = "needs the Secret Service: scripts/test.sh runs it under dbus-run-session"]
async fn warden_rules_adds_checks_and_removes_with_documented_exit_codes_keychain() {
    let dirs = Dirs::new();
    let status = |out: &std::process::Output| out.status.code().unwrap_or(-1);
    let added = rules(&dirs, &["add", "deny", "bash", "git push *", "--scope", "user"]);
    assert_eq!(status(&added), 0, "{}", String::from_utf8_lossy(&added.stderr));
    assert_eq!(status(&rules(&dirs, &["add", "allow", "write", "src/**"])), 0);
    let bad = rules(&dirs, &["add", "allow", "bash", "a && b"]);
    assert_eq!(status(&bad), 2);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a command pattern"));
    let refused = rules(&dirs, &["check", "bash", "sudo git push --force", "--json"]);
    assert_eq!(status(&refused), 4);
    let refused: Value = serde_json::from_slice(&refused.stdout).unwrap_or_default();
    assert_eq!(refused["decision"], "deny");
    assert_eq!(refused["rule"], "deny bash: git push * (user)");
    std::fs::create_dir_all(dirs.path("src")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status(&rules(&dirs, &["check", "write", "src/a.rs"])), 0);
    let asks = rules(&dirs, &["check", "write", "src/../.git/hooks/pre-commit"]);
    assert_eq!(status(&asks), 3, "resolved outside src/: {}", String::from_utf8_lossy(&asks.stdout));
    assert_eq!(status(&rules(&dirs, &["remove", "deny", "bash", "git push *", "--scope", "user"])), 0);
    assert_eq!(status(&rules(&dirs, &["remove", "deny", "bash", "git push *", "--scope", "user"])), 2);
    assert_eq!(status(&rules(&dirs, &["check", "bash", "git push"])), 3);
}
