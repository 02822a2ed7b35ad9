//! The directory walk the listing and search tools share: `.gitignore` respected (also outside a git
//! repository), symlinks not followed, and secret-bearing entries never yielded or descended into (the walk's own
//! root was resolved and checked by the sandbox; below it, each entry's name is judged as it is met).

use std::path::Path;
use std::sync::Arc;

use ignore::WalkBuilder;

use crate::sandbox::Workspace;

pub(crate) fn walker(workspace: &Arc<Workspace>, dir: &Path, include_hidden: bool) -> WalkBuilder {
    let mut builder = WalkBuilder::new(dir);
    let ws = workspace.clone();
    builder
        .hidden(!include_hidden)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .ignore(true)
        .parents(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |entry| ws.is_visible_entry(entry.path()));
    builder
}

/// A modification time as RFC 3339 (UTC), when the platform gives one.
pub(crate) fn mtime_rfc3339(meta: &std::fs::Metadata) -> Option<String> {
    let modified = meta.modified().ok()?;
    let time: chrono::DateTime<chrono::Utc> = modified.into();
    Some(time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
}

pub(crate) fn kind(meta: &std::fs::Metadata) -> &'static str {
    let ft = meta.file_type();
    if ft.is_symlink() {
        "symlink"
    } else if ft.is_dir() {
        "dir"
    } else if ft.is_file() {
        "file"
    } else {
        "other"
    }
}
