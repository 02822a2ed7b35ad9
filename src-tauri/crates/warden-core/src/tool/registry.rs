//! The registry: every tool by name, and the one way the loop runs a call — validated, timed out,
//! panic-proof, and capped for the model.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use warden_protocol::{ApprovalPreview, ToolCall, ToolDefinition, ToolErrorCode};

use super::{cap_for_model, validate, Timeout, Tool, ToolContext, ToolOutput, ToolsConfig};
use crate::sandbox::Workspace;
use crate::scope::Scope;

/// Extra time the registry gives a tool that keeps its own time ([`Timeout::KeptByTool`], `bash`)
/// beyond its own timeout, so that the tool's timeout (which kills the process group and reports
/// the output so far) fires first.
const OWN_CLOCK_GRACE: Duration = Duration::from_secs(5);

/// How long an MCP tool's call may take unless the scope says otherwise (what an MCP tool declares
/// as its [`Timeout`]).
pub const MCP_TOOL_TIMEOUT: Duration = Duration::from_secs(600);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("a tool named `{0}` is already registered")]
    Duplicate(String),
    #[error("`{0}` is not a valid tool name (1–64 characters of a-z, A-Z, 0-9, `_`, `-`)")]
    InvalidName(String),
}

#[derive(Clone)]
pub struct ToolRegistry {
    tools: Vec<Arc<dyn Tool>>,
    by_name: HashMap<String, usize>,
    config: Arc<ToolsConfig>,
}

impl ToolRegistry {
    /// An empty registry (MCP-only setups, tests).
    pub fn new(config: ToolsConfig) -> Self {
        Self { tools: Vec::new(), by_name: HashMap::new(), config: Arc::new(config) }
    }

    pub fn config(&self) -> &Arc<ToolsConfig> {
        &self.config
    }

    /// A context for `workspace` with this registry's configuration (fresh cancel token, no output
    /// listener, its own background-process table — share the session's with `with_processes`).
    pub fn context(&self, workspace: Arc<Workspace>) -> ToolContext {
        ToolContext::new(workspace, self.config.clone())
    }

    /// Add a tool (also the MCP registration point). Duplicate names are refused.
    pub fn register(&mut self, tool: Arc<dyn Tool>) -> Result<(), RegistryError> {
        let name = tool.definition().name.clone();
        let valid = !name.is_empty()
            && name.len() <= 64
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid {
            return Err(RegistryError::InvalidName(name));
        }
        if self.by_name.contains_key(&name) {
            return Err(RegistryError::Duplicate(name));
        }
        self.by_name.insert(name, self.tools.len());
        self.tools.push(tool);
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.by_name.get(name).and_then(|&i| self.tools.get(i)).cloned()
    }

    /// Names of every registered tool, in registration order.
    pub fn names(&self) -> Vec<String> {
        self.tools.iter().map(|t| t.definition().name.clone()).collect()
    }

    /// Every tool for the window: name, label, category, danger, and whether `default_scope`
    /// allows it.
    pub fn catalog(&self, default_scope: &Scope) -> Vec<warden_protocol::ToolInfo> {
        self.tools
            .iter()
            .map(|tool| {
                let definition = tool.definition();
                warden_protocol::ToolInfo {
                    name: definition.name.clone(),
                    label: tool.label().to_owned(),
                    category: definition.category,
                    danger: definition.danger,
                    in_default_scope: default_scope.allows_tool(definition),
                    mcp: tool.mcp_origin(),
                }
            })
            .collect()
    }

    /// The definitions the model may see: only tools in scope, in registration order.
    pub fn definitions(&self, scope: &Scope) -> Vec<ToolDefinition> {
        self.tools.iter().map(|t| t.definition()).filter(|d| scope.allows_tool(d)).cloned().collect()
    }

    /// How long a call of `name` whose tool declared `timeout` may run: the scope's override, else
    /// what the tool declared.
    pub fn timeout_for(&self, name: &str, timeout: Timeout, scope: &Scope) -> Duration {
        let base = match (scope.timeouts_secs.get(name), timeout) {
            (Some(&secs), _) => Duration::from_secs(secs),
            (None, Timeout::Default) => self.config.default_tool_timeout,
            (None, Timeout::KeptByTool) => self.config.bash_max_timeout,
            (None, Timeout::Fixed(duration)) => duration,
        };
        match timeout {
            Timeout::KeptByTool => base + OWN_CLOCK_GRACE,
            Timeout::Default | Timeout::Fixed(_) => base,
        }
    }

    /// The approval preview of a call (`None` when the tool has none or the input is invalid).
    pub async fn preview(&self, call: &ToolCall, ctx: &ToolContext) -> Option<ApprovalPreview> {
        let tool = self.get(&call.name)?;
        validate::validate(&tool.definition().input_schema, &call.input).ok()?;
        AssertUnwindSafe(tool.preview(&call.input, ctx)).catch_unwind().await.ok().flatten()
    }

    /// Run a call: unknown or out-of-scope tools and invalid input are refused before anything runs;
    /// the tool runs under its timeout and the context's cancel token; a panic becomes an error
    /// result; the content is capped for the model (`truncated: true` in metadata when cut).
    pub async fn execute(&self, call: &ToolCall, ctx: ToolContext) -> ToolOutput {
        let output = self.execute_uncapped(call, ctx).await;
        self.cap(output)
    }

    async fn execute_uncapped(&self, call: &ToolCall, ctx: ToolContext) -> ToolOutput {
        let Some(tool) = self.get(&call.name) else {
            return ToolOutput::error(
                ToolErrorCode::UnknownTool,
                format!("there is no tool named `{}`; available: {}", call.name, self.names().join(", ")),
            );
        };
        let scope = ctx.workspace.scope().clone();
        if !scope.allows_tool(tool.definition()) {
            return ToolOutput::error(
                ToolErrorCode::UnknownTool,
                format!("the tool `{}` is not allowed in this project's scope", call.name),
            );
        }
        if let Err(message) = validate::validate(&tool.definition().input_schema, &call.input) {
            return ToolOutput::error(ToolErrorCode::ValidationError, format!("invalid input: {message}"));
        }
        let timeout = self.timeout_for(&call.name, tool.needs(&call.input).timeout, &scope);
        let cancel = ctx.cancel.clone();
        let run = AssertUnwindSafe(tool.execute(call.input.clone(), ctx)).catch_unwind();
        let started = std::time::Instant::now();
        let output = tokio::select! {
            biased;
            () = cancel.cancelled() => ToolOutput::error(ToolErrorCode::Cancelled, "cancelled"),
            result = tokio::time::timeout(timeout, run) => match result {
                Err(_) => ToolOutput::error(
                    ToolErrorCode::ToolTimeout,
                    format!("`{}` did not finish within {} s and was stopped", call.name, timeout.as_secs()),
                ),
                Ok(Err(panic)) => {
                    let message = panic
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".to_owned());
                    tracing::error!(tool = %call.name, %message, "tool panicked");
                    ToolOutput::error(ToolErrorCode::ExecutionError, format!("`{}` failed unexpectedly: {message}", call.name))
                }
                Ok(Ok(output)) => output,
            },
        };
        let duration_ms = started.elapsed().as_millis() as u64;
        output.with_report(|report| report.duration_ms = Some(duration_ms))
    }

    fn cap(&self, mut output: ToolOutput) -> ToolOutput {
        let (content, cut) = cap_for_model(&output.content, self.config.model_output_cap);
        if let Some(cut) = cut {
            output.metadata.insert("truncated".to_owned(), true.into());
            output.metadata.insert("cut_bytes".to_owned(), (cut as u64).into());
            output.content = content;
        }
        output
    }
}
