//! Blobs a first snapshot borrowed from the project's own git ([`super::git_index`]) instead of
//! reading and storing every file again. Until they are copied in, the store reads them through
//! its `objects/info/alternates`, which names the project's `.git/objects`; the copy follows the
//! snapshot in the background ([`super::CheckpointStore::adopt_borrowed`]), after which the store
//! stands alone again and the project's git may prune what it likes.
//!
//! The project's objects are writable by the project's commands (and its `.git/objects` can be
//! swapped for a link to elsewhere, which git, given the path, follows): nothing read through the
//! alternates is copied or restored unbelieved — [`super::objects::CatFile::blob`] hashes every
//! blob it reads, and a blob that is not what its id says is neither. What is not hashed: a diff
//! the window shows before the copy is done, which git makes from the blobs as it finds them.
//! The store's git only reads there (it writes no object), under its time limit.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::git_index::ProjectIndex;
use super::objects::{is_oid, CatFile};
use super::pack::{Kind, Packed};
use super::project_objects::ProjectObjects;
use super::stat_cache::StatCache;
use super::{CheckpointError, CheckpointStore};
use crate::sandbox::Access;

/// The pending list and the alternates file of one store.
#[derive(Debug)]
pub(super) struct Borrowing {
    /// The ids still to copy, one per line.
    list: PathBuf,
    alternates: PathBuf,
}

impl Borrowing {
    pub fn new(store_dir: &Path, git_dir: &Path) -> Self {
        Self { list: store_dir.join("borrowed"), alternates: git_dir.join("objects/info/alternates") }
    }

    /// Let the store read `objects` (the project's, by its canonical path).
    pub fn lend(&self, objects: &Path) -> Result<(), CheckpointError> {
        let mut line = objects.as_os_str().as_encoded_bytes().to_vec();
        if line.contains(&b'\n') {
            return Err(CheckpointError::Scan("the project's path holds a line break".into()));
        }
        line.push(b'\n');
        if let Some(info) = self.alternates.parent() {
            std::fs::create_dir_all(info).map_err(|e| CheckpointError::io(info, e))?;
        }
        crate::config::write_atomic(&self.alternates, &line)
            .map_err(|e| CheckpointError::io(&self.alternates, e))
    }

    /// Add `oids` to what is still to copy.
    pub fn note(&self, oids: &[String]) -> Result<(), CheckpointError> {
        let mut text = String::with_capacity(oids.len() * 41);
        for oid in oids {
            text.push_str(oid);
            text.push('\n');
        }
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.list)
            .and_then(|mut file| file.write_all(text.as_bytes()))
            .map_err(|e| CheckpointError::io(&self.list, e))
    }

    /// The ids still to copy (each once; lines that are not an id are dropped).
    pub fn pending(&self) -> BTreeSet<String> {
        let text = std::fs::read_to_string(&self.list).unwrap_or_default();
        text.lines().filter(|l| is_oid(l)).map(str::to_owned).collect()
    }

    /// Whether the store reads the project's objects now.
    pub fn lending(&self) -> bool {
        self.alternates.exists()
    }

    /// `copied` are in the store now: they leave the list (read again: a snapshot may have added
    /// to it meanwhile), and when nothing is left the store stops reading the project's objects.
    /// Called under the store's lock.
    pub fn finish(&self, copied: &BTreeSet<String>) -> Result<(), CheckpointError> {
        let left: Vec<String> = self.pending().difference(copied).cloned().collect();
        if !left.is_empty() {
            let text: String = left.iter().map(|oid| format!("{oid}\n")).collect();
            return crate::config::write_atomic(&self.list, text.as_bytes())
                .map_err(|e| CheckpointError::io(&self.list, e));
        }
        for path in [&self.alternates, &self.list] {
            match std::fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(CheckpointError::io(path, e)),
            }
        }
        Ok(())
    }
}

impl CheckpointStore {
    /// The project's git index, when a first snapshot may take its word (see [`git_index`]): no
    /// file is known to the store yet, and no command this process started could have rewritten
    /// the index. The store is then pointed at the project's objects ([`borrow`]).
    pub(super) fn lendable_index(&self, stats: &StatCache) -> Option<ProjectIndex> {
        if !self.borrow || !stats.is_empty() {
            return None;
        }
        let root = std::fs::canonicalize(self.workspace.project_root()).ok()?;
        if crate::containment::may_have_written(&root) {
            tracing::debug!("a command ran in this project: its git index is not taken at its word");
            return None;
        }
        let resolved = self.workspace.resolve(".", Access::Read).ok()?;
        let index = ProjectIndex::read(&self.workspace.open_dir(&resolved).ok()?)?;
        match self.borrowing.lend(&root.join(".git").join("objects")) {
            Ok(()) => Some(index),
            Err(error) => {
                tracing::debug!(%error, "cannot read the project's objects from the store");
                None
            }
        }
    }

    /// Whether the project's repository holds every blob `index` names (listed from its object
    /// folder: asking git, one object at a time, took seconds for a packed repository).
    pub(super) fn all_present(&self, index: &ProjectIndex) -> bool {
        let objects = self
            .workspace
            .resolve(".", Access::Read)
            .ok()
            .and_then(|resolved| self.workspace.open_dir(&resolved).ok())
            .and_then(|root| ProjectObjects::read(&root));
        objects.is_some_and(|objects| index.oids().all(|oid| objects.holds(oid)))
    }

    /// Copy the blobs a first snapshot borrowed from the project's git into the store, each
    /// hashed again as it is read, then stop reading the project's objects; the number copied.
    /// A session runs it in the background after [`CheckpointStore::prime`]; what a killed
    /// process left to copy, the next session copies.
    pub fn adopt_borrowed(&self) -> Result<usize, CheckpointError> {
        let pending = self.borrowing.pending();
        if pending.is_empty() && !self.borrowing.lending() {
            return Ok(0);
        }
        let mut copied = BTreeSet::new();
        if !pending.is_empty() {
            let command = self.git.command_unheld(&["cat-file", "--batch"]);
            let mut cat = CatFile::start(command, self.git.time_limit())?;
            // One pack for them all, without what the store holds already.
            let batch = self.objects.batch(true);
            for oid in pending {
                match cat.blob(&oid).and_then(|bytes| batch.add(Packed::new(Kind::Blob, bytes))) {
                    Ok(_) => {
                        copied.insert(oid);
                    }
                    Err(error) => {
                        tracing::warn!(%error, %oid, "a blob borrowed from the project's git could not be copied")
                    }
                }
            }
            self.objects.finish(batch)?;
        }
        let _lock = self.lock_store()?;
        self.borrowing.finish(&copied)?;
        Ok(copied.len())
    }
}
