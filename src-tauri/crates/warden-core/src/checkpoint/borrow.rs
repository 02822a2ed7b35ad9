//! Blobs a first snapshot borrowed from the project's own git ([`super::git_index`]) instead of
//! reading and storing every file again. Until they are copied in, the store reads them through
//! its `objects/info/alternates`, which names the project's `.git/objects`; the copy follows the
//! snapshot in the background ([`super::CheckpointStore::adopt_borrowed`]), after which the store
//! stands alone again and the project's git may prune what it likes.
//!
//! The project's objects are writable by the project's commands, so nothing read through the
//! alternates is believed: [`super::objects::CatFile::blob`] hashes every blob it reads, and a
//! blob that is not what its id says is neither copied nor restored.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::CheckpointError;

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

/// Forty lowercase hex digits.
pub(super) fn is_oid(text: &str) -> bool {
    text.len() == 40 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}
