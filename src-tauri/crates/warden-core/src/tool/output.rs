//! What a tool gives back: text for the model, whether it failed and why, metadata for the UI.

use serde_json::{Map, Value};
use warden_protocol::ToolErrorCode;

use crate::sandbox::SandboxError;

#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// What the model reads (capped by the registry).
    pub content: String,
    pub is_error: bool,
    /// Why it failed; `Some(SandboxViolation)` tells the loop to stop.
    pub code: Option<ToolErrorCode>,
    /// Structured facts for the UI and the logs (sha256, exit code, truncated, …).
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
            metadata: Map::new(),
            images: Vec::new(),
        }
    }

    pub fn error(code: ToolErrorCode, message: impl Into<String>) -> Self {
        Self {
            content: message.into(),
            is_error: true,
            code: Some(code),
            metadata: Map::new(),
            images: Vec::new(),
        }
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
