//! Tools that can change while a session runs: its MCP servers' (`mcp::McpToolset`). Before each
//! request to the model the session asks its source, and when the tools changed the runner offers
//! the new ones from then on: the model sees a tool a server added mid-conversation in its very
//! next request, and a removed one is no longer offered.

use async_trait::async_trait;

use crate::scope::Scope;
use crate::tool::ToolRegistry;

#[async_trait]
pub trait ToolSource: Send + Sync {
    /// The session's tools and the scope they are offered in, when they changed since the last
    /// call; `None` when they did not.
    async fn changed(&self) -> Option<(ToolRegistry, Scope)>;
}
