//! A new snapshot from the last one and the files that changed: only the trees on the changed
//! paths are read and made again.

use std::collections::BTreeMap;

use super::objects::{Objects, TreeEntry};
use super::CheckpointError;

/// What a path holds now.
#[derive(Debug, Clone)]
pub(super) enum Change {
    /// A blob with this tree mode (`100644`, `100755`, `120000`).
    Put {
        mode: &'static str,
        oid: String,
    },
    Gone,
}

/// A change and the path components below the tree it is applied to.
type Below<'a> = (&'a [&'a [u8]], &'a Change);

/// The tree `root` with `changes` (by `/`-separated path) applied.
pub(super) fn apply(
    objects: &mut Objects,
    root: &str,
    changes: &BTreeMap<Vec<u8>, Change>,
) -> Result<String, CheckpointError> {
    let split: Vec<(Vec<&[u8]>, &Change)> =
        changes.iter().map(|(path, change)| (path.split(|b| *b == b'/').collect(), change)).collect();
    let refs: Vec<Below<'_>> = split.iter().map(|(parts, c)| (parts.as_slice(), *c)).collect();
    match rebuild(objects, Some(root), &refs)? {
        Some(tree) => Ok(tree),
        // Everything is gone: the empty tree.
        None => objects.make_tree(&[]),
    }
}

/// Tree `tree` (none: a folder that did not exist) with the changes below it applied; `None` when
/// nothing is left in it (git keeps no empty folders).
fn rebuild(
    objects: &mut Objects,
    tree: Option<&str>,
    changes: &[Below<'_>],
) -> Result<Option<String>, CheckpointError> {
    let mut entries: BTreeMap<Vec<u8>, TreeEntry> = match tree {
        Some(oid) => objects.read_tree(oid)?.into_iter().map(|e| (e.name.clone(), e)).collect(),
        None => BTreeMap::new(),
    };
    let mut below: BTreeMap<&[u8], Vec<Below<'_>>> = BTreeMap::new();
    for (parts, change) in changes {
        match parts {
            [] => {}
            [name] => match change {
                Change::Put { mode, oid } => {
                    let entry = TreeEntry { mode: (*mode).to_owned(), name: name.to_vec(), oid: oid.clone() };
                    entries.insert(name.to_vec(), entry);
                }
                Change::Gone => {
                    if entries.get(*name).is_some_and(|e| !e.is_tree()) {
                        entries.remove(*name);
                    }
                }
            },
            [name, rest @ ..] => below.entry(name).or_default().push((rest, change)),
        }
    }
    for (name, sub) in below {
        let child = entries.get(name).filter(|e| e.is_tree()).map(|e| e.oid.clone());
        // A file where a folder's change goes: the watcher would have asked for a full scan.
        if child.is_none() && entries.contains_key(name) && sub.iter().all(|(_, c)| matches!(c, Change::Gone))
        {
            continue;
        }
        match rebuild(objects, child.as_deref(), &sub)? {
            Some(oid) => {
                entries.insert(name.to_vec(), TreeEntry { mode: "40000".into(), name: name.to_vec(), oid });
            }
            None => {
                if entries.get(name).is_some_and(TreeEntry::is_tree) {
                    entries.remove(name);
                }
            }
        }
    }
    if entries.is_empty() {
        return Ok(None);
    }
    let list: Vec<TreeEntry> = entries.into_values().collect();
    objects.make_tree(&list).map(Some)
}
