//! One server's tool list, kept current. When the server says the list changed
//! (`notifications/tools/list_changed`), it is listed again at once, in the background, so the
//! model's next request finds it read instead of waiting for it. A burst of notices gives at most
//! two lists: the one in flight, and one more for the notices that came after it was asked for. A
//! reader that comes while a list is in flight waits for it. A list in the background that fails or
//! takes longer than [`LIST_TIME`] leaves the tools as they were until the server announces a
//! change again: a server that never answers holds the model's next request up once, no more.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::Tool as McpToolDef;
use rmcp::service::{Peer, RoleClient, ServiceError};

/// The longest a list read in the background may take, and the longest a session waits for one
/// before the model's next request (`toolset.rs`).
pub const LIST_TIME: Duration = Duration::from_secs(10);

#[derive(Default)]
pub struct ToolList {
    tools: Mutex<Vec<McpToolDef>>,
    /// How many times the list was read: a session's toolset compares it with the count it saw.
    listed: AtomicU64,
    /// A change was announced that no list asked for since covers.
    stale: AtomicBool,
    /// Held while a list is asked for and stored: one at a time, and readers wait for it.
    listing: tokio::sync::Mutex<()>,
    /// A background task is (about to be) listing again.
    relisting: AtomicBool,
}

impl ToolList {
    /// The tools as last read, first read again if a change was announced since.
    pub async fn current(&self, peer: &Peer<RoleClient>) -> Result<Vec<McpToolDef>, ServiceError> {
        self.list_if_stale(peer).await?;
        Ok(self.read())
    }

    /// Read the list now (the first time, after the handshake).
    pub async fn list(&self, peer: &Peer<RoleClient>) -> Result<(), ServiceError> {
        let _one = self.listing.lock().await;
        self.list_locked(peer).await
    }

    /// How many times the list was read, and whether a newer one is announced or on its way.
    pub fn generation(&self) -> (u64, bool) {
        let pending = self.stale.load(Ordering::SeqCst) || self.listing.try_lock().is_err();
        (self.listed.load(Ordering::SeqCst), pending)
    }

    /// The server said the list changed: list it again in the background.
    pub fn announce_change(self: &Arc<Self>, peer: Peer<RoleClient>) {
        self.stale.store(true, Ordering::SeqCst);
        if self.relisting.swap(true, Ordering::SeqCst) {
            return; // the task on it sees `stale` when it next looks
        }
        let list = self.clone();
        tokio::spawn(async move {
            loop {
                let result = tokio::time::timeout(LIST_TIME, list.list_if_stale(&peer))
                    .await
                    .unwrap_or(Err(ServiceError::Timeout { timeout: LIST_TIME }));
                list.relisting.store(false, Ordering::SeqCst);
                if let Err(error) = &result {
                    tracing::warn!(%error, "could not list the MCP server's changed tools");
                    return;
                }
                // A notice that came after the list was asked for, while this task was still
                // marked as running, left it to this task.
                if !list.stale.load(Ordering::SeqCst) || list.relisting.swap(true, Ordering::SeqCst) {
                    return;
                }
            }
        });
    }

    fn read(&self) -> Vec<McpToolDef> {
        self.tools.lock().map(|tools| tools.clone()).unwrap_or_default()
    }

    async fn list_if_stale(&self, peer: &Peer<RoleClient>) -> Result<(), ServiceError> {
        let _one = self.listing.lock().await;
        if self.stale.load(Ordering::SeqCst) {
            self.list_locked(peer).await?;
        }
        Ok(())
    }

    /// Ask for the list and keep it; `listing` is held. A change announced after the request goes
    /// out sets `stale` again, and is listed next.
    async fn list_locked(&self, peer: &Peer<RoleClient>) -> Result<(), ServiceError> {
        self.stale.store(false, Ordering::SeqCst);
        let listed = peer.list_all_tools().await?;
        if let Ok(mut tools) = self.tools.lock() {
            *tools = listed;
        }
        self.listed.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}
