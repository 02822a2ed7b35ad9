//! The loop and `warden tool` run a call through the same path: each case below is asked of a
//! model's turn (a real provider over loopback HTTP) and of `Engine::run_tool`, both built by the
//! same `Engine` from the same settings, and must end the same way: the same confirmation (or none),
//! the same status, error code, text (a rejection's reason included) and metadata.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tempfile::TempDir;
use warden_core::config::WardenHome;
use warden_core::engine::{Engine, SessionSpec};
use warden_core::scope::Scope;
use warden_core::secrets::{MemoryStore, SecretStore};
use warden_protocol::{Event, KeyName, ProviderId, ToolApproval, ToolConfirm, ToolResult, TrustLevel};

use super::harness::Wire;
use super::wire::{text, tool};
use crate::support::server::TestServer;

struct Case {
    name: &'static str,
    tool: &'static str,
    input: Value,
    scope: Scope,
    /// The user's answer when asked: approved, and the reason given.
    answer: (bool, Option<&'static str>),
}

fn cases() -> Vec<Case> {
    let all = Scope::all;
    vec![
        Case {
            name: "a write the user rejects, with a reason",
            tool: "file_write",
            input: json!({"path": "notes.txt", "content": "x"}),
            scope: all(),
            answer: (false, Some("not that file")),
        },
        Case {
            name: "a write the user approves",
            tool: "file_write",
            input: json!({"path": "notes.txt", "content": "x"}),
            scope: all(),
            answer: (true, None),
        },
        Case {
            name: "a write outside the project's scope",
            tool: "file_write",
            input: json!({"path": "notes.txt", "content": "x"}),
            scope: Scope::read_only(),
            answer: (true, None),
        },
        Case {
            name: "a read outside the project",
            tool: "file_read",
            input: json!({"path": "../../../etc/passwd"}),
            scope: all(),
            answer: (true, None),
        },
        Case {
            name: "a blocked command",
            tool: "bash",
            input: json!({"command": "rm -rf /"}),
            scope: all(),
            answer: (true, None),
        },
        Case {
            name: "input that breaks the schema",
            tool: "file_read",
            input: json!({"path": 7}),
            scope: all(),
            answer: (true, None),
        },
        Case {
            name: "a read that works",
            tool: "file_read",
            input: json!({"path": "readme.md"}),
            scope: all(),
            answer: (true, None),
        },
        Case {
            name: "a command that fails",
            tool: "bash",
            input: json!({"command": "echo out; exit 3"}),
            scope: all(),
            answer: (true, None),
        },
    ]
}

/// A project and a Warden home of its own, with an Anthropic key in a memory keychain.
struct Place {
    _dirs: TempDir,
    project: PathBuf,
    engine: Engine,
}

async fn place() -> Place {
    let dirs = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(dirs.path()).unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("readme.md"), "# hello\n").unwrap();
    let store = Arc::new(MemoryStore::new());
    store.set(KeyName::Anthropic, "test-key").await.unwrap();
    let engine = Engine::new(WardenHome::at(dirs.path().join("home")), store).unwrap();
    Place { _dirs: dirs, project, engine }
}

fn spec(place: &Place, case: &Case, base_url: Option<String>) -> SessionSpec {
    let mut spec = SessionSpec::new(place.project.clone());
    spec.provider = ProviderId::Anthropic;
    spec.base_url = base_url;
    spec.model = Some("test-model".to_owned());
    spec.trust = TrustLevel::Guided;
    spec.scope = Some(case.scope.clone());
    spec.approval_timeout_secs = Some(20);
    spec
}

fn approval(case: &Case, confirm: &ToolConfirm) -> ToolApproval {
    ToolApproval {
        confirm_id: confirm.confirm_id.clone(),
        approved: case.answer.0,
        reason: case.answer.1.map(str::to_owned),
        remember: None,
        always: None,
    }
}

/// What must be the same on both paths.
#[derive(Debug, PartialEq)]
struct Ending {
    asked: Option<(String, Option<String>)>,
    status: warden_protocol::ToolStatus,
    code: Option<warden_protocol::ToolErrorCode>,
    result: String,
    metadata: Option<Value>,
    file_after: Option<String>,
}

fn ending(place: &Place, confirm: Option<&ToolConfirm>, result: &ToolResult) -> Ending {
    // Each run has its own folders: name them alike in what the two runs report.
    let storage = place.engine.home().project_dir(&place.project).display().to_string();
    let project = place.project.display().to_string();
    let same = |text: &str| text.replace(&storage, "<storage>").replace(&project, "<project>");
    Ending {
        asked: confirm.map(|c| (c.tool_name.clone(), c.reason.clone())),
        status: result.status,
        code: result.code,
        result: same(&result.result),
        // Everything but the time the call took and the id its checkpoint got (each run has its
        // own store; that there is one is kept).
        metadata: result.metadata.clone().map(|mut m| {
            if let Some(map) = m.as_object_mut() {
                map.remove("duration_ms");
                if let Some(id) = map.get_mut("changes").and_then(|c| c.get_mut("checkpointId")) {
                    if id.is_string() {
                        *id = Value::from("<checkpoint>");
                    }
                }
            }
            serde_json::from_str(&same(&m.to_string())).unwrap_or(m)
        }),
        file_after: std::fs::read_to_string(place.project.join("notes.txt")).ok(),
    }
}

async fn through_the_loop(case: &Case) -> Ending {
    let place = place().await;
    let wire = Wire::Anthropic;
    let server = TestServer::start(vec![
        wire.reply(&[tool("call-1", case.tool, case.input.clone())], 10),
        wire.reply(&[text("done")], 10),
    ])
    .await;
    let (session, mut events) =
        place.engine.start(spec(&place, case, Some(server.url.clone()))).await.unwrap();
    let turn = {
        let session = session.clone();
        tokio::spawn(async move { session.send("go").await })
    };
    let mut confirm = None;
    let result = loop {
        let event = tokio::time::timeout(Duration::from_secs(60), events.recv())
            .await
            .expect("the turn went quiet for 60 s")
            .expect("the session ended without a tool result");
        match event {
            Event::ToolConfirm(c) => {
                session.approve(approval(case, &c)).unwrap();
                confirm = Some(c);
            }
            Event::ToolResult(result) => break result,
            _ => {}
        }
    };
    turn.await.unwrap().unwrap();
    ending(&place, confirm.as_ref(), &result)
}

async fn through_warden_tool(case: &Case) -> Ending {
    let place = place().await;
    let confirm = std::sync::Mutex::new(None);
    let shot = place
        .engine
        .run_tool(
            spec(&place, case, None),
            case.tool,
            case.input.clone(),
            |_, _| {},
            |c| {
                let answer = approval(case, &c);
                *confirm.lock().unwrap() = Some(c);
                async move { answer }
            },
        )
        .await
        .unwrap();
    let confirm = confirm.into_inner().unwrap();
    ending(&place, confirm.as_ref(), &shot.result)
}

#[tokio::test]
async fn the_loop_and_warden_tool_decide_ask_run_and_report_alike() {
    for case in cases() {
        let looped = through_the_loop(&case).await;
        let direct = through_warden_tool(&case).await;
        assert_eq!(looped, direct, "{}: the two paths differ", case.name);
    }
}

/// The cases are not all alike: the comparison above would pass trivially if every call ended the
/// same way. Check the loop's endings are the ones each case is about.
#[tokio::test]
async fn the_cases_end_as_their_names_say() {
    use warden_protocol::ToolErrorCode as C;
    let want = [
        Some(C::UserRejected),
        None,
        Some(C::PermissionDenied),
        Some(C::SandboxViolation),
        Some(C::BlockedCommand),
        Some(C::ValidationError),
        None,
        Some(C::ExecutionError),
    ];
    let cases = cases();
    assert_eq!(cases.len(), want.len());
    for (case, want) in cases.iter().zip(want) {
        let ending = through_warden_tool(case).await;
        assert_eq!(ending.code, want, "{}: {ending:?}", case.name);
        match case.name {
            "a write the user rejects, with a reason" => {
                assert_eq!(ending.result, "The user rejected this call: not that file");
                assert!(ending.asked.is_some() && ending.file_after.is_none());
            }
            "a write the user approves" => assert_eq!(ending.file_after.as_deref(), Some("x")),
            "a read that works" => assert!(ending.result.contains("# hello"), "{}", ending.result),
            _ => {}
        }
    }
}
