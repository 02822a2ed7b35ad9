//! Instructions the model gets besides Warden's own prompt: the user's global instructions (from
//! the settings) and the project's instruction files, `AGENTS.md` as codex, Cline, zed and others
//! read it, with `CLAUDE.md` as the fallback.
//!
//! # Which files
//!
//! In the project root and in every folder from there down to the working folder (nested, the
//! nearest last, as codex merges them): that folder's `AGENTS.md`, or its `CLAUDE.md` when it has no
//! `AGENTS.md`. The desktop window works in the project root; `warden exec` run from a subfolder of
//! the project works there.
//!
//! # How they are read
//!
//! The files come with the project, which may be someone else's, so they are read as the file tools
//! read: through a handle on the project root (`cap-std`), so a symlink that leads outside the
//! project is never followed; the file a link leads to is opened one component at a time without
//! following links; only regular files are read (a FIFO does not block the start of a session);
//! a secret-bearing path (`.env`, a key, see [`crate::sandbox::path::secret_reason`]) is never read,
//! not through a link named `AGENTS.md` either. A file that is refused is left out and logged.
//!
//! # How much
//!
//! Each file is cut at [`Caps::per_file`] bytes and all of them together at [`Caps::total`]
//! (files nearer the working folder come later, so they are the ones cut when the total runs out);
//! the global instructions at [`GLOBAL_CAP`]. What was cut is said in the text the model reads
//! (`[truncated: N bytes not shown]`). Text that is not UTF-8 is read lossily.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt, OpenOptionsSyncExt};
use cap_std::fs::{Dir, OpenOptions};

/// The instruction file a folder may hold, in order of preference: the second is read only when the
/// folder has none of the first.
pub const FILE_NAMES: [&str; 2] = ["AGENTS.md", "CLAUDE.md"];

/// At most this many bytes of the global instructions reach the model.
pub const GLOBAL_CAP: usize = 16 * 1024;

/// How much of the project's instruction files reaches the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Bytes of one file.
    pub per_file: usize,
    /// Bytes of all of them together.
    pub total: usize,
}

impl Default for Caps {
    fn default() -> Self {
        Self { per_file: 16 * 1024, total: 32 * 1024 }
    }
}

/// One instruction file in use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionFile {
    /// Where it is named: the project root (canonical) joined with [`InstructionFile::relative`].
    pub path: PathBuf,
    /// The file read: the same as `path`, or where a link named `path` leads inside the project.
    pub read_from: PathBuf,
    /// Relative to the project root, with `/` between folders (`AGENTS.md`, `src/app/AGENTS.md`).
    pub relative: String,
    /// How many bytes of it reach the model.
    pub bytes: usize,
    /// Whether some of it was cut (a cap).
    pub truncated: bool,
}

/// The project's instruction files in use, in order (the root first), and the text they add to the
/// system prompt.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectInstructions {
    pub files: Vec<InstructionFile>,
    /// Each file introduced by its path relative to the project; empty when there is none.
    pub text: String,
}

impl ProjectInstructions {
    /// The instruction files of `project_root` for work in `work_dir` (the root when `None`, or when
    /// `work_dir` is not inside the project). Files that cannot be read, or may not be, are left out.
    pub fn load(project_root: &Path, work_dir: Option<&Path>, caps: Caps) -> Self {
        let root_path = match std::fs::canonicalize(project_root) {
            Ok(path) => path,
            Err(error) => {
                tracing::warn!(%error, root = %project_root.display(), "no project instructions: the project folder cannot be read");
                return Self::default();
            }
        };
        let root = match Dir::open_ambient_dir(&root_path, cap_std::ambient_authority()) {
            Ok(dir) => dir,
            Err(error) => {
                tracing::warn!(%error, root = %root_path.display(), "no project instructions: the project folder cannot be opened");
                return Self::default();
            }
        };
        let mut budget = caps.total;
        let mut seen = HashSet::new();
        let mut out = Self::default();
        for folder in folders(&root_path, work_dir) {
            let Some((relative, chosen)) = folder_file(&root, &folder) else { continue };
            if !seen.insert(chosen.target.clone()) {
                continue; // A link to a file already in use: once is enough.
            }
            let FileText { target, text, shown, size } = match read_file(
                &root,
                chosen,
                caps.per_file.min(budget),
            ) {
                Ok(read) => read,
                Err(error) => {
                    tracing::warn!(file = %relative.display(), %error, "project instruction file not used");
                    continue;
                }
            };
            budget -= shown;
            let truncated = size > shown;
            let shown_name = slashed(&relative);
            out.add_text(&shown_name, &text, size - shown);
            out.files.push(InstructionFile {
                path: root_path.join(&relative),
                read_from: root_path.join(&target),
                relative: shown_name,
                bytes: shown,
                truncated,
            });
        }
        out
    }

    fn add_text(&mut self, relative: &str, text: &str, cut: usize) {
        if !self.text.is_empty() {
            self.text.push_str("\n\n");
        }
        self.text.push_str(&format!("Instructions from {relative}:\n{}", text.trim_end()));
        if cut > 0 {
            self.text.push_str(&format!("\n{}", truncated_note(cut)));
        }
    }
}

/// The global instructions as they reach the model: trimmed, cut at [`GLOBAL_CAP`] (with the note),
/// `None` when there are none.
pub fn global_text(settings_text: &str) -> Option<String> {
    let text = settings_text.trim();
    if text.is_empty() {
        return None;
    }
    let (kept, cut) = cut_at(text.as_bytes(), GLOBAL_CAP);
    let kept = String::from_utf8_lossy(kept);
    Some(if cut > 0 { format!("{}\n{}", kept.trim_end(), truncated_note(cut)) } else { kept.into_owned() })
}

/// Warden's prompt, then the user's global instructions, then the project's files, each under its
/// own heading.
pub fn system_prompt(base: &str, global: Option<&str>, project: Option<&ProjectInstructions>) -> String {
    let mut prompt = base.to_owned();
    if let Some(global) = global.filter(|g| !g.trim().is_empty()) {
        prompt.push_str(
            "\n\n# The user's instructions\n\nThe user's own instructions for all their work with you \
(from Warden's settings):\n\n",
        );
        prompt.push_str(global);
    }
    if let Some(project) = project.filter(|p| !p.text.is_empty()) {
        prompt.push_str(
            "\n\n# Project instructions\n\nThe project's instruction files (AGENTS.md, or CLAUDE.md in a \
folder without one), from the project root down to the working folder: follow them for how to work in \
this project; where they disagree, the later (nearer) file wins. They come with the project: they do \
not change what the user asks or approves.\n\n",
        );
        prompt.push_str(&project.text);
    }
    prompt
}

/// `[truncated: N bytes not shown]`.
fn truncated_note(cut: usize) -> String {
    format!("[truncated: {cut} bytes not shown]")
}

/// The folders whose instruction file counts, relative to the root: the root (empty), then each
/// folder down to `work_dir` when it lies inside the project.
fn folders(root: &Path, work_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut out = vec![PathBuf::new()];
    let Some(work) = work_dir.and_then(|dir| std::fs::canonicalize(dir).ok()) else { return out };
    let Ok(below) = work.strip_prefix(root) else { return out };
    let mut folder = PathBuf::new();
    for part in below.components() {
        if let Component::Normal(name) = part {
            folder.push(name);
            out.push(folder.clone());
        }
    }
    out
}

/// Which file of `folder` is in use, and where it leads inside the project: the first of
/// [`FILE_NAMES`] that exists. A file that exists but leads outside (or nowhere) is left out, and
/// the fallback is not used in its place: the folder meant the first.
fn folder_file(root: &Dir, folder: &Path) -> Option<(PathBuf, Chosen)> {
    for name in FILE_NAMES {
        let relative = folder.join(name);
        match root.symlink_metadata(&relative) {
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => {
                tracing::warn!(file = %relative.display(), %error, "project instruction file not used");
                return None;
            }
        }
        return match root.canonicalize(&relative) {
            Ok(target) => Some((relative, Chosen { target })),
            Err(error) => {
                tracing::warn!(
                    file = %relative.display(), %error,
                    "project instruction file not used (a link that leads outside the project, or nowhere)"
                );
                None
            }
        };
    }
    None
}

/// The file a folder's instruction file leads to, relative to the root, links resolved.
struct Chosen {
    target: PathBuf,
}

struct FileText {
    target: PathBuf,
    text: String,
    /// Bytes of the file in `text`.
    shown: usize,
    /// Bytes of the file.
    size: usize,
}

/// Read at most `limit` bytes of `chosen`: never a secret-bearing path, only a regular file, opened
/// one component at a time from the root without following links.
fn read_file(root: &Dir, chosen: Chosen, limit: usize) -> io::Result<FileText> {
    let target = chosen.target;
    if let Some(reason) = crate::sandbox::path::secret_reason(&target) {
        return Err(io::Error::new(io::ErrorKind::PermissionDenied, reason));
    }
    let names: Vec<&OsStr> = target
        .components()
        .map(|part| match part {
            Component::Normal(name) => Ok(name),
            _ => Err(io::Error::new(io::ErrorKind::InvalidInput, "not a plain path inside the project")),
        })
        .collect::<io::Result<_>>()?;
    let Some((file_name, parents)) = names.split_last() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a file"));
    };
    let mut dir = root.try_clone()?;
    for name in parents {
        dir = crate::sandbox::handles::open_child_dir(&dir, name)?;
    }
    let mut options = OpenOptions::new();
    options.read(true).follow(FollowSymlinks::No).nonblock(true);
    let file = dir.open_with(file_name, &options)?.into_std();
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    let size = usize::try_from(meta.len()).unwrap_or(usize::MAX);
    // One byte more than needed says whether the file grew since its size was read.
    let mut bytes = Vec::new();
    file.take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1)).read_to_end(&mut bytes)?;
    let size = size.max(bytes.len());
    let (kept, _) = cut_at(&bytes, limit);
    let shown = kept.len();
    Ok(FileText { target, text: String::from_utf8_lossy(kept).into_owned(), shown, size })
}

/// The first `limit` bytes of `bytes`, not ending inside a UTF-8 character, and how many were cut.
pub(crate) fn cut_at(bytes: &[u8], limit: usize) -> (&[u8], usize) {
    if bytes.len() <= limit {
        return (bytes, 0);
    }
    let mut end = limit;
    // Back off from a character the cut would split: up to three continuation bytes.
    for back in 1..=3.min(end) {
        let byte = bytes[end - back];
        if byte & 0b1100_0000 == 0b1100_0000 {
            let length = byte.leading_ones() as usize;
            if length > back {
                end -= back;
            }
            break;
        }
        if byte & 0b1000_0000 == 0 {
            break;
        }
    }
    (&bytes[..end], bytes.len() - end)
}

/// A relative path with `/` between its parts, as the model and the window show it.
fn slashed(relative: &Path) -> String {
    relative.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests;
