//! An MCP server's tool as one of the session's tools: offered as `mcp__<server>__<tool>`, dangerous
//! unless the user allowed it (a server's annotations are hints from an untrusted party and are not
//! read), called through the same registry and tool runner as the built-in tools.

use std::sync::Arc;

use async_trait::async_trait;
use rmcp::model::Tool as McpToolDef;
use serde_json::Value;
use warden_protocol::{DangerLevel, McpToolChoice, ToolCategory, ToolDefinition, ToolErrorCode};

use super::connection::Connection;
use super::names::qualified;
use super::result::to_output;
use super::slot::ServerSlot;
use crate::tool::{Needs, Timeout, Tool, ToolContext, ToolOutput, MCP_TOOL_TIMEOUT};

/// The longest tool description passed on to the model.
const MAX_DESCRIPTION: usize = 2000;

pub struct McpTool {
    definition: ToolDefinition,
    label: String,
    /// The server's own name for the tool.
    tool: String,
    choice: Option<McpToolChoice>,
    slot: Arc<ServerSlot>,
}

impl McpTool {
    pub fn new(slot: Arc<ServerSlot>, listed: &McpToolDef, choice: Option<McpToolChoice>) -> Self {
        let server = slot.name().to_owned();
        let description: String =
            listed.description.as_deref().unwrap_or("").chars().take(MAX_DESCRIPTION).collect();
        let mut schema = Value::Object((*listed.input_schema).clone());
        if let Some(object) = schema.as_object_mut() {
            object.entry("type").or_insert_with(|| Value::from("object"));
        }
        let danger =
            if choice == Some(McpToolChoice::Allow) { DangerLevel::Safe } else { DangerLevel::Dangerous };
        Self {
            definition: ToolDefinition {
                name: qualified(&server, &listed.name),
                description: format!("(from the MCP server `{server}`) {description}"),
                input_schema: schema,
                category: ToolCategory::Mcp,
                danger,
                parallel: false,
                // A server cannot say its tool changes only the conversation.
                conversation_only: false,
            },
            label: format!("{} ({server})", listed.title.as_deref().unwrap_or(&listed.name)),
            tool: listed.name.to_string(),
            choice,
            slot,
        }
    }

    /// Whether the user chose to be asked before every call of it.
    pub fn always_asks(&self) -> bool {
        self.choice == Some(McpToolChoice::Ask)
    }

    /// What any call of a server's tool needs: time. A server's tool may wait for a form the user
    /// fills in, or do a long job: as long as the form waits (Stop ends it sooner). Its commands
    /// run in the box the server was started in, not in one given per call.
    pub fn call_needs() -> Needs {
        Needs { timeout: Timeout::Fixed(MCP_TOOL_TIMEOUT), ..Needs::default() }
    }
}

#[async_trait]
impl Tool for McpTool {
    fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    fn label(&self) -> &str {
        &self.label
    }

    fn mcp_origin(&self) -> Option<warden_protocol::McpOrigin> {
        Some(warden_protocol::McpOrigin { server: self.slot.name().to_owned(), tool: self.tool.clone() })
    }

    fn needs(&self, _input: &Value) -> Needs {
        Self::call_needs()
    }

    async fn execute(&self, input: Value, ctx: ToolContext) -> ToolOutput {
        let arguments = match input {
            Value::Object(map) => map,
            Value::Null => serde_json::Map::new(),
            _ => return ToolOutput::error(ToolErrorCode::ValidationError, "the input must be a JSON object"),
        };
        let server = self.slot.name().to_owned();
        let connection = match self.slot.connection().await {
            Ok(connection) => connection,
            Err(why) => {
                return ToolOutput::error(
                    ToolErrorCode::ExecutionError,
                    format!("the MCP server `{server}` {why}"),
                )
            }
        };
        let output = match connection.call(&self.tool, arguments, ctx.output.clone()).await {
            Ok(result) => to_output(&result).await.with_metadata("mcp_server", &server),
            Err(error) => ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!("the MCP server `{server}`: {error}"),
            )
            .with_metadata("mcp_server", &server),
        };
        // A local server's block says whether the program runs in the sandbox (one the user put
        // outside it is shown as not contained on every call).
        match connection.contained() {
            Some(contained) => output.with_report(|report| {
                report.sandbox = Some(warden_protocol::BoxUse { contained, summary: None });
            }),
            None => output,
        }
    }
}

/// The tools `connection` lists, as session tools, without those the user denied.
pub(super) async fn tools_of(slot: &Arc<ServerSlot>, connection: &Connection) -> Vec<McpTool> {
    let listed = match connection.tools().await {
        Ok(listed) => listed,
        Err(error) => {
            tracing::warn!(server = %slot.name(), %error, "could not list the MCP server's tools");
            return Vec::new();
        }
    };
    listed
        .iter()
        .filter_map(|tool| {
            let choice = slot.spec().tools.get(tool.name.as_ref()).copied();
            (choice != Some(warden_protocol::McpToolChoice::Deny))
                .then(|| McpTool::new(slot.clone(), tool, choice))
        })
        .collect()
}
