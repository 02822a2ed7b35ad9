//! What each call of a conversation changed, read back from the project's log: the engine's one
//! answer for a conversation saved before results kept their report, so that reopened, its blocks
//! and turns show what the live ones showed (the window no longer places checkpoints itself).

use std::collections::{BTreeMap, BTreeSet};

use warden_protocol::{CallChanges, ContentBlock, Message};

use super::log::RecordKind;
use super::{changes, CheckpointError, CheckpointStore};

impl CheckpointStore {
    /// For each call of `conversation` named in `calls` that had a checkpoint, by its tool-call id:
    /// the checkpoint and the files between it and the snapshot taken after the call (the next
    /// snapshot when the call's own was not taken).
    pub fn call_changes(
        &self,
        conversation: &str,
        calls: &BTreeSet<String>,
    ) -> Result<BTreeMap<String, CallChanges>, CheckpointError> {
        let records = self.log.read()?;
        let mut out = BTreeMap::new();
        for (i, record) in records.iter().enumerate() {
            let ours =
                record.kind == RecordKind::Tool && record.conversation_id.as_deref() == Some(conversation);
            let Some(tool_id) = record.tool_id.as_ref().filter(|id| ours && calls.contains(*id)) else {
                continue;
            };
            let later = &records[i + 1..];
            let after = later
                .iter()
                .find(|r| r.kind == RecordKind::After && r.after.as_deref() == Some(record.id.as_str()))
                .or_else(|| later.first());
            let id = Some(record.id.clone());
            let found = match after {
                None => CallChanges { checkpoint_id: id, files: Vec::new(), error: None },
                Some(after) => match changes::between(&self.git, &record.tree, &after.tree) {
                    Ok(files) => CallChanges { checkpoint_id: id, files, error: None },
                    Err(error) => CallChanges {
                        checkpoint_id: id,
                        files: Vec::new(),
                        error: Some(format!("Could not tell what this call changed: {error}")),
                    },
                },
            };
            out.insert(tool_id.clone(), found);
        }
        Ok(out)
    }
}

/// Gives each result of `history` that does not say what its call changed the changes the log
/// knows (`known`, from [`CheckpointStore::call_changes`] of [`results_without_changes`]); a
/// result that says it is left as is.
pub fn fill_call_changes(history: &mut [Message], known: &BTreeMap<String, CallChanges>) {
    for block in history.iter_mut().flat_map(|m| m.content.iter_mut()) {
        let ContentBlock::ToolResult(result) = block else { continue };
        if result.report.as_ref().is_some_and(|r| r.changes.is_some()) {
            continue;
        }
        if let Some(changes) = known.get(&result.tool_use_id) {
            result.report.get_or_insert_with(Default::default).changes = Some(changes.clone());
        }
    }
}

/// The calls of `history` whose results do not say what they changed: those saved before results
/// kept their report (and those of tools that change nothing, which the log does not name).
pub fn results_without_changes(history: &[Message]) -> BTreeSet<String> {
    history
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|b| match b {
            ContentBlock::ToolResult(r) if r.report.as_ref().is_none_or(|r| r.changes.is_none()) => {
                Some(r.tool_use_id.clone())
            }
            _ => None,
        })
        .collect()
}
