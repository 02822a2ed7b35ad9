//! `file_read`: the text of a file, optionally a line range, capped, with its sha256.

use std::io::{BufRead, BufReader};

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use warden_protocol::{DangerLevel, ToolCategory, ToolErrorCode};

use crate::sandbox::Access;
use crate::tool::fs_util::{io_error, looks_binary};
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};

/// Read a text file in the project. Returns its text (or the requested lines), truncated with a note
/// when it exceeds `max_bytes`. An image (PNG, JPEG, GIF, WebP) is returned as an image, scaled
/// down, to models that take images. Other binary files are refused. The sha256 of the whole file is in the
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

pub struct FileReadTool;

#[async_trait]
impl TypedTool for FileReadTool {
    type Input = FileReadInput;
    const NAME: &'static str = "file_read";
    const LABEL: &'static str = "Read files";
    const CATEGORY: ToolCategory = ToolCategory::FileRead;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    /// What it reads, for the permission rules.
    fn needs(&self, input: &FileReadInput) -> Needs {
        FileAccess::read(input.path.clone())
    }

    async fn run(&self, input: FileReadInput, ctx: ToolContext) -> ToolOutput {
        // Files are read on a blocking thread; an image is taken in here, on the call's own time,
        // so the call's timeout abandons its decoding too.
        match tokio::task::spawn_blocking(move || read(input, &ctx)).await {
            Ok(Found::Answer(output)) => output,
            Ok(Found::Image(image)) => image.take_in().await,
            Err(e) => {
                ToolOutput::error(ToolErrorCode::ExecutionError, format!("the file operation failed: {e}"))
            }
        }
    }
}

/// What reading the file found: the answer, or an image to take in.
enum Found {
    Answer(ToolOutput),
    Image(ImageFile),
}

impl From<ToolOutput> for Found {
    fn from(output: ToolOutput) -> Self {
        Found::Answer(output)
    }
}

#[allow(clippy::too_many_lines)] // One read: resolve, open through the handle, detect, slice and cap.
fn read(input: FileReadInput, ctx: &ToolContext) -> Found {
    let start = input.start_line.unwrap_or(1).max(1);
    let end = input.end_line.unwrap_or(u64::MAX);
    if end < start {
        return ToolOutput::error(
            ToolErrorCode::ValidationError,
            format!("invalid input: field `end_line` ({end}) is before `start_line` ({start})"),
        )
        .into();
    }
    let budget = input.max_bytes.map_or(ctx.config.file_read_default_bytes, |b| b as usize);
    let resolved = match ctx.workspace.resolve(&input.path, Access::Read) {
        Ok(r) => r,
        Err(e) => return ToolOutput::from(e).into(),
    };
    let file = match ctx.workspace.open_read(&resolved) {
        Ok(f) => f,
        Err(e) => return ToolOutput::from(e).into(),
    };
    let size = match file.metadata() {
        Ok(m) if m.is_dir() => {
            return ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!("{} is a directory; use list_dir", resolved.display()),
            )
            .into()
        }
        Ok(m) => m.len(),
        Err(e) => return io_error(&resolved, e).into(),
    };
    // One pass over fixed-size blocks: hash everything, keep only the requested lines within the
    // budget. Memory stays bounded whatever the file's shape (a 1.5 GB line is never held whole).
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let mut hasher = Sha256::new();
    let mut text: Vec<u8> = Vec::new();
    // `number` is the line being read (1-based); `at_line_start` whether none of it was seen yet;
    // `line_began_at` where it began in `text`, so a line that does not fit whole is taken back.
    let (mut number, mut last_shown, mut cut, mut at_line_start) = (1u64, 0u64, false, true);
    let mut line_began_at = 0usize;
    let mut first_block = true;
    loop {
        let block = match reader.fill_buf() {
            Ok([]) => break,
            Ok(block) => block,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return io_error(&resolved, e).into(),
        };
        if first_block && crate::images::media_type(block).is_some() {
            return read_image(&resolved, size, reader);
        }
        if std::mem::take(&mut first_block) && looks_binary(block) {
            return ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!(
                    "{} is a binary file ({size} bytes); file_read only returns text",
                    resolved.display()
                ),
            )
            .with_metadata("binary", true)
            .with_metadata("size_bytes", size)
            .into();
        }
        hasher.update(block);
        let consumed = block.len();
        for piece in block.split_inclusive(|&b| b == b'\n') {
            if std::mem::take(&mut at_line_start) {
                line_began_at = text.len();
            }
            let wanted = (start..=end).contains(&number) && !cut;
            if wanted {
                let room = budget.saturating_sub(text.len());
                if piece.len() <= room {
                    text.extend_from_slice(piece);
                } else if number == start {
                    // Not even the first requested line fits: give what fits of it.
                    text.extend_from_slice(&piece[..room]);
                    last_shown = number;
                    cut = true;
                } else {
                    text.truncate(line_began_at);
                    cut = true;
                }
            }
            if piece.last() == Some(&b'\n') {
                if wanted && !cut {
                    last_shown = number;
                }
                number += 1;
                at_line_start = true;
            }
        }
        reader.consume(consumed);
    }
    // A last line without a newline counts too.
    let total = if at_line_start { number - 1 } else { number };
    if !at_line_start && !cut && (start..=end).contains(&number) {
        last_shown = number;
    }
    let sha = hex::encode(hasher.finalize());
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
        .into()
}

/// An image file: returned as an image (scaled down to what models take) with a line saying what
/// it is; models that do not take images get only that line. Its bytes are read here; it is taken
/// in ([`ImageFile::take_in`]) off the blocking thread.
fn read_image(
    resolved: &crate::sandbox::ResolvedPath,
    size: u64,
    mut reader: BufReader<impl std::io::Read>,
) -> Found {
    use std::io::Read;
    if size > crate::images::MAX_INPUT_BYTES as u64 {
        return ToolOutput::error(
            ToolErrorCode::ExecutionError,
            format!(
                "{} is an image of {size} bytes; file_read returns images up to {} bytes",
                resolved.display(),
                crate::images::MAX_INPUT_BYTES
            ),
        )
        .into();
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    if let Err(e) = reader.read_to_end(&mut bytes) {
        return io_error(resolved, e).into();
    }
    let sha = hex::encode(Sha256::digest(&bytes));
    Found::Image(ImageFile { shown: resolved.display(), size, sha, bytes })
}

/// An image read from the project, to be taken in by the bounded decoder.
struct ImageFile {
    /// Its path as the model named it.
    shown: String,
    size: u64,
    sha: String,
    bytes: Vec<u8>,
}

impl ImageFile {
    async fn take_in(self) -> ToolOutput {
        let ImageFile { shown, size, sha, bytes } = self;
        match crate::images::prepare(bytes).await {
            Ok(prepared) => {
                let scaled = if prepared.scaled { ", scaled down to be sent" } else { "" };
                let mut output = ToolOutput::success(format!(
                    "{shown} is an image ({}, {size} bytes{scaled}); it is attached.",
                    prepared.describe()
                ))
                .with_metadata("sha256", sha)
                .with_metadata("image", true)
                .with_metadata("size_bytes", size);
                output.images.push(prepared.image);
                output
            }
            Err(error) => ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!("{shown} looks like an image but {error}"),
            )
            .with_metadata("size_bytes", size),
        }
    }
}
