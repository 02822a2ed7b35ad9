//! Which conversation owns a pending approval. `chat_tool_approve` carries only the tool id; the
//! bridge learns the owner from the `chat:tool-confirm` it forwards and forgets it when the
//! tool's `chat:tool-result` passes (approved, rejected, timed out or cancelled alike).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use warden_protocol::Event;

#[derive(Debug, Clone, Default)]
pub struct ApprovalRoutes {
    owners: Arc<Mutex<HashMap<String, String>>>,
}

impl ApprovalRoutes {
    pub fn observe(&self, event: &Event) {
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        match event {
            Event::ToolConfirm(e) => {
                owners.insert(e.tool_id.clone(), e.conversation_id.clone());
            }
            Event::ToolResult(e) => {
                owners.remove(&e.tool_id);
            }
            _ => {}
        }
    }

    /// The conversation waiting for an answer about `tool_id`.
    pub fn owner(&self, tool_id: &str) -> Option<String> {
        self.owners.lock().unwrap_or_else(PoisonError::into_inner).get(tool_id).cloned()
    }
}
