//! The store's record of checkpoints: one JSON line per snapshot, appended. A line torn by a kill
//! is skipped when read; the snapshots themselves live in the shadow repository.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use warden_protocol::{CheckpointInfo, CheckpointKind, LeftOutFile};

use super::CheckpointError;

/// Why a snapshot was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum RecordKind {
    Tool,
    TurnEnd,
    Restore,
    Manual,
    /// The state right after a tool call or a restore (`after` names the checkpoint before it).
    /// Not listed: it tells what the call changed.
    After,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Record {
    pub id: String,
    pub created_at: String,
    /// The snapshot: a tree of the shadow repository.
    pub tree: String,
    pub kind: RecordKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// Files that differ from the snapshot recorded before this one.
    #[serde(default)]
    pub changed_since_previous: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOutFile>,
}

pub(super) struct Log {
    path: PathBuf,
}

impl Log {
    pub fn new(path: PathBuf) -> Self {
        Self { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn append(&self, record: &Record) -> Result<(), CheckpointError> {
        let mut line = serde_json::to_vec(record).map_err(|e| CheckpointError::io(&self.path, e.into()))?;
        line.push(b'\n');
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| CheckpointError::io(&self.path, e))?;
        // One write of the whole line: appends from two processes never interleave inside it.
        file.write_all(&line).map_err(|e| CheckpointError::io(&self.path, e))
    }

    /// Every readable record, oldest first.
    pub fn read(&self) -> Result<Vec<Record>, CheckpointError> {
        let text = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(CheckpointError::io(&self.path, e)),
        };
        Ok(text
            .split(|b| *b == b'\n')
            .filter(|line| !line.is_empty())
            .filter_map(|line| serde_json::from_slice(line).ok())
            .collect())
    }

    /// Replace the whole log (retention), atomically.
    pub fn rewrite(&self, records: &[Record]) -> Result<(), CheckpointError> {
        let mut bytes = Vec::new();
        for record in records {
            if let Ok(line) = serde_json::to_vec(record) {
                bytes.extend_from_slice(&line);
                bytes.push(b'\n');
            }
        }
        crate::config::write_atomic(&self.path, &bytes).map_err(|e| CheckpointError::io(&self.path, e))
    }
}

/// The checkpoints as listed: every record but the "after" ones, each with the number of files
/// that differ between it and the snapshot recorded next.
pub(super) fn listed(records: &[Record]) -> Vec<CheckpointInfo> {
    records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.kind != RecordKind::After)
        .map(|(i, r)| CheckpointInfo {
            id: r.id.clone(),
            created_at: r.created_at.clone(),
            conversation_id: r.conversation_id.clone(),
            message_id: r.message_id.clone(),
            tool_id: r.tool_id.clone(),
            tool_name: r.tool_name.clone(),
            kind: match r.kind {
                RecordKind::Tool | RecordKind::After => CheckpointKind::Tool,
                RecordKind::TurnEnd => CheckpointKind::TurnEnd,
                RecordKind::Restore => CheckpointKind::Restore,
                RecordKind::Manual => CheckpointKind::Manual,
            },
            files_changed: records.get(i + 1).map_or(0, |next| next.changed_since_previous),
            skipped: r.skipped.clone(),
            left_out: r.left_out.clone(),
        })
        .collect()
}
