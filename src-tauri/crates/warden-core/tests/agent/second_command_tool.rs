//! A tool that runs commands gets the blocklist, the policy's asks and the box by declaring its
//! command ([`Needs`]), not by being called `bash`: `run_line` below is defined here and nowhere
//! else, registered beside the core tools, and every call of it is decided, asked and contained
//! exactly as the same call of `bash` is, through the one tool runner.

use std::ffi::OsString;
use std::sync::Arc;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;
use warden_core::agent::{CallPolicy, RequestedCall, ToolEnvironment, ToolRunner};
use warden_core::containment;
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::tool::{Needs, ToolContext, ToolOutput, ToolRegistry, ToolsConfig, Typed, TypedTool};
use warden_protocol::{DangerLevel, Event, ToolCategory, ToolConfirm, ToolErrorCode, TrustLevel};

use super::harness::answer;

/// Run one line with `sh -c` in the project (a second shell tool, for this test).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RunLineInput {
    /// The line to run.
    line: String,
    /// Wants the network.
    #[serde(default)]
    online: bool,
    /// Wants to run outside the box.
    #[serde(default)]
    unboxed: bool,
}

struct RunLine;

#[async_trait]
impl TypedTool for RunLine {
    type Input = RunLineInput;
    const NAME: &'static str = "run_line";
    const LABEL: &'static str = "Run one line";
    const CATEGORY: ToolCategory = ToolCategory::Exec;
    const DANGER: DangerLevel = DangerLevel::Dangerous;
    const PARALLEL: bool = false;

    fn needs(&self, input: &RunLineInput) -> Needs {
        Needs {
            command: Some(input.line.clone()),
            network: input.online,
            outside_sandbox: input.unboxed,
            ..Needs::default()
        }
    }

    /// Runs in whatever box the context holds, and says which.
    async fn run(&self, input: RunLineInput, ctx: ToolContext) -> ToolOutput {
        let cwd = ctx.workspace.project_root().to_path_buf();
        let argv: Vec<OsString> = ["sh", "-c", &input.line].iter().map(OsString::from).collect();
        let (output, summary) = match ctx.commands_box.as_deref() {
            Some(policy) => match containment::launch(policy, &argv, &cwd) {
                Ok(launch) => (launch.command().output(), Some(policy.summary())),
                Err(error) => return ToolOutput::error(ToolErrorCode::ExecutionError, error.to_string()),
            },
            None => {
                (std::process::Command::new("sh").args(["-c", &input.line]).current_dir(&cwd).output(), None)
            }
        };
        match output {
            Ok(output) if output.status.success() => ToolOutput::success("ran"),
            Ok(output) => ToolOutput::error(
                ToolErrorCode::ExecutionError,
                String::from_utf8_lossy(&output.stderr).into_owned(),
            ),
            Err(error) => ToolOutput::error(ToolErrorCode::ExecutionError, error.to_string()),
        }
        .with_report(|report| {
            report.sandbox = Some(warden_protocol::BoxUse { contained: summary.is_some(), summary });
        })
    }
}

/// A project with `run_line` registered beside the core tools, its commands boxed or not.
struct Project {
    dir: TempDir,
    storage: TempDir,
    outside: TempDir,
}

/// How one call ended: whether (and why) it asked, and its result's error code and box.
#[derive(Debug, PartialEq)]
struct Ending {
    asked: Option<Option<String>>,
    code: Option<ToolErrorCode>,
    sandbox: Option<warden_protocol::BoxUse>,
}

impl Project {
    fn new() -> Self {
        let temp = || TempDir::new().unwrap_or_else(|e| panic!("temp dir: {e}"));
        Self { dir: temp(), storage: temp(), outside: temp() }
    }

    fn runner(
        &self,
        trust: TrustLevel,
        boxed: bool,
    ) -> (Arc<ToolRunner>, tokio::sync::mpsc::UnboundedReceiver<Event>) {
        let workspace = Workspace::new(self.dir.path(), self.storage.path(), Scope::all())
            .unwrap_or_else(|e| panic!("workspace: {e}"));
        let env =
            if boxed { ToolEnvironment::new(workspace) } else { ToolEnvironment::without_box(workspace) };
        let mut registry = ToolRegistry::with_core_tools(ToolsConfig::default());
        registry.register(Arc::new(Typed::new(RunLine))).unwrap_or_else(|e| panic!("register: {e}"));
        let policy = CallPolicy { trust, scope: Scope::all(), approval_timeout: None };
        let (runner, events) = ToolRunner::standalone("c-second".to_owned(), Arc::new(registry), env, policy);
        (Arc::new(runner), events)
    }

    /// Call `tool` once, approving whatever it asks, and say how it ended.
    async fn call(&self, trust: TrustLevel, boxed: bool, tool: &str, input: Value) -> Ending {
        let (runner, mut events) = self.runner(trust, boxed);
        let approver = runner.clone();
        let asked = tokio::spawn(async move {
            let mut asked: Option<ToolConfirm> = None;
            while let Some(event) = events.recv().await {
                match event {
                    Event::ToolConfirm(confirm) => {
                        approver.approve(answer(&confirm.confirm_id, true));
                        asked = Some(confirm);
                    }
                    Event::ToolResult(_) => break,
                    _ => {}
                }
            }
            asked
        });
        let call = RequestedCall { id: "call-1".to_owned(), name: tool.to_owned(), input: Ok(input) };
        let outcome = runner.call("m-1", call, &CancellationToken::new()).await;
        let asked = asked.await.unwrap_or_else(|e| panic!("the approver: {e}"));
        Ending {
            asked: asked.map(|confirm| confirm.reason),
            code: outcome.result.code,
            sandbox: outcome.result.report.sandbox,
        }
    }
}

/// A command the blocklist refuses (a disk formatter) that would do nothing if it ever ran.
const BLOCKED: &str = "mkfs.warden_test_none /dev/null";

/// `run_line`'s input for the same call `bash` gets.
fn as_run_line(bash: &Value) -> Value {
    json!({
        "line": bash["command"],
        "online": bash.get("network").cloned().unwrap_or(json!(false)),
        "unboxed": bash.get("outside_sandbox").cloned().unwrap_or(json!(false)),
    })
}

#[tokio::test]
async fn a_second_command_tool_is_refused_asked_and_boxed_as_bash_is() {
    let project = Project::new();
    let escape = project.outside.path().join("escaped");
    let write_outside = format!("echo x > {}", escape.display());
    let cases: &[(&str, TrustLevel, bool, Value)] = &[
        // The blocklist, in every trust level and box (with formatters no machine has: should a
        // regression let one through, it runs nothing).
        ("blocked", TrustLevel::Autonomous, true, json!({"command": BLOCKED})),
        (
            "blocked unboxed",
            TrustLevel::Supervised,
            false,
            json!({"command": "newfs_warden_test_none /dev/null"}),
        ),
        // A command the blocklist cannot judge asks only where no box contains it.
        ("unknown unboxed", TrustLevel::Autonomous, false, json!({"command": "eval \"$CMD\""})),
        ("unknown boxed", TrustLevel::Autonomous, true, json!({"command": "eval \"$CMD\""})),
        // Autonomous asks before every command where there is no box.
        ("plain unboxed", TrustLevel::Autonomous, false, json!({"command": "true"})),
        // Escalations ask in every trust level, and the approval widens the box as asked.
        ("network", TrustLevel::Autonomous, true, json!({"command": "true", "network": true})),
        ("outside", TrustLevel::Autonomous, true, json!({"command": "true", "outside_sandbox": true})),
        // Contained: it runs unasked in Autonomous, and the box refuses a write outside.
        ("contained", TrustLevel::Autonomous, true, json!({ "command": write_outside })),
    ];
    for (name, trust, boxed, input) in cases {
        let by_bash = project.call(*trust, *boxed, "bash", input.clone()).await;
        let by_run_line = project.call(*trust, *boxed, "run_line", as_run_line(input)).await;
        assert_eq!(by_run_line.asked, by_bash.asked, "{name}: asked differently");
        assert_eq!(by_run_line.code, by_bash.code, "{name}: ended differently");
        if by_bash.code != Some(ToolErrorCode::BlockedCommand) {
            assert_eq!(&by_run_line.sandbox, &by_bash.sandbox, "{name}");
        }
    }
    // What the cases showed, said outright for `run_line`.
    let blocked = project.call(TrustLevel::Autonomous, true, "run_line", json!({ "line": BLOCKED })).await;
    assert_eq!((blocked.asked, blocked.code), (None, Some(ToolErrorCode::BlockedCommand)));
    let network =
        project.call(TrustLevel::Autonomous, true, "run_line", json!({"line": "true", "online": true})).await;
    let reason = network.asked.clone().flatten().unwrap_or_default();
    assert!(reason.contains("asks for the network"), "{reason}");
    let sandbox =
        |ending: &Ending| ending.sandbox.as_ref().and_then(|s| s.summary.clone()).unwrap_or_default();
    assert!(sandbox(&network).starts_with("network · writes: project"), "{network:?}");
    let outside = project
        .call(TrustLevel::Autonomous, true, "run_line", json!({"line": "true", "unboxed": true}))
        .await;
    assert!(outside.asked.flatten().unwrap_or_default().starts_with("Dangerous"));
    assert_eq!(outside.sandbox.as_ref().map(|s| s.contained), Some(false));
    let contained =
        project.call(TrustLevel::Autonomous, true, "run_line", json!({ "line": write_outside })).await;
    assert_eq!((&contained.asked, contained.code), (&None, Some(ToolErrorCode::ExecutionError)));
    assert!(sandbox(&contained).starts_with("no network · writes: project"), "{contained:?}");
    assert!(!escape.exists(), "a contained line wrote outside the project");
}
