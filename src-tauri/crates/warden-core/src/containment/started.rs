//! Which folders the commands Warden started in this process could have written: what a first
//! checkpoint asks before it takes the project's own git index at its word (a boxed command can
//! rewrite `.git/index`, and git does not hash again what its index vouches for).
//!
//! A command in bubblewrap's box writes only its project, the folders granted to it and its cache
//! layer (its `/tmp` is its own); a command in any other box, or in none, may have written
//! anywhere the user can.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{BoxPolicy, Mechanism};

#[derive(Default)]
struct Started {
    anywhere: bool,
    folders: Vec<PathBuf>,
}

static STARTED: Mutex<Started> = Mutex::new(Started { anywhere: false, folders: Vec::new() });

/// A command is about to start under `policy` with `mechanism`.
pub(super) fn note(mechanism: &Mechanism, policy: &BoxPolicy) {
    let mut started = STARTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !matches!(mechanism, Mechanism::Bubblewrap { .. }) {
        started.anywhere = true;
        return;
    }
    let writable = std::iter::once(&policy.project).chain(&policy.writable).chain(&policy.cache_layer);
    for folder in writable {
        if !started.folders.contains(folder) {
            started.folders.push(folder.clone());
        }
    }
}

/// A command is about to start without any box.
pub(crate) fn note_unboxed() {
    STARTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner).anywhere = true;
}

/// Whether a command this process started could have written something in `folder` (canonical).
pub fn may_have_written(folder: &Path) -> bool {
    let started = STARTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    started.anywhere || started.folders.iter().any(|f| f.starts_with(folder) || folder.starts_with(f))
}
