//! The MCP tools of one session, kept current. A server may change its tool list while a
//! conversation runs (`notifications/tools/list_changed`), and a server that died and was started
//! again may come back with other tools; the session asks [`McpToolset::changed`] before each
//! request to the model. While nothing changed that is a look at two counters per server; when
//! something did, that server's tools are read again (listed already when the server said so,
//! `tool_list.rs`, or waited for while that list is in flight).

use std::sync::{Arc, Weak};

use super::connection::Connection;
use super::slot::ServerSlot;
use super::tool::McpTool;
use super::tool_list::LIST_TIME;

/// What a session last read from one server.
#[derive(Default)]
struct Seen {
    /// The connection the tools came from (a `Weak` keeps its address from being reused, so a
    /// restarted server is never mistaken for the old one).
    connection: Weak<Connection>,
    /// Its listing count before they were read (see [`Connection::tools_generation`]).
    listed: u64,
    tools: Vec<Arc<McpTool>>,
}

pub struct McpToolset {
    slots: Vec<Arc<ServerSlot>>,
    seen: tokio::sync::Mutex<Vec<Seen>>,
}

impl McpToolset {
    /// The servers of `slots`, started (all at once) when not running, and their tools read.
    pub(super) async fn new(slots: Vec<Arc<ServerSlot>>) -> Self {
        let seen = futures::future::join_all(slots.iter().map(|slot| async move {
            match slot.connection().await {
                Ok(connection) => read(slot, &connection).await,
                Err(_) => Seen::default(),
            }
        }))
        .await;
        Self { slots, seen: tokio::sync::Mutex::new(seen) }
    }

    /// Every server's tools, as last read.
    pub async fn tools(&self) -> Vec<Arc<McpTool>> {
        self.seen.lock().await.iter().flat_map(|seen| seen.tools.iter().cloned()).collect()
    }

    /// Every server's tools when any server's list differs from what was last read; `None` when
    /// none does. A server that is not running keeps the tools it had (a call starts it again, or
    /// says why it cannot).
    pub async fn changed(&self) -> Option<Vec<Arc<McpTool>>> {
        let mut seen = self.seen.lock().await;
        let mut changed = false;
        for (slot, last) in self.slots.iter().zip(seen.iter_mut()) {
            let Some(connection) = slot.running().await else { continue };
            let (listed, stale) = connection.tools_generation();
            let same_connection = last.connection.upgrade().is_some_and(|c| Arc::ptr_eq(&c, &connection));
            if same_connection && listed == last.listed && !stale {
                continue;
            }
            let Ok(now) = tokio::time::timeout(LIST_TIME, read(slot, &connection)).await else {
                tracing::warn!(server = %slot.name(), "the MCP server did not list its tools in time");
                continue;
            };
            let definitions = |tools: &[Arc<McpTool>]| {
                tools.iter().map(|t| crate::tool::Tool::definition(t.as_ref()).clone()).collect::<Vec<_>>()
            };
            if definitions(&now.tools) != definitions(&last.tools) {
                tracing::info!(server = %slot.name(), tools = now.tools.len(), "the MCP server's tools changed");
                changed = true;
            }
            *last = now;
        }
        changed.then(|| seen.iter().flat_map(|seen| seen.tools.iter().cloned()).collect())
    }
}

/// `connection`'s tools now, with the listing count read first (a change while they are read is
/// then seen next time, never lost).
async fn read(slot: &Arc<ServerSlot>, connection: &Arc<Connection>) -> Seen {
    let (listed, _) = connection.tools_generation();
    let tools = super::tool::tools_of(slot, connection).await.into_iter().map(Arc::new).collect();
    Seen { connection: Arc::downgrade(connection), listed, tools }
}
