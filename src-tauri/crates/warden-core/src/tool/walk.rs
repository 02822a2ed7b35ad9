//! The directory walk the listing and search tools share. It goes by handle, never by path: the
//! walk's start is opened through the sandbox ([`Workspace::open_dir`]), each subdirectory from its
//! parent's handle by its single name without following a link, and each one's real location is
//! checked before its entries are read — so a directory swapped for a symlink (or moved out of the
//! project) while the walk runs leads nowhere. Symlinks are listed, never followed.
//!
//! Like ripgrep: `.gitignore` and `.ignore` files are respected (also outside a git repository, and
//! those of the directories between the sandbox root and the start), plus the project's
//! `.git/info/exclude`; hidden entries only on request; secret-bearing entries are never yielded or
//! descended into.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::fs::{Dir, FileType, Metadata};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::Match;
use tokio_util::sync::CancellationToken;

use crate::sandbox::handles::{open_child_dir, open_child_file};
use crate::sandbox::path::is_git_dir_name;
use crate::sandbox::{ResolvedPath, SandboxError, Workspace};

/// Deepest a walk goes, whatever was asked: each level holds one open directory handle.
const MAX_DEPTH: usize = 256;
/// Larger ignore files are read up to this size (the rest is not applied).
const MAX_IGNORE_FILE_BYTES: u64 = 1 << 20;
/// The ignore files of a directory, `.ignore` first: it wins when both match.
const IGNORE_FILES: [&str; 2] = [".ignore", ".gitignore"];

/// What to walk and what to leave out.
pub(crate) struct WalkOptions {
    pub include_hidden: bool,
    /// 1 = only the start's own entries.
    pub max_depth: Option<usize>,
    /// Globs that include or exclude beyond the ignore files (ripgrep `-g`).
    pub overrides: Option<Override>,
    /// Leave out `.git` directories (and look-alikes) entirely: neither yielded nor entered.
    pub skip_git: bool,
}

/// One entry met on the walk, with the handle of the directory it was read from.
pub(crate) struct Entry {
    pub parent: Arc<Dir>,
    pub name: OsString,
    /// Path relative to the sandbox root the walk is in (for display and matching only).
    pub relative: PathBuf,
    pub file_type: FileType,
}

impl Entry {
    /// The entry's metadata, not following a symlink, from its parent's handle.
    pub fn metadata(&self) -> std::io::Result<Metadata> {
        self.parent.symlink_metadata(&self.name)
    }

    /// Open the entry (a regular file) for reading, from its parent's handle.
    pub fn open(&self) -> std::io::Result<std::fs::File> {
        open_child_file(&self.parent, &self.name)
    }

    pub fn display(&self) -> String {
        self.relative.to_string_lossy().into_owned()
    }
}

/// The ignore files of one directory and of those above it, nearest first.
struct IgnoreChain {
    /// `.ignore` before `.gitignore`: `.ignore` wins when both match.
    matchers: Vec<Gitignore>,
    parent: Option<Arc<IgnoreChain>>,
}

impl IgnoreChain {
    fn matched(&self, path: &Path, is_dir: bool) -> Match<()> {
        let mut level = Some(self);
        while let Some(chain) = level {
            for matcher in &chain.matchers {
                match matcher.matched(path, is_dir) {
                    Match::None => {}
                    Match::Ignore(_) => return Match::Ignore(()),
                    Match::Whitelist(_) => return Match::Whitelist(()),
                }
            }
            level = chain.parent.as_deref();
        }
        Match::None
    }
}

/// A directory still being read: its handle, its remaining entries (sorted), and what applies below.
struct Level {
    dir: Arc<Dir>,
    entries: std::vec::IntoIter<(OsString, FileType)>,
    relative: PathBuf,
    depth: usize,
    ignores: Arc<IgnoreChain>,
    in_git: bool,
}

/// What a walk tells whoever walks: each entry, and (for those who keep a record of a whole tree,
/// as checkpoints do) each folder entered and each one that could not be.
pub(crate) trait Visitor {
    /// An entry, in path order; `Break` ends the walk.
    fn visit(&mut self, entry: Entry) -> ControlFlow<()>;

    /// A folder was opened (the start included), before its entries are read.
    fn entered(&mut self, _relative: &Path, _dir: &Dir) {}

    /// A folder that is not walked: it could not be opened or verified, or it is too deep.
    fn not_entered(&mut self, _relative: &Path, _why: String) {}
}

impl<F: FnMut(Entry) -> ControlFlow<()>> Visitor for F {
    fn visit(&mut self, entry: Entry) -> ControlFlow<()> {
        self(entry)
    }
}

/// Walk `start` (a resolved directory), calling `visit` for every entry in path order until it
/// breaks, the depth is reached or `cancel` fires.
pub(crate) fn walk(
    workspace: &Workspace,
    start: &ResolvedPath,
    options: &WalkOptions,
    cancel: &CancellationToken,
    mut visit: impl FnMut(Entry) -> ControlFlow<()>,
) -> Result<(), SandboxError> {
    walk_with(workspace, start, options, cancel, &mut visit)
}

/// [`walk`] telling `visitor` also of the folders entered and not entered.
#[allow(clippy::too_many_lines)] // One walk and its filters; split, the walker's state would be passed around.
pub(crate) fn walk_with(
    workspace: &Workspace,
    start: &ResolvedPath,
    options: &WalkOptions,
    cancel: &CancellationToken,
    visitor: &mut impl Visitor,
) -> Result<(), SandboxError> {
    let root = workspace.roots()[start.root].clone();
    let dir = workspace.open_dir(start)?;
    visitor.entered(&start.relative, &dir);
    let ignores = start_ignores(workspace, start, &root, &dir);
    let in_git = start.relative.components().any(|c| is_git_dir_name(c.as_os_str()));
    let max_depth = options.max_depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
    let mut stack = vec![Level {
        entries: read_entries(&dir).into_iter(),
        dir: Arc::new(dir),
        relative: start.relative.clone(),
        depth: 0,
        ignores,
        in_git,
    }];
    // The path the ignore files and globs judge an entry by, rebuilt in place for each entry.
    let mut virtual_path = PathBuf::new();
    while let Some(level) = stack.last_mut() {
        if cancel.is_cancelled() {
            return Ok(());
        }
        let Some((name, file_type)) = level.entries.next() else {
            stack.pop();
            continue;
        };
        if !workspace.is_visible_entry(&name, level.relative.file_name(), level.in_git) {
            continue;
        }
        if !options.include_hidden && name.as_encoded_bytes().first() == Some(&b'.') {
            continue;
        }
        if options.skip_git && is_git_dir_name(&name) {
            continue;
        }
        let relative = level.relative.join(&name);
        let is_dir = file_type.is_dir();
        set_joined(&mut virtual_path, &root, &relative);
        if is_ignored(options, &level.ignores, &virtual_path, is_dir) {
            continue;
        }
        if !is_dir {
            // A file, link or special file: handed over whole, nothing to enter.
            let entry = Entry { parent: level.dir.clone(), name, relative, file_type };
            if visitor.visit(entry).is_break() {
                return Ok(());
            }
            continue;
        }
        let depth = level.depth + 1;
        let entry =
            Entry { parent: level.dir.clone(), name: name.clone(), relative: relative.clone(), file_type };
        if visitor.visit(entry).is_break() {
            return Ok(());
        }
        if depth >= max_depth {
            if options.max_depth.is_none() {
                visitor.not_entered(&relative, format!("more than {MAX_DEPTH} folders deep"));
            }
            continue;
        }
        let in_git = level.in_git || is_git_dir_name(&name);
        let child = match open_child_dir(&level.dir, &name) {
            Ok(child) => child,
            Err(error) => {
                visitor.not_entered(&relative, error.to_string());
                continue;
            }
        };
        if let Err(why) = workspace.verify_dir(&child, &relative, start.root) {
            visitor.not_entered(&relative, why);
            continue;
        }
        visitor.entered(&relative, &child);
        let entries = read_entries(&child);
        let ignores = Arc::new(IgnoreChain {
            matchers: listed_ignores(&child, &root.join(&relative), &entries),
            parent: Some(level.ignores.clone()),
        });
        stack.push(Level {
            entries: entries.into_iter(),
            dir: Arc::new(child),
            relative,
            depth,
            ignores,
            in_git,
        });
    }
    Ok(())
}

/// Whether the globs (first) or the ignore files leave out the entry at `path`.
fn is_ignored(options: &WalkOptions, ignores: &IgnoreChain, path: &Path, is_dir: bool) -> bool {
    let overridden = options.overrides.as_ref().map_or(Match::None, |o| match o.matched(path, is_dir) {
        Match::None => Match::None,
        Match::Ignore(_) => Match::Ignore(()),
        Match::Whitelist(_) => Match::Whitelist(()),
    });
    match overridden {
        Match::Ignore(()) => true,
        Match::Whitelist(()) => false,
        Match::None => ignores.matched(path, is_dir).is_ignore(),
    }
}

/// `root` joined with `relative`, written into `path` (reusing its allocation).
fn set_joined(path: &mut PathBuf, root: &Path, relative: &Path) {
    path.as_mut_os_string().clear();
    path.push(root);
    path.push(relative);
}

/// The entries of a directory by name, sorted; unreadable entries are skipped.
fn read_entries(dir: &Dir) -> Vec<(OsString, FileType)> {
    let mut entries: Vec<(OsString, FileType)> = match dir.entries() {
        Ok(iter) => iter
            .filter_map(Result::ok)
            .filter_map(|e| e.file_type().ok().map(|t| (e.file_name(), t)))
            .collect(),
        Err(_) => Vec::new(),
    };
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries
}

/// The ignore rules that apply at the start: the project's `.git/info/exclude`, then the ignore
/// files of every directory from the sandbox root down to the start, each read through a handle.
fn start_ignores(
    workspace: &Workspace,
    start: &ResolvedPath,
    root: &Path,
    start_dir: &Dir,
) -> Arc<IgnoreChain> {
    let mut chain: Option<Arc<IgnoreChain>> = None;
    let mut levels: Vec<ResolvedPath> = Vec::new();
    let mut relative = start.relative.clone();
    while relative.pop() {
        levels.push(ResolvedPath {
            absolute: root.join(&relative),
            root: start.root,
            relative: relative.clone(),
        });
    }
    levels.reverse();
    for (i, level) in levels.iter().enumerate() {
        let Ok(dir) = workspace.open_dir(level) else { continue };
        let mut matchers = dir_ignores(&dir, &level.absolute);
        if i == 0 {
            matchers.extend(git_exclude(&dir, root));
        }
        chain = Some(Arc::new(IgnoreChain { matchers, parent: chain }));
    }
    let mut matchers = dir_ignores(start_dir, &root.join(&start.relative));
    if start.relative.as_os_str().is_empty() {
        matchers.extend(git_exclude(start_dir, root));
    }
    Arc::new(IgnoreChain { matchers, parent: chain })
}

/// `.ignore` then `.gitignore` of one directory, as matchers rooted at its (display) path.
fn dir_ignores(dir: &Dir, at: &Path) -> Vec<Gitignore> {
    IGNORE_FILES.into_iter().filter_map(|name| read_ignore(dir, OsStr::new(name), at)).collect()
}

/// [`dir_ignores`] for a directory whose (sorted) entries were just read: only the ignore files
/// the listing names are opened, so a folder without any costs no failed open.
fn listed_ignores(dir: &Dir, at: &Path, entries: &[(OsString, FileType)]) -> Vec<Gitignore> {
    let listed =
        |name: &str| entries.binary_search_by(|(entry, _)| entry.as_os_str().cmp(OsStr::new(name))).is_ok();
    IGNORE_FILES
        .into_iter()
        .filter(|name| listed(name))
        .filter_map(|name| read_ignore(dir, OsStr::new(name), at))
        .collect()
}

/// The root's `.git/info/exclude`, read through handles.
fn git_exclude(root_dir: &Dir, root: &Path) -> Option<Gitignore> {
    let info =
        open_child_dir(root_dir, OsStr::new(".git")).and_then(|git| open_child_dir(&git, OsStr::new("info")));
    read_ignore(&info.ok()?, OsStr::new("exclude"), root)
}

fn read_ignore(dir: &Dir, name: &OsStr, at: &Path) -> Option<Gitignore> {
    // A regular file only: `open_child_file` refuses anything else.
    let file = open_child_file(dir, name).ok()?;
    let mut text = String::new();
    // Errors in someone's ignore file only make the walk see more; never fatal.
    file.take(MAX_IGNORE_FILE_BYTES).read_to_string(&mut text).ok()?;
    let mut builder = GitignoreBuilder::new(at);
    for line in text.lines() {
        let _ = builder.add_line(None, line);
    }
    builder.build().ok().filter(|g| !g.is_empty())
}

/// A modification time as RFC 3339 (UTC), when the platform gives one.
pub(crate) fn mtime_rfc3339(meta: &Metadata) -> Option<String> {
    let modified = meta.modified().ok()?.into_std();
    let time: chrono::DateTime<chrono::Utc> = modified.into();
    Some(time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
}

pub(crate) fn kind(file_type: FileType) -> &'static str {
    if file_type.is_symlink() {
        "symlink"
    } else if file_type.is_dir() {
        "dir"
    } else if file_type.is_file() {
        "file"
    } else {
        "other"
    }
}
