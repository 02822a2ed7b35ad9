//! The last snapshot as this process holds it: every folder with its entries, and the id of each
//! folder's tree once written. A change to a few files marks only the folders above them, so the
//! next snapshot writes those few trees again and reuses every other id.

use std::collections::BTreeMap;

use super::objects::{ObjectWriter, TreeEntry, MODE_TREE};
use super::CheckpointError;

#[derive(Debug, Default, Clone)]
pub(super) struct Snapshot {
    root: Folder,
}

#[derive(Debug, Default, Clone)]
struct Folder {
    entries: BTreeMap<Vec<u8>, Node>,
    /// The tree id of this folder as it is; `None` once something below it changed.
    oid: Option<String>,
}

#[derive(Debug, Clone)]
enum Node {
    /// A file or a symlink: its tree mode and blob.
    Blob {
        mode: &'static str,
        oid: String,
    },
    Folder(Folder),
}

impl Snapshot {
    /// A snapshot of `files`: `/`-separated paths with their mode and blob.
    pub fn of(files: impl IntoIterator<Item = (Vec<u8>, &'static str, String)>) -> Self {
        let mut snapshot = Self::default();
        for (path, mode, oid) in files {
            snapshot.put(&path, mode, oid);
        }
        snapshot
    }

    /// `path` now holds a blob (whatever was there before, folder included, is replaced).
    pub fn put(&mut self, path: &[u8], mode: &'static str, oid: String) {
        let parts: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
        let Some((name, folders)) = parts.split_last() else { return };
        let mut folder = &mut self.root;
        folder.oid = None;
        for part in folders {
            // Looked up before a key is made: a first snapshot puts every file of a folder in turn.
            if !matches!(folder.entries.get(*part), Some(Node::Folder(_))) {
                folder.entries.insert(part.to_vec(), Node::Folder(Folder::default()));
            }
            let Some(Node::Folder(inner)) = folder.entries.get_mut(*part) else { return };
            inner.oid = None;
            folder = inner;
        }
        folder.entries.insert(name.to_vec(), Node::Blob { mode, oid });
    }

    /// `path` holds no blob now (a folder of that name is left alone); folders it leaves empty go.
    pub fn remove(&mut self, path: &[u8]) {
        let parts: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
        let _ = remove_in(&mut self.root, &parts);
    }

    /// Write every tree that changed since the last write; the root tree's id. The ids are worked
    /// out first, then the new trees are stored together (if that fails, the caller drops this
    /// snapshot: its folders' ids name trees that may not be stored).
    pub fn write(&mut self, writer: &ObjectWriter) -> Result<String, CheckpointError> {
        let mut new = Vec::new();
        let root = name_folder(&mut self.root, &mut new);
        writer.trees(new)?;
        match root {
            Some(oid) => Ok(oid),
            None => writer.tree(&mut []),
        }
    }
}

/// Remove the blob at `parts` below `folder`, and the folders that leaves empty; whether there
/// was one.
fn remove_in(folder: &mut Folder, parts: &[&[u8]]) -> bool {
    let removed = match parts {
        [] => false,
        [name] => {
            matches!(folder.entries.get(*name), Some(Node::Blob { .. }))
                && folder.entries.remove(*name).is_some()
        }
        [name, rest @ ..] => match folder.entries.get_mut(*name) {
            Some(Node::Folder(inner)) => {
                let removed = remove_in(inner, rest);
                if removed && inner.entries.is_empty() {
                    folder.entries.remove(*name);
                }
                removed
            }
            _ => false,
        },
    };
    if removed {
        folder.oid = None;
    }
    removed
}

/// The id of `folder`'s tree, working out the changed ones below it and adding each new tree's
/// bytes to `new`; `None` for an empty folder, which git does not keep.
fn name_folder(folder: &mut Folder, new: &mut Vec<Vec<u8>>) -> Option<String> {
    if let Some(oid) = &folder.oid {
        return Some(oid.clone());
    }
    let mut entries = Vec::with_capacity(folder.entries.len());
    for (name, node) in &mut folder.entries {
        match node {
            Node::Blob { mode, oid } => {
                entries.push(TreeEntry { mode, name: name.clone(), oid: oid.clone() })
            }
            Node::Folder(inner) => {
                if let Some(oid) = name_folder(inner, new) {
                    entries.push(TreeEntry { mode: MODE_TREE, name: name.clone(), oid });
                }
            }
        }
    }
    if entries.is_empty() {
        return None;
    }
    let (oid, bytes) = ObjectWriter::tree_object(&mut entries);
    new.push(bytes);
    folder.oid = Some(oid.clone());
    Some(oid)
}

#[cfg(test)]
mod tests {
    use super::super::objects::{MODE_EXECUTABLE, MODE_FILE};
    use super::*;

    /// The id of the tree with no entries (the snapshot of an empty project).
    const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

    fn blob(writer: &ObjectWriter, text: &str) -> String {
        writer.blob(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Changing a snapshot in place gives the same tree ids as making it again from its files.
    #[test]
    fn a_changed_snapshot_has_the_ids_of_one_made_from_scratch() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let writer = ObjectWriter::new(dir.path());
        let (a, b, c) = (blob(&writer, "a"), blob(&writer, "b"), blob(&writer, "c"));
        let mut snapshot = Snapshot::of([
            (b"x/y/a".to_vec(), MODE_FILE, a.clone()),
            (b"x/b".to_vec(), MODE_FILE, b.clone()),
            (b"top".to_vec(), MODE_EXECUTABLE, c.clone()),
        ]);
        let first = snapshot.write(&writer).unwrap_or_else(|e| panic!("{e}"));
        snapshot.remove(b"x/y/a");
        snapshot.put(b"x/b", MODE_FILE, c.clone());
        snapshot.put(b"top/now-a-folder", MODE_FILE, a.clone());
        let changed = snapshot.write(&writer).unwrap_or_else(|e| panic!("{e}"));
        let fresh = Snapshot::of([
            (b"x/b".to_vec(), MODE_FILE, c.clone()),
            (b"top/now-a-folder".to_vec(), MODE_FILE, a.clone()),
        ])
        .write(&writer)
        .unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(first, changed);
        assert_eq!(changed, fresh);

        snapshot.remove(b"x/b");
        snapshot.remove(b"top/now-a-folder");
        assert_eq!(snapshot.write(&writer).unwrap_or_else(|e| panic!("{e}")), EMPTY_TREE);
        assert_eq!(ObjectWriter::id("tree", b""), EMPTY_TREE);
    }
}
