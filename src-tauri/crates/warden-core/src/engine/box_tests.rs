//! The engine with real commands in the project's box: network questions and their answers, the
//! organisation's policy, the block's offers (a home path to read, a git file to put back).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use warden_protocol::{NetworkMode, Settings, ToolApproval, ToolPermissions, TrustLevel};

use super::tests::{approve, dirs, Dirs};
use super::{Engine, SessionSpec};
use crate::secrets::MemoryStore;

/// A project whose commands have the network (every host no rule names asked about) and whose
/// tools are `bash` alone, in an engine of its own; with the project's key in the settings. The
/// box must be bubblewrap's: these cases run real commands in it.
#[cfg(target_os = "linux")]
fn networked_bash_project() -> (Dirs, Engine, String) {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let key = networked_bash(&engine, &d.project, Vec::new());
    (d, engine, key)
}

/// Saves `project` in `engine`'s settings as one whose tools are `bash` alone, with the network
/// and `rules`; its key in the settings.
#[cfg(target_os = "linux")]
fn networked_bash(engine: &Engine, project: &Path, rules: Vec<warden_protocol::PermissionRule>) -> String {
    if !matches!(crate::containment::mechanism(), crate::containment::Mechanism::Bubblewrap { .. }) {
        panic!("this test needs bubblewrap: {}", crate::containment::mechanism().describe());
    }
    let key = project.to_string_lossy().into_owned();
    let mut settings = Settings::default();
    let perms = ToolPermissions {
        allowed_tools: Some(vec!["bash".into()]),
        network: NetworkMode::Rules,
        permission_rules: rules,
        ..ToolPermissions::default()
    };
    settings.tool_permissions.insert(key.clone(), perms);
    engine.save_settings(settings).unwrap();
    key
}

/// A command that gives up while the user is asked about its host (curl's own timeout, 1 s, much
/// shorter than the question's): its block says so with the host, the model reads that it may run
/// the command again once the user answers, and "always" given after the command ended still
/// saves the project's rule.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_that_gives_up_while_asked_says_so_and_a_late_always_is_saved() {
    use crate::agent::RequestedCall;
    use warden_protocol::{ConfirmKind, Event, Remember};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (d, engine, key) = networked_bash_project();
    let mut spec = SessionSpec::new(d.project.clone());
    spec.trust = TrustLevel::Autonomous;
    let (runner, mut events) = engine.tool_runner(&spec).await.unwrap();
    let call = RequestedCall {
        id: "call-1".to_owned(),
        name: "bash".to_owned(),
        input: Ok(
            serde_json::json!({ "command": format!("curl -s -m 1 --noproxy '' http://127.0.0.1:{port}/ || echo GAVE-UP") }),
        ),
    };
    // The question is seen and left unanswered until the command has ended.
    let cancel = tokio_util::sync::CancellationToken::new();
    let outcome = runner.call("m-1", call, &cancel).await;
    let mut question = None;
    while let Ok(event) = events.try_recv() {
        if let Event::ToolConfirm(confirm) = event {
            question = Some(confirm);
        }
    }
    let question = question.unwrap_or_else(|| panic!("the window was not asked: {}", outcome.result.result));
    assert_eq!(question.kind, ConfirmKind::Network);
    let result = &outcome.result;
    assert!(result.result.contains("GAVE-UP"), "{}", result.result);
    assert!(result.result.contains("the command ended while the user was being asked"), "{}", result.result);
    let network = serde_json::to_value(&result.report.network).unwrap_or_default();
    let row = network.as_array().and_then(|rows| rows.iter().find(|r| r["port"] == port)).cloned();
    let row = row.unwrap_or_else(|| panic!("no row for the host on the block: {network}"));
    assert_eq!(row["allowed"], false);
    assert!(row["why"].as_str().unwrap_or("").contains("gave up while you were asked"), "{row}");

    let late = ToolApproval {
        confirm_id: question.confirm_id.clone(),
        approved: true,
        reason: None,
        remember: Some(Remember::Project),
        always: None,
    };
    assert!(runner.approve(late), "the question no longer waits for its answer");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let saved = loop {
        let rules = engine.settings().tool_permissions[&key].permission_rules.clone();
        if !rules.is_empty() || std::time::Instant::now() > deadline {
            break rules;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let patterns: Vec<&str> = saved.iter().filter_map(|r| r.pattern.as_deref()).collect();
    assert_eq!(patterns, [format!("127.0.0.1:{port}")]);
}

/// The whole engine path of a network question (`Engine::run_tool`, as `warden tool` and a session
/// build it): a project with the network, a host no rule names; the question reaches the face as a
/// confirmation of kind network, "Always for this project" lets the command through and leaves
/// the rule in the engine's settings, and the next run is not asked.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_network_question_reaches_the_face_and_always_is_saved_for_the_project() {
    use warden_protocol::{ConfirmKind, Remember};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let command = format!("curl -s -m 2 --noproxy '' http://127.0.0.1:{port}/; true");
    let (d, engine, key) = networked_bash_project();
    for run in 0..2 {
        let mut spec = SessionSpec::new(d.project.clone());
        spec.trust = TrustLevel::Autonomous;
        let asked = std::sync::Mutex::new(Vec::new());
        let input = serde_json::json!({ "command": command });
        let shot = engine
            .run_tool(
                spec,
                "bash",
                input,
                |_, _| {},
                |c| {
                    asked.lock().unwrap().push(c.clone());
                    async move { ToolApproval { remember: Some(Remember::Project), ..approve(c).await } }
                },
            )
            .await
            .unwrap();
        let asked = asked.into_inner().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(listener.accept().is_ok(), "run {run}: not reached: {}", shot.result.result);
        match run {
            0 => {
                let [question] = asked.as_slice() else { panic!("one question, not {asked:?}") };
                assert_eq!(question.kind, ConfirmKind::Network);
                let target = question.network.as_ref().map(|n| (n.host.as_str(), n.port));
                assert_eq!(target, Some(("127.0.0.1", port)));
            }
            _ => assert!(asked.is_empty(), "asked again after 'always': {asked:?}"),
        }
    }
    let rules = &engine.settings().tool_permissions[&key].permission_rules;
    let patterns: Vec<&str> = rules.iter().filter_map(|r| r.pattern.as_deref()).collect();
    assert_eq!(patterns, [format!("127.0.0.1:{port}")]);
}

/// An engine whose organisation's policy is `policy` (written as root writes it: root's file in
/// root's folder, which only the suite's user, root, can make).
fn managed_engine(d: &Dirs, policy: &str) -> (Engine, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    assert!(
        nix::unistd::geteuid().is_root(),
        "the organisation's policy must be root's: run the suite as root"
    );
    let folder = d.home.data_dir().with_file_name("etc-warden");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = folder.join("managed-settings.json");
    std::fs::write(&file, policy).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let home = d.home.clone().with_managed_file(&file);
    (Engine::new(home, Arc::new(MemoryStore::new())).unwrap(), file)
}

/// The organisation's rules reach every project's box with the user's and the project's, and its
/// deny wins over their allow; Settings lists them. A policy that cannot be used closes the
/// network to every host, and Settings says why.
#[test]
fn the_organisations_policy_reaches_every_box_and_its_deny_wins() {
    use warden_protocol::{PermissionRule, RuleEffect};
    let d = dirs();
    let (engine, file) = managed_engine(
        &d,
        r#"{"permissionRules": [{"effect": "deny", "tool": "network", "pattern": "*.pastebin.test"},
                                {"effect": "allow", "tool": "network", "pattern": "registry.corp.test:443"}]}"#,
    );
    let allow = |pattern: &str| PermissionRule {
        effect: RuleEffect::Allow,
        tool: "network".to_owned(),
        pattern: Some(pattern.to_owned()),
        origin: None,
    };
    let mut settings = Settings {
        project_dir: Some(d.project.to_string_lossy().into_owned()),
        permission_rules: vec![allow("paste.pastebin.test")],
        ..Settings::default()
    };
    let perms = ToolPermissions {
        network: NetworkMode::Rules,
        permission_rules: vec![allow("*.pastebin.test")],
        ..Default::default()
    };
    settings.tool_permissions.insert(d.project.to_string_lossy().into_owned(), perms);
    engine.save_settings(settings.clone()).unwrap();

    let rules = engine.commands_box(&d.project, &settings).network_rules;
    let refused = rules.addresses("paste.pastebin.test", 443);
    assert!(matches!(refused, Err(crate::containment::net::Refusal::Denied { .. })), "{refused:?}");
    let resolved = crate::containment::net::Rules {
        resolve: vec![("registry.corp.test".to_owned(), "10.1.2.3".parse().unwrap())],
        ..rules
    };
    assert!(resolved.addresses("registry.corp.test", 443).is_ok(), "the organisation's allow opens its host");
    let other = d.project.with_file_name("other");
    std::fs::create_dir_all(&other).unwrap();
    let elsewhere = engine.commands_box(&other, &settings).network_rules;
    assert!(matches!(
        elsewhere.addresses("x.pastebin.test", 443),
        Err(crate::containment::net::Refusal::Denied { .. })
    ));

    let status = engine.sandbox_status().managed;
    assert_eq!(status.file, file.display().to_string());
    assert_eq!(status.rules.len(), 2);
    assert_eq!(status.problem, None);

    std::fs::write(&file, "{ broken").unwrap();
    let closed = engine.commands_box(&d.project, &settings).network_rules;
    let refused = closed.addresses("127.0.0.1", 443);
    assert!(matches!(refused, Err(crate::containment::net::Refusal::Denied { .. })), "{refused:?}");
    let status = engine.sandbox_status().managed;
    assert!(status.problem.is_some_and(|p| p.contains("not JSON")));
}

/// In the real box: a host the project allowed is not reached once the organisation denies it,
/// and nobody is asked; the same command reaches it once the policy is gone (the control).
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_the_organisation_denies_is_not_reached_from_the_box_nor_asked_about() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let d = dirs();
    let (engine, file) = managed_engine(
        &d,
        r#"{"permissionRules": [{"effect": "deny", "tool": "network", "pattern": "127.0.0.1"}]}"#,
    );
    let allowed_by_the_project = warden_protocol::PermissionRule {
        effect: warden_protocol::RuleEffect::Allow,
        tool: "network".to_owned(),
        pattern: Some(format!("127.0.0.1:{port}")),
        origin: None,
    };
    networked_bash(&engine, &d.project, vec![allowed_by_the_project]);
    let command = format!("curl -s -m 2 --noproxy '' http://127.0.0.1:{port}/; true");
    for policy in ["denied", "gone"] {
        if policy == "gone" {
            std::fs::remove_file(&file).unwrap();
        }
        let mut spec = SessionSpec::new(d.project.clone());
        spec.trust = TrustLevel::Autonomous;
        let asked = std::sync::Mutex::new(Vec::new());
        let shot = engine
            .run_tool(
                spec,
                "bash",
                serde_json::json!({ "command": command }),
                |_, _| {},
                |c| {
                    asked.lock().unwrap().push(c.clone());
                    approve(c)
                },
            )
            .await
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        let reached = listener.accept().is_ok();
        let asked = asked.into_inner().unwrap();
        assert!(asked.is_empty(), "{policy}: asked {asked:?}");
        match policy {
            "denied" => {
                assert!(!reached, "the organisation's deny did not hold: {}", shot.result.result);
                let network = serde_json::to_value(&shot.result.report.network).ok();
                let network = network.unwrap_or_default().to_string();
                assert!(network.contains("a rule denies"), "the block does not say why: {network}");
            }
            _ => assert!(reached, "the control: not reached without the policy: {}", shot.result.result),
        }
    }
}

/// A failed command's block offers the home path the box left out; the user takes the offer
/// (`Engine::allow_read`), and the project's next command reads it. A path the window sends that
/// the box would not offer is refused and not saved: the engine checks again.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_home_path_offered_on_a_failed_command_is_readable_once_the_user_takes_the_offer() {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let key = networked_bash(&engine, &d.project, Vec::new());
    let home = dirs::home_dir().unwrap();
    let outside = tempfile::Builder::new().prefix("warden-offer-test").tempdir_in(&home).unwrap();
    let notes = std::fs::canonicalize(outside.path()).unwrap().join("notes.txt");
    std::fs::write(&notes, "NOTES-FROM-HOME").unwrap();
    async fn cat(engine: &Engine, project: &Path, file: &Path) -> warden_protocol::ToolResult {
        let mut spec = SessionSpec::new(project.to_path_buf());
        spec.trust = TrustLevel::Autonomous;
        let input = serde_json::json!({ "command": format!("cat {}", file.display()) });
        engine.run_tool(spec, "bash", input, |_, _| {}, approve).await.unwrap().result
    }

    let before = cat(&engine, &d.project, &notes).await;
    assert!(!before.result.contains("NOTES-FROM-HOME"), "the box showed it: {}", before.result);
    assert_eq!(before.report.readable_offers, [notes.display().to_string()], "{}", before.result);

    for refused in ["/etc/passwd", &format!("{}/../etc", home.display())] {
        let why = engine.allow_read(&d.project, refused).unwrap_err();
        assert!(why.contains("cannot be let read"), "{refused}: {why}");
    }
    assert!(engine.settings().tool_permissions[&key].extra_readable.is_empty(), "a refused path was saved");

    engine.allow_read(&d.project, &notes.display().to_string()).unwrap();
    assert_eq!(engine.settings().tool_permissions[&key].extra_readable, [notes.display().to_string()]);
    let after = cat(&engine, &d.project, &notes).await;
    assert!(after.result.contains("NOTES-FROM-HOME"), "not readable after the offer: {}", after.result);
}

/// A repository a boxed command made, with a hook: the hook is moved aside when the command ends
/// and the block is told where it was and its name aside (`gitAside`); the user puts it back
/// (`Engine::restore_git_aside`) and it is there again, as written. A path outside the project is
/// refused.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hook_a_boxed_command_wrote_is_moved_aside_and_put_back_when_the_user_asks() {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    networked_bash(&engine, &d.project, Vec::new());
    let mut spec = SessionSpec::new(d.project.clone());
    spec.trust = TrustLevel::Autonomous;
    let command = "git init -q sub && printf '#!/bin/sh\\necho HOOKED\\n' > sub/.git/hooks/pre-commit";
    let shot =
        engine.run_tool(spec, "bash", serde_json::json!({ "command": command }), |_, _| {}, approve).await;
    let result = shot.unwrap().result;
    let hook = d.project.join("sub/.git/hooks/pre-commit");
    assert!(!hook.exists(), "the hook stayed: {}", result.result);
    let kept = serde_json::to_value(&result.report.git_aside).unwrap_or_default();
    let entry =
        kept.as_array().and_then(|list| list.iter().find(|e| e["from"] == hook.display().to_string()));
    let entry = entry.unwrap_or_else(|| panic!("the block is not told: {kept}"));
    let aside = entry["aside"].as_str().unwrap_or_default();
    assert!(entry["danger"].as_str().is_some_and(|d| d.contains("git hook")), "{entry}");

    let outside = d.project.with_file_name("elsewhere").join("pre-commit");
    let refused = engine.restore_git_aside(&d.project, &outside.display().to_string(), aside);
    assert!(refused.is_err_and(|e| e.contains("is not in the project")));
    engine.restore_git_aside(&d.project, &hook.display().to_string(), aside).unwrap();
    assert!(std::fs::read_to_string(&hook).unwrap().contains("HOOKED"));
}

/// Answers every question about a host a local MCP server's box wants with "always", counting them.
#[cfg(target_os = "linux")]
#[derive(Default)]
struct AlwaysForHosts(std::sync::atomic::AtomicUsize);

#[cfg(target_os = "linux")]
#[async_trait::async_trait]
impl crate::mcp::Elicitor for AlwaysForHosts {
    async fn elicit(&self, _: &str, _: &str, _: &serde_json::Value) -> crate::mcp::Elicitation {
        crate::mcp::Elicitation::Decline
    }

    async fn allow_host(
        &self,
        _: &str,
        _: &warden_protocol::NetworkRequest,
    ) -> crate::containment::net::Answer {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        crate::containment::net::Answer::Always
    }
}

/// "Always" about a host a local MCP server's box wants is a rule of the project's in the engine's
/// settings: the server started again reaches the host without a question.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn always_for_a_servers_host_is_the_projects_rule_and_its_next_start_is_not_asked() {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let reached = Arc::new(AtomicUsize::new(0));
    let counting = Arc::clone(&reached);
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.read(&mut [0u8; 1024]);
            let _ = stream.write_all(b"HTTP/1.0 204 No Content\r\n\r\n");
            counting.fetch_add(1, Ordering::SeqCst);
        }
    });
    let (d, engine, key) = networked_bash_project();
    let everything = std::fs::canonicalize(warden_testkit::mcp::server_bin("mcp-server-everything")).unwrap();
    let launcher = d.project.join("fetch-then-serve.sh");
    let script = format!(
        "#!/bin/sh\ncurl -s -m 20 --noproxy '' http://127.0.0.1:{port}/ >/dev/null\nexec {} stdio\n",
        everything.display()
    );
    std::fs::write(&launcher, script).unwrap();
    std::fs::set_permissions(&launcher, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut settings = engine.settings();
    let server = warden_protocol::McpServerConfig {
        command: Some(launcher.to_string_lossy().into_owned()),
        ..Default::default()
    };
    settings.mcp_servers.insert("fetcher".to_owned(), server);
    engine.save_settings(settings).unwrap();
    let answers = Arc::new(AlwaysForHosts::default());
    engine.set_mcp_elicitor(answers.clone());

    for start in 0..2 {
        let statuses = engine.mcp_statuses(&d.project, &Default::default()).await.unwrap();
        assert!(
            matches!(statuses[0].state, warden_protocol::McpServerState::Connected),
            "start {start}: {:?}",
            statuses[0].state
        );
        assert_eq!(
            reached.load(Ordering::SeqCst),
            start + 1,
            "start {start}: the server did not reach the host"
        );
        assert_eq!(answers.0.load(Ordering::SeqCst), 1, "start {start}: asked once in all");
        engine.stop_project_mcp(&d.project).await;
    }
    let rules = &engine.settings().tool_permissions[&key].permission_rules;
    let patterns: Vec<&str> = rules.iter().filter_map(|r| r.pattern.as_deref()).collect();
    assert_eq!(patterns, [format!("127.0.0.1:{port}")]);
}

/// The organisation pins hosts and MCP servers, and its rules and switches reach every call:
/// a host outside `allowedDomains` is refused even where a rule allows it, only the listed MCP
/// servers start, its command deny refuses a call whatever the user allows, `allowManagedRulesOnly`
/// makes the user's allow count for nothing, and `disableAutonomous` turns Autonomous into Guided.
#[test]
fn the_organisations_pins_rules_and_switches_hold_over_the_users() {
    use warden_protocol::{McpServerConfig, PermissionRule, RuleEffect};
    let d = dirs();
    let (engine, _file) = managed_engine(
        &d,
        r#"{"allowedDomains": ["*.corp.test"], "allowedMcpServers": ["approved"],
            "permissionRules": [{"effect": "deny", "tool": "bash", "pattern": "git push *"}],
            "allowManagedRulesOnly": true, "disableAutonomous": true}"#,
    );
    let allow =
        |tool: &str, pattern: &str| PermissionRule::new(RuleEffect::Allow, tool, Some(pattern.to_owned()));
    let stdio = |name: &str| McpServerConfig { command: Some(name.to_owned()), ..McpServerConfig::default() };
    let settings = Settings {
        project_dir: Some(d.project.to_string_lossy().into_owned()),
        permission_rules: vec![
            allow("network", "example.test"),
            allow("bash", "git *"),
            allow("bash", "ls *"),
        ],
        mcp_servers: [("approved".to_owned(), stdio("a")), ("other".to_owned(), stdio("b"))].into(),
        trust_level: TrustLevel::Autonomous,
        ..Settings::default()
    };
    engine.save_settings(settings.clone()).unwrap();
    let rules = engine.commands_box(&d.project, &settings).network_rules;
    let pinned = crate::containment::net::Rules {
        resolve: vec![("example.test".to_owned(), "93.184.216.34".parse().unwrap())],
        ..rules
    };
    let refused = pinned.addresses("example.test", 443);
    assert!(matches!(refused, Err(crate::containment::net::Refusal::NotPinned { .. })), "{refused:?}");
    let servers: Vec<String> =
        engine.mcp_servers(&d.project, &settings, &Default::default()).into_keys().collect();
    assert_eq!(servers, ["approved"]);
    let check = |command: &str| {
        engine.check_call(&d.project, "bash", &serde_json::json!({ "command": command })).unwrap()
    };
    let push = check("git push origin main");
    assert_eq!(push.decision, RuleEffect::Deny, "{push:?}");
    assert_eq!(push.rule.as_deref(), Some("deny bash: git push * (managed)"));
    // The user's `ls *` counts for nothing, and Autonomous is Guided: it asks.
    let ls = check("ls -la");
    assert_eq!(ls.decision, RuleEffect::Ask, "{ls:?}");
    assert_eq!(engine.trust_allowed(TrustLevel::Autonomous), TrustLevel::Guided);
    let status = engine.sandbox_status().managed;
    assert_eq!(status.allowed_domains, Some(vec!["*.corp.test".to_owned()]));
    assert!(status.managed_rules_only && status.no_autonomous);
}

/// The user's own skill folders are read-only in the box (a skill's script runs as the model's
/// command), while the rest of Warden's folders stay hidden.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_users_skills_are_readable_in_the_box_and_nothing_else_of_wardens() {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    networked_bash(&engine, &d.project, Vec::new());
    let skill = d.home.config_dir().join("skills/notes/SKILL.md");
    std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
    std::fs::write(&skill, "---\ndescription: Notes.\n---\nSKILL-BODY").unwrap();
    let run = |command: String| {
        let mut spec = SessionSpec::new(d.project.clone());
        spec.trust = TrustLevel::Autonomous;
        let input = serde_json::json!({ "command": command });
        let engine = &engine;
        async move { engine.run_tool(spec, "bash", input, |_, _| {}, approve).await.unwrap().result }
    };
    let read = run(format!("cat '{}'", skill.display())).await;
    assert!(read.result.contains("SKILL-BODY"), "{}", read.result);
    let written = run(format!("echo x >> '{}'", skill.display())).await;
    assert!(!written.result.is_empty() && written.code.is_some(), "{written:?}");
    let settings = d.home.settings_path();
    assert!(settings.is_file());
    let hidden = run(format!("cat '{}'", settings.display())).await;
    assert!(!hidden.result.contains("trustLevel"), "{}", hidden.result);
}
