//! What a tool gives back: text for the model, whether it failed and why, a typed report for the
//! window and an open bag of metadata for logs and scripts.

use serde_json::{Map, Value};
use warden_protocol::{ToolErrorCode, ToolReport};

use crate::sandbox::SandboxError;

#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// What the model reads (capped by the registry).
    pub content: String,
    pub is_error: bool,
    /// Why it failed; `Some(SandboxViolation)` tells the loop to stop.
    pub code: Option<ToolErrorCode>,
    /// What the window renders beside the text (how a command ended, a diff, search hits…);
    /// boxed, as it is large and most results fill little of it.
    pub report: Box<ToolReport>,
    /// Other facts for the logs and scripts (sha256, sizes, truncated, …).
    pub metadata: Map<String, Value>,
    /// Images for models that take them (an MCP tool's); `content` describes them for the rest.
    pub images: Vec<warden_protocol::ToolImage>,
}

impl ToolOutput {
    pub fn success(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            is_error: false,
            code: None,
            report: Box::default(),
            metadata: Map::new(),
            images: Vec::new(),
        }
    }

    pub fn error(code: ToolErrorCode, message: impl Into<String>) -> Self {
        Self {
            content: message.into(),
            is_error: true,
            code: Some(code),
            report: Box::default(),
            metadata: Map::new(),
            images: Vec::new(),
        }
    }

    /// Fill in part of the report.
    pub fn with_report(mut self, fill: impl FnOnce(&mut ToolReport)) -> Self {
        fill(&mut self.report);
        self
    }

    /// Add one metadata entry (anything serializable; a value that cannot be serialized is skipped).
    pub fn with_metadata(mut self, key: &str, value: impl serde::Serialize) -> Self {
        if let Ok(value) = serde_json::to_value(value) {
            self.metadata.insert(key.to_owned(), value);
        }
        self
    }
}

impl From<SandboxError> for ToolOutput {
    fn from(error: SandboxError) -> Self {
        let code = match &error {
            SandboxError::Violation { .. } => ToolErrorCode::SandboxViolation,
            SandboxError::NotWritable { .. } => ToolErrorCode::PermissionDenied,
            SandboxError::NotFound { .. } => ToolErrorCode::FileNotFound,
            SandboxError::Io { source, .. } if source.kind() == std::io::ErrorKind::PermissionDenied => {
                ToolErrorCode::PermissionDenied
            }
            SandboxError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                ToolErrorCode::FileNotFound
            }
            _ => ToolErrorCode::ExecutionError,
        };
        let reason = match &error {
            SandboxError::Violation { reason, .. } | SandboxError::NotWritable { reason, .. } => {
                Some(reason.clone())
            }
            _ => None,
        };
        let out = ToolOutput::error(code, error.to_string());
        match reason {
            Some(reason) => out.with_metadata("reason", reason),
            None => out,
        }
    }
}
