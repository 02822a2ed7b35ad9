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
        // Ignore files above the walked directory apply only up to the sandbox root: a project that
        // sits inside some other repository's ignored folder is still searched (see below).
        .parents(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |entry| ws.is_visible_entry(entry.path()));
    if let Some(root) = workspace.roots().iter().find(|r| dir.starts_with(r)) {
        let mut ancestors: Vec<&Path> = dir.ancestors().skip(1).take_while(|a| a.starts_with(root)).collect();
        ancestors.reverse();
        for ancestor in ancestors {
            for name in [".gitignore", ".ignore"] {
                let file = ancestor.join(name);
                if file.is_file() {
                    // Errors in someone's ignore file only make the walk see more; never fatal.
                    let _ = builder.add_ignore(file);
                }
            }
        }
    }
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
