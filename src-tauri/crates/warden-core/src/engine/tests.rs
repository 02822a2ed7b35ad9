//! The engine as `warden tool` and the window use it: settings integrity and the project folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use warden_protocol::{Settings, ToolApproval, ToolConfirm, ToolPermissions, TrustLevel};

use super::{Engine, SessionSpec, SetupError};
use crate::config::{Integrity, WardenHome};
use crate::secrets::{MemoryStore, SecretStore};

pub(super) struct Dirs {
    _root: tempfile::TempDir,
    pub(super) home: WardenHome,
    pub(super) project: PathBuf,
}

pub(super) fn dirs() -> Dirs {
    let root = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(root.path()).unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    Dirs { home: WardenHome::at(root.path().join("home")), project, _root: root }
}

fn writes_allowed(project: &Path) -> Settings {
    let mut settings = Settings::default();
    settings.tool_permissions.insert(
        project.to_string_lossy().into_owned(),
        ToolPermissions { allowed_tools: Some(vec!["file_write".into()]), ..ToolPermissions::default() },
    );
    settings
}

pub(super) async fn approve(_: ToolConfirm) -> ToolApproval {
    ToolApproval { confirm_id: String::new(), approved: true, reason: None, remember: None, always: None }
}

/// `file_write` as `warden tool` runs it: scope from the settings, no approval asked.
async fn file_write(engine: &Engine, project: &Path) -> Option<String> {
    let mut spec = SessionSpec::new(project.to_path_buf());
    spec.trust = TrustLevel::Autonomous;
    let input = serde_json::json!({"path": "out.txt", "content": "x"});
    let shot = engine.run_tool(spec, "file_write", input, |_, _| {}, approve).await.unwrap();
    shot.result.code.map(|code| code.as_str().to_owned())
}

/// Review #9, finding 9: a command rewrote `settings.json` and a later `file_write` went from
/// PERMISSION_DENIED to success. Now the rewritten file is not trusted until the user accepts it.
#[tokio::test]
async fn settings_rewritten_by_a_command_do_not_widen_the_scope() {
    let d = dirs();
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    let engine = Engine::new(d.home.clone(), store.clone()).unwrap();
    engine.save_settings(Settings::default()).unwrap();
    assert_eq!(file_write(&engine, &d.project).await.as_deref(), Some("PERMISSION_DENIED"));

    // What `bash` did: a plain write of the file.
    let forged = serde_json::to_vec_pretty(&writes_allowed(&d.project)).unwrap();
    std::fs::write(d.home.settings_path(), forged).unwrap();
    let later = Engine::new(d.home.clone(), store.clone()).unwrap();
    assert_eq!(later.settings_integrity(), Integrity::Untrusted);
    assert_eq!(file_write(&later, &d.project).await.as_deref(), Some("PERMISSION_DENIED"));

    // The user looked at it and accepts it: now it applies, and stays trusted.
    later.accept_settings_file().unwrap();
    assert_eq!(file_write(&later, &d.project).await, None);
    assert_eq!(Engine::new(d.home.clone(), store).unwrap().settings_integrity(), Integrity::Trusted);
}

#[tokio::test]
async fn settings_warden_saved_stay_trusted() {
    let d = dirs();
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    let engine = Engine::new(d.home.clone(), store.clone()).unwrap();
    engine.save_settings(writes_allowed(&d.project)).unwrap();
    let later = Engine::new(d.home.clone(), store).unwrap();
    assert_eq!(later.settings_integrity(), Integrity::Trusted);
    assert_eq!(later.settings(), writes_allowed(&d.project));
    assert_eq!(file_write(&later, &d.project).await, None);
}

#[tokio::test]
async fn a_home_inside_the_project_is_refused() {
    let d = dirs();
    let home = WardenHome::at(d.project.join(".warden"));
    let engine = Engine::new(home, Arc::new(MemoryStore::new())).unwrap();
    let spec = SessionSpec::new(d.project.clone());
    let input = serde_json::json!({"path": "a"});
    let error = engine.run_tool(spec, "file_read", input, |_, _| {}, approve).await.unwrap_err();
    assert!(matches!(error, SetupError::HomeInProject { .. }), "{error}");
    assert!(error.is_usage());
}

/// The project's sandbox choices reach its commands: with the network allowed in Settings (and a
/// rule naming this machine's listener, which the proxy otherwise refuses), a command reaches it
/// through the proxy unasked in Autonomous; without, it cannot.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_projects_network_choice_reaches_its_commands() {
    if !crate::containment::mechanism().is_contained() {
        panic!("no OS sandbox here: {}", crate::containment::mechanism().describe());
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    // `--noproxy ''`: through the proxy although the box's NO_PROXY names its own loopback.
    let command = format!("curl -s -m 2 --noproxy '' http://127.0.0.1:{port}/; true");
    for network in [false, true] {
        let d = dirs();
        let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
        let mut settings = Settings::default();
        settings.tool_permissions.insert(
            d.project.to_string_lossy().into_owned(),
            ToolPermissions {
                allowed_tools: Some(vec!["bash".into()]),
                network: warden_protocol::NetworkMode::from_on(network),
                permission_rules: vec![warden_protocol::PermissionRule {
                    effect: warden_protocol::RuleEffect::Allow,
                    tool: "network".into(),
                    pattern: Some(format!("127.0.0.1:{port}")),
                    origin: None,
                }],
                ..ToolPermissions::default()
            },
        );
        engine.save_settings(settings).unwrap();
        let mut spec = SessionSpec::new(d.project.clone());
        spec.trust = TrustLevel::Autonomous;
        let input = serde_json::json!({ "command": command });
        let asked = std::sync::atomic::AtomicBool::new(false);
        let shot = engine
            .run_tool(
                spec,
                "bash",
                input,
                |_, _| {},
                |c| {
                    asked.store(true, std::sync::atomic::Ordering::SeqCst);
                    approve(c)
                },
            )
            .await
            .unwrap();
        assert!(!asked.into_inner(), "network={network}: asked");
        std::thread::sleep(std::time::Duration::from_millis(50));
        let reached = listener.accept().is_ok();
        assert_eq!(reached, network, "network={network}: {}", shot.result.result);
        let summary = shot.result.report.sandbox.as_ref().and_then(|s| s.summary.clone()).unwrap_or_default();
        assert_eq!(summary.starts_with("network"), network, "{summary}");
    }
}

/// The engine's one answer to "can this provider answer now": a key where it needs one, a
/// server address for an OpenAI-compatible server, an Ollama that answers.
#[tokio::test]
async fn provider_readiness_says_what_is_missing() {
    use warden_protocol::{KeyName, ProviderId, ProviderSettings};
    use warden_testkit::server::{Reply, TestServer};
    let d = dirs();
    let store = Arc::new(MemoryStore::new());
    let engine = Engine::new(d.home.clone(), store.clone()).unwrap();

    let compatible = engine.provider_readiness(ProviderId::OpenaiCompatible).await;
    assert!(!compatible.ready);
    assert!(compatible.reason.unwrap_or_default().contains("server's address"));

    // Nothing listens on a port just freed: Ollama is not ready, and says so in bounded time.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut settings = Settings::default();
    let at = |url: String| ProviderSettings { base_url: Some(url), ..ProviderSettings::default() };
    settings.providers.insert(ProviderId::Ollama, at(format!("http://127.0.0.1:{free}")));
    settings.providers.insert(ProviderId::OpenaiCompatible, at("http://127.0.0.1:9/v1".into()));
    engine.save_settings(settings.clone()).unwrap();
    let started = std::time::Instant::now();
    let ollama = engine.provider_readiness(ProviderId::Ollama).await;
    assert!(!ollama.ready && ollama.reason.unwrap_or_default().contains("Ollama did not answer"));
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    // A keyless local server with an address is ready (it is asked when a conversation starts).
    assert!(engine.provider_readiness(ProviderId::OpenaiCompatible).await.ready);

    let server = TestServer::start(vec![Reply::json(br#"{"models":[]}"#.to_vec())]).await;
    settings.providers.insert(ProviderId::Ollama, at(server.url.clone()));
    engine.save_settings(settings).unwrap();
    let ollama = engine.provider_readiness(ProviderId::Ollama).await;
    assert_eq!((ollama.ready, ollama.reason), (true, None));

    store.set(KeyName::Anthropic, "sk-ant-test").await.unwrap();
    assert!(engine.provider_readiness(ProviderId::Anthropic).await.ready);
}

/// Settings → "Checkpoints before every change": on (the default), a write carries what it
/// changed and the checkpoint before it, and the window's store lists it; off, neither.
#[tokio::test]
async fn the_projects_checkpoints_setting_turns_checkpoints_on_and_off() {
    for on in [true, false] {
        let d = dirs();
        let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
        let mut settings = writes_allowed(&d.project);
        if let Some(perms) = settings.tool_permissions.get_mut(&d.project.to_string_lossy().into_owned()) {
            perms.checkpoints = on;
        }
        settings.project_dir = Some(d.project.to_string_lossy().into_owned());
        engine.save_settings(settings).unwrap();
        let mut spec = SessionSpec::new(d.project.clone());
        spec.trust = TrustLevel::Autonomous;
        let input = serde_json::json!({"path": "out.txt", "content": "x"});
        let shot = engine.run_tool(spec, "file_write", input, |_, _| {}, approve).await.unwrap();
        assert_eq!(shot.result.code, None, "{}", shot.result.result);
        let changes = shot.result.report.changes.as_ref().and_then(|c| serde_json::to_value(c).ok());
        let listed = engine.open_checkpoints().unwrap().list(None).unwrap();
        if on {
            let changes = changes.unwrap();
            assert_eq!(changes["files"][0]["path"], "out.txt", "{changes}");
            assert_eq!(changes["checkpointId"].as_str(), Some(listed[0].id.as_str()));
        } else {
            assert_eq!(changes, None);
            assert!(listed.is_empty(), "{listed:?}");
        }
    }
}

/// Every session of a project shares one checkpoint store (one watcher, one first look at every
/// file), and the window's commands use it too; it closes when nothing holds it.
#[tokio::test]
async fn the_sessions_of_a_project_share_one_checkpoint_store() {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let mut settings = writes_allowed(&d.project);
    settings.project_dir = Some(d.project.to_string_lossy().into_owned());
    engine.save_settings(settings).unwrap();
    let spec = SessionSpec::new(d.project.clone());
    let (first, _events) = engine.tool_runner(&spec).await.unwrap();
    let (second, _events) = engine.tool_runner(&spec).await.unwrap();
    let (a, b) = (first.checkpoints().unwrap().clone(), second.checkpoints().unwrap().clone());
    assert!(Arc::ptr_eq(&a, &b), "two sessions, one store");
    assert!(Arc::ptr_eq(&a, &engine.open_checkpoints().unwrap()), "the window's commands use it too");
    let weak = Arc::downgrade(&a);
    drop((first, second, a, b));
    assert!(weak.upgrade().is_none(), "closed once nothing holds it");
}

/// A project with no permissions of its own: the window's sessions get every built-in tool and the
/// trust level decides what asks (Guided asks before a write instead of refusing it), while
/// `warden exec` and `warden tool` keep the read-only set.
#[tokio::test]
async fn a_new_project_gives_the_window_every_built_in_tool_and_the_cli_the_read_only_set() {
    use crate::policy::{self, Containment, Decision, Grants};

    let d = dirs();
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    store.set(warden_protocol::KeyName::Anthropic, "sk-ant-test").await.unwrap();
    let engine = Engine::new(d.home.clone(), store).unwrap();
    let settings = Settings {
        project_dir: Some(d.project.to_string_lossy().into_owned()),
        trust_level: TrustLevel::Guided,
        ..Settings::default()
    };
    engine.save_settings(settings).unwrap();

    let (window, _events) = engine.start_session("c-window".to_owned()).await.unwrap();
    let scope = &window.config().scope;
    for name in super::tool_names() {
        assert!(scope.allows(&name), "{name} is not in the window's default scope");
    }
    let registry = crate::tool::ToolRegistry::with_core_tools(crate::tool::ToolsConfig::default());
    let write = registry.definitions(scope).into_iter().find(|t| t.name == "file_write").unwrap();
    let input = serde_json::json!({"path": "a.txt", "content": "x"});
    let needs = registry.get("file_write").unwrap().needs(&input);
    let decision = policy::decide_with(
        TrustLevel::Guided,
        &write,
        scope,
        &needs,
        &Grants::default(),
        Containment::NONE,
        &Default::default(),
    );
    assert!(matches!(decision, Decision::Ask(_)), "{decision:?}");

    let (cli, _events) = engine.tool_runner(&SessionSpec::new(d.project.clone())).await.unwrap();
    let shot = engine
        .run_tool(SessionSpec::new(d.project.clone()), "file_write", input, |_, _| {}, approve)
        .await
        .unwrap();
    assert_eq!(shot.result.code.map(|c| c.as_str().to_owned()).as_deref(), Some("PERMISSION_DENIED"));
    drop(cli);
}

/// An approval timeout of 0, in the settings or given to `warden exec`, is no time limit; a spec's
/// value wins over the settings'.
#[test]
fn an_approval_timeout_of_zero_is_no_time_limit() {
    use std::time::Duration;

    use super::sessions::approval_timeout;

    let d = dirs();
    let mut spec = SessionSpec::new(d.project.clone());
    let mut settings = Settings { approval_timeout_secs: 0, ..Settings::default() };
    assert_eq!(approval_timeout(&spec, &settings), None);
    settings.approval_timeout_secs = 45;
    assert_eq!(approval_timeout(&spec, &settings), Some(Duration::from_secs(45)));
    spec.approval_timeout_secs = Some(0);
    assert_eq!(approval_timeout(&spec, &settings), None);
}

/// A session whose tools cannot change the project (`warden exec`'s read-only default) opens no
/// checkpoint store and takes no snapshot; one that may run commands does, and so does one with MCP
/// servers, whose tools may come later.
#[tokio::test]
async fn only_a_session_that_can_change_files_is_checkpointed() {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let (read_only, _events) = engine.tool_runner(&SessionSpec::new(d.project.clone())).await.unwrap();
    assert!(read_only.checkpoints().is_none(), "the read-only set has nothing to undo");

    let mut spec = SessionSpec::new(d.project.clone());
    spec.default_scope = crate::scope::Scope::only(["file_read".to_owned(), "bash".to_owned()]);
    let (commands, _events) = engine.tool_runner(&spec).await.unwrap();
    assert!(commands.checkpoints().is_some(), "commands can change files: checkpointed");

    // MCP servers may offer a tool later even when they offer none now (this one does not start).
    let mut spec = SessionSpec::new(d.project.clone());
    let server = warden_protocol::McpServerConfig {
        command: Some(d.project.join("no-such-server").to_string_lossy().into_owned()),
        ..Default::default()
    };
    spec.mcp_servers.insert("later".to_owned(), server);
    let (with_servers, _events) = engine.tool_runner(&spec).await.unwrap();
    assert!(with_servers.definitions().iter().all(|d| !d.name.starts_with("mcp__")), "no MCP tool yet");
    assert!(with_servers.checkpoints().is_some(), "an MCP server's later tools are checkpointed too");
    engine.close_mcp_servers().await;
}

/// With no project folder chosen, a window conversation works in an empty folder of its own (not
/// the home folder) with no tool that reads or changes files or runs commands, and the model is told.
#[tokio::test]
async fn without_a_project_folder_the_window_has_no_file_or_command_tools() {
    let d = dirs();
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    store.set(warden_protocol::KeyName::Anthropic, "sk-ant-test").await.unwrap();
    let engine = Engine::new(d.home.clone(), store).unwrap();
    engine.save_settings(Settings { project_dir: None, ..Settings::default() }).unwrap();

    let (session, _events) = engine.start_session("c-none".to_owned()).await.unwrap();
    let config = session.config();
    let registry = crate::tool::ToolRegistry::with_core_tools(crate::tool::ToolsConfig::default());
    let offered = registry.definitions(&config.scope);
    assert!(offered.iter().any(|t| t.name == "web_search"), "web search stays: {offered:?}");
    for tool in &offered {
        assert!(
            matches!(
                tool.category,
                warden_protocol::ToolCategory::Web | warden_protocol::ToolCategory::System
            ),
            "{} is offered without a project folder",
            tool.name
        );
    }
    let root = config.project_root.clone().unwrap();
    assert_ne!(Some(root.clone()), dirs::home_dir(), "never the home folder");
    assert_eq!(std::fs::read_dir(&root).unwrap().count(), 0, "an empty folder of its own");
    assert!(config.system_prompt.as_deref().unwrap().contains("not chosen a project folder"));

    // Once a folder is chosen, a new conversation works there with the window's tools.
    engine
        .save_settings(Settings {
            project_dir: Some(d.project.to_string_lossy().into_owned()),
            ..Settings::default()
        })
        .unwrap();
    let (chosen, _events) = engine.start_session("c-chosen".to_owned()).await.unwrap();
    assert!(chosen.config().scope.allows("file_write"));
    assert_eq!(
        chosen.config().project_root.as_deref(),
        Some(std::fs::canonicalize(&d.project).unwrap().as_path())
    );
}

#[tokio::test]
async fn the_compaction_setting_sets_when_a_session_compacts_held_to_50_to_95_percent() {
    let d = dirs();
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    store.set(warden_protocol::KeyName::Anthropic, "sk-ant-test").await.unwrap();
    let engine = Engine::new(d.home.clone(), store).unwrap();
    for (percent, threshold) in [(70, 0.70), (85, 0.85), (10, 0.50), (100, 0.95)] {
        let settings = Settings {
            project_dir: Some(d.project.to_string_lossy().into_owned()),
            compact_at_percent: percent,
            ..Settings::default()
        };
        engine.save_settings(settings).unwrap();
        let (session, _events) = engine.start_session(format!("c-{percent}")).await.unwrap();
        assert!((session.config().budget_threshold - threshold).abs() < 1e-6, "{percent} %");
    }
    assert_eq!(Settings::default().compact_at_percent, 85);
}

/// A settings file Warden did not write (a command rewrote it), saved where Warden keeps its own.
fn forge_settings(home: &WardenHome, settings: &Settings) {
    let path = home.settings_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(settings).unwrap()).unwrap();
}

/// Issue 31, item 12: a settings file Warden did not write does not send the agent's web searches
/// to the server it names (`config::restricted` resets `searxngUrl`); accepted by the user, it does.
#[tokio::test]
async fn settings_warden_did_not_write_do_not_redirect_web_search() {
    use warden_testkit::server::{Reply, TestServer};
    let d = dirs();
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    let results = warden_testkit::fixture("searxng/search_format_json.json");
    let search = TestServer::start(vec![Reply::json(results.clone()), Reply::json(results)]).await;
    forge_settings(&d.home, &Settings { searxng_url: search.url.clone(), ..Settings::default() });
    let engine = Engine::new(d.home.clone(), store).unwrap();
    assert_eq!(engine.settings_integrity(), Integrity::Untrusted);
    assert_eq!(engine.settings().searxng_url, Settings::default().searxng_url);

    let web_search = || async {
        let mut spec = SessionSpec::new(d.project.clone());
        spec.trust = TrustLevel::Autonomous;
        let input = serde_json::json!({"query": "warden"});
        engine.run_tool(spec, "web_search", input, |_, _| {}, approve).await.unwrap()
    };
    web_search().await;
    assert!(search.requests().is_empty(), "a planted file sent a web search to {}", search.url);

    engine.accept_settings_file().unwrap();
    let shot = web_search().await;
    assert_eq!(shot.result.code, None, "{}", shot.result.result);
    assert_eq!(search.requests().len(), 1, "the accepted file's search server is used");
}

/// Issue 31, item 12: a settings file Warden did not write does not approve a project's own
/// `.mcp.json` (`config::restricted` resets `projectMcp`): its servers stay unstarted until the
/// user approves the file, or accepts the settings file.
#[test]
fn settings_warden_did_not_write_approve_no_projects_mcp_file() {
    let d = dirs();
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    std::fs::write(d.project.join(".mcp.json"), r#"{"mcpServers": {"tools": {"command": "/bin/true"}}}"#)
        .unwrap();
    let engine = Engine::new(d.home.clone(), store.clone()).unwrap();
    let offer = engine.project_mcp_offer(&d.project).unwrap().unwrap();
    assert_eq!(offer.approved, None, "not approved yet");

    let mut forged = Settings::default();
    forged.project_mcp.insert(
        d.project.to_string_lossy().into_owned(),
        warden_protocol::ProjectMcpChoice { digest: offer.digest.clone(), approved: true },
    );
    forge_settings(&d.home, &forged);
    let later = Engine::new(d.home.clone(), store).unwrap();
    assert_eq!(later.settings_integrity(), Integrity::Untrusted);
    assert_eq!(
        later.project_mcp_offer(&d.project).unwrap().unwrap().approved,
        None,
        "a planted file approved it"
    );
    assert!(later.approved_project_servers(&d.project).is_empty());

    later.accept_settings_file().unwrap();
    assert_eq!(later.project_mcp_offer(&d.project).unwrap().unwrap().approved, Some(true));
    assert_eq!(later.approved_project_servers(&d.project).keys().collect::<Vec<_>>(), ["tools"]);
}

/// Settings → Sandbox shows the box the project's sessions and `warden tool` get
/// (`Engine::commands_box`, one reading of the settings): with the folders the user let the
/// project's commands write and read besides it.
#[test]
fn the_sandbox_status_shows_the_box_the_projects_sessions_get() {
    let d = dirs();
    let extra = d.project.with_file_name("extra");
    let data = d.project.with_file_name("data");
    for dir in [&extra, &data] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let data = std::fs::canonicalize(&data).unwrap();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let mut settings =
        Settings { project_dir: Some(d.project.to_string_lossy().into_owned()), ..Settings::default() };
    settings.tool_permissions.insert(
        d.project.to_string_lossy().into_owned(),
        ToolPermissions {
            extra_writable: vec![extra.to_string_lossy().into_owned()],
            extra_readable: vec![data.to_string_lossy().into_owned()],
            ..ToolPermissions::default()
        },
    );
    engine.save_settings(settings.clone()).unwrap();
    let status = engine.sandbox_status();
    assert!(status.writable.contains(&extra.display().to_string()), "{status:?}");
    assert!(status.readable.contains(&data.display().to_string()), "{status:?}");
    let commands_box = engine.commands_box(&d.project, &settings);
    assert!(commands_box.writable.contains(&extra));
    assert!(commands_box.readable.contains(&data));
}

/// Settings → Sandbox shows how much the project's cache layer holds, and Clear removes it; the
/// layer is in Warden's storage for the project, where the project's boxes write it.
#[test]
fn the_projects_cache_layer_is_measured_and_cleared() {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let settings =
        Settings { project_dir: Some(d.project.to_string_lossy().into_owned()), ..Settings::default() };
    engine.save_settings(settings.clone()).unwrap();
    let project = std::fs::canonicalize(&d.project).unwrap();
    let layer = engine.commands_box(&project, &settings).cache_layer.expect("a layer");
    assert!(layer.starts_with(d.home.project_dir(&project)), "{}", layer.display());
    assert_eq!(engine.sandbox_status().cache_layer_bytes, 0);
    let file = layer.join("npm/upper/_cacache/x");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "12345").unwrap();
    assert_eq!(engine.sandbox_status().cache_layer_bytes, 5);
    engine.clear_cache_layer().unwrap();
    assert!(!layer.exists());
    assert_eq!(engine.sandbox_status().cache_layer_bytes, 0);
}

/// A session's start applies the checkpoints' retention to the project's cache layer too: a
/// cache's layer no box wrote to for longer goes, one written to today stays.
#[tokio::test]
async fn a_session_start_removes_a_cache_layer_unused_for_the_retention() {
    let d = dirs();
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    store.set(warden_protocol::KeyName::Anthropic, "sk-ant-test").await.unwrap();
    let engine = Engine::new(d.home.clone(), store).unwrap();
    let settings =
        Settings { project_dir: Some(d.project.to_string_lossy().into_owned()), ..Settings::default() };
    engine.save_settings(settings.clone()).unwrap();
    let project = std::fs::canonicalize(&d.project).unwrap();
    let layer = engine.commands_box(&project, &settings).cache_layer.expect("a layer");
    let (old, new) = (layer.join("npm/upper/_cacache/x"), layer.join("cache-pip/upper/http/y"));
    for file in [&old, &new] {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, "x").unwrap();
    }
    let days = std::time::Duration::from_secs(24 * 3600) * (crate::checkpoint::RETENTION_DAYS as u32 + 1);
    let mut folders: Vec<_> = old.ancestors().take_while(|p| p.starts_with(layer.join("npm"))).collect();
    folders.sort_by_key(|p| std::cmp::Reverse(p.components().count()));
    for path in folders {
        std::fs::File::open(path).unwrap().set_modified(std::time::SystemTime::now() - days).unwrap();
    }
    let (_session, _events) = engine.start_session("c-layer".to_owned()).await.unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while layer.join("npm").exists() && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(!layer.join("npm").exists(), "the unused layer is still there");
    assert!(new.is_file(), "the layer written to today went too");
}

#[test]
fn the_users_and_the_projects_network_rules_reach_the_projects_box_and_no_other() {
    use warden_protocol::{PermissionRule, RuleEffect};
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let rule = |effect, pattern: &str| PermissionRule {
        effect,
        tool: "network".to_owned(),
        pattern: Some(pattern.to_owned()),
        origin: None,
    };
    let mut settings =
        Settings { permission_rules: vec![rule(RuleEffect::Allow, "crates.io")], ..Settings::default() };
    settings.tool_permissions.insert(
        d.project.to_string_lossy().into_owned(),
        ToolPermissions {
            permission_rules: vec![
                rule(RuleEffect::Allow, "db.internal:5432"),
                rule(RuleEffect::Deny, "*.evil.test"),
            ],
            ..ToolPermissions::default()
        },
    );
    let parse = |p: &str| crate::containment::net::HostRule::parse(p).unwrap();
    let rules = engine.commands_box(&d.project, &settings).network_rules;
    assert_eq!(rules.allow, [parse("crates.io"), parse("db.internal:5432")]);
    assert_eq!(rules.deny, [parse("*.evil.test")]);
    let other = d.project.with_file_name("other");
    std::fs::create_dir_all(&other).unwrap();
    let elsewhere = engine.commands_box(&other, &settings).network_rules;
    assert_eq!(elsewhere.allow, [parse("crates.io")], "another project gets the user's rules only");
}

/// A project's network is `rules` unless its entry says otherwise: the proxy, every host no rule
/// names asked about. An entry written before the setting had a name keeps what it had (`false`
/// is `off`, `true` is `rules`), and `warden exec --network` overrides it for one run.
#[test]
fn a_projects_network_is_rules_by_default_and_an_older_entry_keeps_what_it_had() {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let key = d.project.to_string_lossy().into_owned();
    let boxed = |settings: &Settings| {
        let commands_box = engine.commands_box(&d.project, settings);
        (commands_box.network, commands_box.network_rules.ask)
    };
    assert_eq!(boxed(&Settings::default()), (true, true), "no entry: rules");
    let with_entry = |json: &str| {
        let perms: ToolPermissions = serde_json::from_str(json).unwrap();
        let mut settings = Settings::default();
        settings.tool_permissions.insert(key.clone(), perms);
        settings
    };
    assert_eq!(boxed(&with_entry("{}")), (true, true), "an entry without the field: rules");
    assert_eq!(boxed(&with_entry(r#"{"network": false}"#)), (false, false), "an older entry's false: off");
    assert_eq!(boxed(&with_entry(r#"{"network": true}"#)), (true, true));
    assert_eq!(boxed(&with_entry(r#"{"network": "off"}"#)), (false, false));
    // Saved, it is written by its name.
    let mut settings = with_entry(r#"{"network": false}"#);
    engine.save_settings(settings.clone()).unwrap();
    assert_eq!(engine.settings().tool_permissions[&key].network, warden_protocol::NetworkMode::Off);
    let saved = serde_json::to_value(&settings.tool_permissions[&key]).unwrap();
    assert_eq!(saved["network"], "off");

    // One run's override, for a session of the project.
    settings.tool_permissions.clear();
    let mut spec = SessionSpec::new(d.project.clone());
    spec.network = Some(warden_protocol::NetworkMode::Off);
    let policy = engine.project_policy(&spec, &d.project, &settings).commands_box;
    assert_eq!((policy.network, policy.network_rules.ask), (false, false));
    spec.network = Some(warden_protocol::NetworkMode::Rules);
    let policy = engine.project_policy(&spec, &d.project, &with_entry(r#"{"network": "off"}"#)).commands_box;
    assert_eq!((policy.network, policy.network_rules.ask), (true, true));
}

/// A project that allows the package registries gets the preset's hosts as public-only rules in
/// its box (asked about no more), another project does not, and Settings lists the hosts.
#[test]
fn the_registries_preset_reaches_only_the_project_that_allows_it() {
    let d = dirs();
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let mut settings =
        Settings { project_dir: Some(d.project.to_string_lossy().into_owned()), ..Settings::default() };
    let perms = ToolPermissions { allow_registries: true, ..ToolPermissions::default() };
    settings.tool_permissions.insert(d.project.to_string_lossy().into_owned(), perms);
    engine.save_settings(settings.clone()).unwrap();
    let rules = engine.commands_box(&d.project, &settings).network_rules;
    assert!(rules.ask, "other hosts are still asked about");
    assert!(rules.allow.is_empty(), "the preset opens nothing whatever it resolves to");
    let hosts: Vec<String> = rules.allow_public.iter().map(ToString::to_string).collect();
    for host in [
        "index.crates.io:443",
        "registry.npmjs.org:443",
        "files.pythonhosted.org:443",
        "proxy.golang.org:443",
    ] {
        assert!(hosts.iter().any(|h| h == host), "{host} not in {hosts:?}");
    }
    assert_eq!(engine.sandbox_status().registry_hosts, hosts, "Settings lists what the box allows");
    let other = d.project.with_file_name("other");
    std::fs::create_dir_all(&other).unwrap();
    assert!(engine.commands_box(&other, &settings).network_rules.allow_public.is_empty());
}

/// "Always for this project" about a host: an allow rule in the project's settings, saved and
/// sealed, that the project's next box applies without asking; with a settings file Warden did
/// not write, kept for this run only and said.
#[test]
fn an_always_answer_saves_the_projects_rule_and_only_into_warden_s_own_file() {
    let d = dirs();
    let keychain = Arc::new(MemoryStore::new());
    let engine = Engine::new(d.home.clone(), keychain.clone()).unwrap();
    let key = d.project.to_string_lossy().into_owned();
    let mut settings = Settings::default();
    settings.tool_permissions.insert(key.clone(), ToolPermissions::default());
    engine.save_settings(settings).unwrap();
    engine.settings.allow_host(&key, "registry.test:8080").unwrap();
    engine.settings.allow_host(&key, "registry.test:8080").unwrap();

    let reopened = Engine::new(d.home.clone(), keychain.clone()).unwrap();
    assert_eq!(reopened.settings_integrity(), Integrity::Trusted, "the saved file is Warden's own");
    let settings = reopened.settings();
    let rules = &settings.tool_permissions[&key].permission_rules;
    assert_eq!(rules.len(), 1, "saved once: {rules:?}");
    let commands_box = reopened.commands_box(&d.project, &settings);
    let parse = |p: &str| crate::containment::net::HostRule::parse(p).unwrap();
    assert_eq!(commands_box.network_rules.allow, [parse("registry.test:8080")]);
    assert!(commands_box.network_rules.ask, "a project with the network asks about the rest");

    let mut forged = reopened.settings();
    forged.theme = warden_protocol::Theme::Dark;
    forge_settings(&d.home, &forged);
    let untrusted = Engine::new(d.home.clone(), keychain).unwrap();
    assert_ne!(untrusted.settings_integrity(), Integrity::Trusted);
    let refused = untrusted.settings.allow_host(&key, "other.test:443");
    assert!(refused.is_err_and(|why| why.contains("this run only")));
    let on_disk = std::fs::read_to_string(d.home.settings_path()).unwrap();
    assert!(!on_disk.contains("other.test"), "a file Warden did not write was rewritten");
}
