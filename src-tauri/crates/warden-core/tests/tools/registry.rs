//! The registry: scope-filtered definitions, duplicates refused, validation naming the field,
//! timeouts, panics caught, output capped.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{json, Value};
use warden_core::scope::Scope;
use warden_core::tool::{RegistryError, Tool, ToolContext, ToolOutput, ToolRegistry, ToolsConfig};
use warden_protocol::{DangerLevel, ToolCategory, ToolDefinition, ToolErrorCode};

use super::common::*;

const CORE: [&str; 15] = [
    "file_read",
    "file_write",
    "file_edit",
    "apply_patch",
    "list_dir",
    "file_info",
    "search_files",
    "search_in_files",
    "bash",
    "command_output",
    "cancel_command",
    "web_search",
    "system_info",
    "todo_write",
    // Registered everywhere, offered only in plan mode (the runner keeps it out of other turns).
    "propose_plan",
];

/// A test tool whose behaviour is chosen by its name.
struct Odd(ToolDefinition);

impl Odd {
    fn new(name: &str) -> Arc<Self> {
        Arc::new(Self(ToolDefinition {
            name: name.to_owned(),
            description: "test".to_owned(),
            input_schema: json!({"type": "object", "properties": {}}),
            category: ToolCategory::Mcp,
            danger: DangerLevel::Safe,
            parallel: true,
            conversation_only: false,
        }))
    }
}

#[async_trait]
impl Tool for Odd {
    fn definition(&self) -> &ToolDefinition {
        &self.0
    }

    async fn execute(&self, _input: Value, _ctx: ToolContext) -> ToolOutput {
        match self.0.name.as_str() {
            "panics" => panic!("boom from a tool"),
            "sleeps" => {
                tokio::time::sleep(Duration::from_secs(30)).await;
                ToolOutput::success("woke")
            }
            "floods" => ToolOutput::success(format!("BEGIN{}END", "x".repeat(300_000))),
            _ => ToolOutput::success("ok"),
        }
    }
}

#[test]
fn core_tools_are_registered_in_design_order_and_filtered_by_scope() {
    let registry = ToolRegistry::with_core_tools(ToolsConfig::default());
    assert_eq!(registry.names(), CORE);
    let all: Vec<String> = registry.definitions(&Scope::all()).into_iter().map(|d| d.name).collect();
    assert_eq!(all, CORE);
    let read_only: Vec<String> =
        registry.definitions(&Scope::read_only()).into_iter().map(|d| d.name).collect();
    assert_eq!(
        read_only,
        [
            "file_read",
            "list_dir",
            "file_info",
            "search_files",
            "search_in_files",
            "web_search",
            "system_info",
            // In every scope: it changes nothing but the conversation.
            "todo_write"
        ]
    );
}

#[test]
fn schemas_are_derived_with_descriptions_and_snake_case_params() {
    let registry = ToolRegistry::with_core_tools(ToolsConfig::default());
    let expected: &[(&str, &[&str], &[&str])] = &[
        ("file_read", &["path", "start_line", "end_line", "max_bytes"], &["path"]),
        ("file_write", &["path", "content"], &["path", "content"]),
        ("file_edit", &["path", "old_text", "new_text", "replace_all"], &["path", "old_text", "new_text"]),
        ("apply_patch", &["patch", "dry_run"], &["patch"]),
        ("list_dir", &["path", "depth", "include_hidden"], &[]),
        ("file_info", &["path"], &["path"]),
        ("search_files", &["pattern", "path"], &["pattern"]),
        (
            "search_in_files",
            &["query", "path", "globs", "case_sensitive", "output_mode", "max_results"],
            &["query"],
        ),
        ("bash", &["command", "timeout", "background", "network", "outside_sandbox"], &["command"]),
        ("command_output", &["handle", "from", "limit"], &["handle"]),
        ("cancel_command", &["handle"], &["handle"]),
        ("web_search", &["query", "max_results"], &["query"]),
        ("system_info", &[], &[]),
        ("todo_write", &["items"], &["items"]),
        ("propose_plan", &["plan", "steps"], &["plan", "steps"]),
    ];
    for (name, props, required) in expected {
        let def = registry.get(name).map(|t| t.definition().clone()).unwrap_or_else(|| panic!("{name}"));
        assert!(def.description.len() > 30, "{name} has no real description");
        let schema = &def.input_schema;
        assert_eq!(schema["type"], "object", "{name}");
        let mut keys: Vec<&str> = schema["properties"]
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        keys.sort_unstable();
        let mut want = props.to_vec();
        want.sort_unstable();
        assert_eq!(keys, want, "{name}");
        for prop in *props {
            assert!(
                schema["properties"][prop]["description"].is_string(),
                "{name}.{prop} has no description"
            );
        }
        let mut req: Vec<&str> = schema["required"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        req.sort_unstable();
        let mut want_req = required.to_vec();
        want_req.sort_unstable();
        assert_eq!(req, want_req, "{name}");
        assert!(
            schema.get("$ref").is_none() && schema.get("$defs").is_none(),
            "{name}: schema must be inline"
        );
    }
    let mode =
        &registry.get("search_in_files").map(|t| t.definition().input_schema.clone()).unwrap_or_default()
            ["properties"]["output_mode"];
    assert!(mode.to_string().contains("\"count\""), "{mode}");
    let danger: Vec<&str> = CORE
        .iter()
        .copied()
        .filter(|n| registry.get(n).is_some_and(|t| t.definition().danger == DangerLevel::Dangerous))
        .collect();
    assert_eq!(danger, ["file_write", "file_edit", "apply_patch", "bash"]);
}

#[test]
fn duplicate_and_invalid_names_are_refused() {
    let mut registry = ToolRegistry::with_core_tools(ToolsConfig::default());
    assert_eq!(registry.register(Odd::new("bash")), Err(RegistryError::Duplicate("bash".to_owned())));
    assert!(matches!(registry.register(Odd::new("bad name!")), Err(RegistryError::InvalidName(_))));
    assert_eq!(registry.register(Odd::new("mcp_thing")), Ok(()));
    assert!(registry.get("mcp_thing").is_some());
}

#[tokio::test]
async fn invalid_input_is_refused_naming_the_field_before_the_tool_runs() {
    let env = TestEnv::new();
    let cases = [
        ("file_read", json!({}), "`path`"),
        ("file_read", json!({"path": 7}), "`path`"),
        ("file_read", json!({"path": "a", "start_line": "one"}), "`start_line`"),
        ("file_read", json!({"path": "a", "start_line": 0}), "`start_line`"),
        ("file_read", json!({"path": "a", "bogus": 1}), "`bogus`"),
        ("search_in_files", json!({"query": "x", "output_mode": "lines"}), "`output_mode`"),
        ("search_in_files", json!({"query": "x", "globs": "*.rs"}), "`globs`"),
        ("bash", json!({"command": "true", "timeout": -1}), "`timeout`"),
        ("file_write", json!({"path": "a"}), "`content`"),
        ("file_edit", json!({"path": "a", "old_text": "", "new_text": "b"}), "old_text"),
        ("search_in_files", json!({"query": "("}), "`query`"),
    ];
    for (tool, input, field) in cases {
        let out = env.call(tool, input.clone()).await;
        assert!(out.is_error, "{tool} {input}");
        assert!(out.content.contains(field), "{tool} {input}: {}", out.content);
        if tool != "file_edit" {
            assert_code(&out, ToolErrorCode::ValidationError);
        }
    }
    assert!(!env.path("a").exists());
}

#[tokio::test]
async fn unknown_and_out_of_scope_tools_are_refused() {
    let env = TestEnv::with(Scope::read_only(), ToolsConfig::default());
    assert_code(&env.call("no_such_tool", json!({})).await, ToolErrorCode::UnknownTool);
    let out = env.call("bash", json!({"command": "touch x"})).await;
    assert_code(&out, ToolErrorCode::UnknownTool);
    assert!(out.content.contains("scope"));
    assert!(!env.path("x").exists());
}

#[tokio::test]
async fn panics_become_errors_timeouts_stop_tools_and_output_is_capped() {
    let mut scope = Scope::all();
    scope.timeouts_secs.insert("sleeps".to_owned(), 1);
    let env = TestEnv::with(scope, ToolsConfig::default());
    let mut registry = ToolRegistry::new(ToolsConfig::default());
    for name in ["panics", "sleeps", "floods"] {
        registry.register(Odd::new(name)).expect("register");
    }
    let call = |name: &str| warden_protocol::ToolCall { id: "t".into(), name: name.into(), input: json!({}) };

    let out = registry.execute(&call("panics"), env.ctx.clone()).await;
    assert_code(&out, ToolErrorCode::ExecutionError);
    assert!(out.content.contains("boom from a tool"));

    let started = std::time::Instant::now();
    let out = registry.execute(&call("sleeps"), env.ctx.clone()).await;
    assert_code(&out, ToolErrorCode::ToolTimeout);
    assert!(started.elapsed() < Duration::from_secs(5));

    let out = registry.execute(&call("floods"), env.ctx.clone()).await;
    assert_ok(&out);
    assert!(out.content.len() <= 100 * 1024, "{}", out.content.len());
    assert!(out.content.starts_with("BEGIN") && out.content.ends_with("END"));
    assert!(out.content.contains("bytes cut"));
    assert_eq!(meta(&out, "truncated"), &json!(true));
}

#[tokio::test]
async fn cancel_stops_a_running_tool() {
    let env = TestEnv::new();
    let mut registry = ToolRegistry::new(ToolsConfig::default());
    registry.register(Odd::new("sleeps")).expect("register");
    let ctx = env.ctx.clone();
    let cancel = ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancel.cancel();
    });
    let call = warden_protocol::ToolCall { id: "t".into(), name: "sleeps".into(), input: json!({}) };
    assert_code(&registry.execute(&call, ctx).await, ToolErrorCode::Cancelled);
}

/// The window's list of tools: every tool, a plain-language label of its own, its category, and the
/// read-only set as the default scope.
#[test]
fn the_catalog_labels_every_tool_and_marks_the_default_scope() {
    let registry = ToolRegistry::with_core_tools(ToolsConfig::default());
    let catalog = registry.catalog(&Scope::read_only());
    assert_eq!(catalog.iter().map(|t| t.name.clone()).collect::<Vec<_>>(), registry.names());
    for tool in &catalog {
        assert!(!tool.label.is_empty() && tool.label != tool.name, "{} has no label of its own", tool.name);
        let registered = registry.get(&tool.name).unwrap();
        let definition = registered.definition();
        assert_eq!(tool.in_default_scope, Scope::read_only().allows_tool(definition), "{}", tool.name);
        assert_eq!(tool.category, definition.category);
    }
    // The task list is in every scope because it declares it changes only the conversation.
    let todo = catalog.iter().find(|t| t.name == "todo_write").unwrap();
    assert!(todo.in_default_scope && !Scope::read_only().allows("todo_write"));
    let labels: std::collections::HashSet<_> = catalog.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(labels.len(), catalog.len(), "two tools share a label");
    assert!(catalog.iter().any(|t| t.in_default_scope) && catalog.iter().any(|t| !t.in_default_scope));
}

#[test]
fn an_mcp_tool_may_take_as_long_as_a_form_waits_unless_the_scope_says_otherwise() {
    let registry = ToolRegistry::with_core_tools(ToolsConfig::default());
    let mut scope = Scope::all();
    let mcp = warden_core::mcp::McpTool::call_needs().timeout;
    let file_read = registry.get("file_read").unwrap().needs(&json!({"path": "a"})).timeout;
    assert_eq!(registry.timeout_for("mcp__db__query", mcp, &scope), warden_core::tool::MCP_TOOL_TIMEOUT);
    assert_eq!(
        registry.timeout_for("file_read", file_read, &scope),
        ToolsConfig::default().default_tool_timeout
    );
    scope.timeouts_secs.insert("mcp__db__query".to_owned(), 30);
    assert_eq!(registry.timeout_for("mcp__db__query", mcp, &scope), std::time::Duration::from_secs(30));
}
