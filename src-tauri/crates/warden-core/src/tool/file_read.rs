//! `file_read`: the text of a file, optionally a line range, capped, with its sha256.

use std::io::{BufRead, BufReader};

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use warden_protocol::{DangerLevel, ToolCategory, ToolDefinition, ToolErrorCode};

use super::fs_util::{blocking, io_error, looks_binary};
use super::input::{definition_for, parse_input};
use super::{Tool, ToolContext, ToolOutput};
use crate::sandbox::Access;

/// Read a text file in the project. Returns its text (or the requested lines), truncated with a note
/// when it exceeds `max_bytes`. Binary files are refused. The sha256 of the whole file is in the
/// metadata.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileReadInput {
    /// Path of the file, relative to the project root (absolute paths only inside the project).
    pub path: String,
    /// First line to return, 1-based (default: 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub start_line: Option<u64>,
    /// Last line to return, inclusive (default: the end of the file).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub end_line: Option<u64>,
    /// Return at most this many bytes of text (default 100 KB).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_bytes: Option<u64>,
}

pub struct FileReadTool {
    definition: ToolDefinition,
}

impl FileReadTool {
    pub fn new() -> Self {
        Self {
            definition: definition_for::<FileReadInput>(
                "file_read",
                ToolCategory::File,
                DangerLevel::Safe,
                true,
            ),
        }
    }
}

impl Default for FileReadTool {
    fn default() -> Self {
        Self::new()
    }
}

#[async_trait]
impl Tool for FileReadTool {
    fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    async fn execute(&self, input: serde_json::Value, ctx: ToolContext) -> ToolOutput {
        let input: FileReadInput = match parse_input(input) {
            Ok(input) => input,
            Err(error) => return error,
        };
        blocking(move || read(input, &ctx)).await
    }
}

fn read(input: FileReadInput, ctx: &ToolContext) -> ToolOutput {
    let start = input.start_line.unwrap_or(1).max(1);
    let end = input.end_line.unwrap_or(u64::MAX);
    if end < start {
        return ToolOutput::error(
            ToolErrorCode::ValidationError,
            format!("invalid input: field `end_line` ({end}) is before `start_line` ({start})"),
        );
    }
    let budget = input.max_bytes.map_or(ctx.config.file_read_default_bytes, |b| b as usize);
    let resolved = match ctx.workspace.resolve(&input.path, Access::Read) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let file = match ctx.workspace.open_read(&resolved) {
        Ok(f) => f,
        Err(e) => return e.into(),
    };
    let size = match file.metadata() {
        Ok(m) if m.is_dir() => {
            return ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!("{} is a directory; use list_dir", resolved.display()),
            )
        }
        Ok(m) => m.len(),
        Err(e) => return io_error(&resolved, e),
    };
    // One pass: hash everything, keep only the requested lines within the budget.
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let mut hasher = Sha256::new();
    let mut line = Vec::new();
    let mut text: Vec<u8> = Vec::new();
    let (mut number, mut last_shown, mut cut) = (0u64, 0u64, false);
    let mut checked_binary = false;
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return io_error(&resolved, e),
        }
        if !checked_binary {
            checked_binary = true;
            if looks_binary(&line) || (line.len() < 8192 && looks_binary(reader.buffer())) {
                return ToolOutput::error(
                    ToolErrorCode::ExecutionError,
                    format!(
                        "{} is a binary file ({size} bytes); file_read only returns text",
                        resolved.display()
                    ),
                )
                .with_metadata("binary", true)
                .with_metadata("size_bytes", size);
            }
        }
        hasher.update(&line);
        number += 1;
        if number < start || number > end || cut {
            continue;
        }
        if text.len() + line.len() > budget {
            if text.is_empty() {
                // Not even the first requested line fits: give what fits of it.
                text.extend_from_slice(&line[..budget.min(line.len())]);
                last_shown = number;
            }
            cut = true;
            continue;
        }
        text.extend_from_slice(&line);
        last_shown = number;
    }
    let sha = hex::encode(hasher.finalize());
    let total = number;
    let mut content = String::from_utf8_lossy(&text).into_owned();
    let shown_range = if last_shown >= start { Some((start, last_shown)) } else { None };
    if cut {
        let next = last_shown + 1;
        content.push_str(&format!(
            "\n[truncated at {budget} bytes: showing lines {start}–{last_shown} of {total}; \
             read on with start_line={next}]"
        ));
    } else if start > total && total > 0 {
        content = format!("[the file has {total} lines; start_line {start} is past its end]");
    }
    ToolOutput::success(content)
        .with_metadata("path", resolved.display())
        .with_metadata("sha256", sha)
        .with_metadata("size_bytes", size)
        .with_metadata("total_lines", total)
        .with_metadata("lines", shown_range)
        .with_metadata("truncated", cut)
}
