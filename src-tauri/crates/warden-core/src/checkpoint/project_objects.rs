//! Which objects the project's own repository holds, read from its object folder without running
//! git: the loose objects by listing the 256 fan-out folders, the packed ones from each pack's
//! index (`pack-*.idx`, version 2: its sorted table of ids). What a first snapshot asks before it
//! borrows blob ids from the project's index ([`super::git_index`]). Read through the project's
//! verified handles, no link followed; objects of the repository's own alternates are not looked
//! for (such a repository is simply not borrowed from).

use std::collections::HashSet;
use std::io::Read;

use cap_std::fs::Dir;

use crate::sandbox::handles::{open_child_dir, open_child_file_with_metadata};

/// A pack index larger than this is not read (one for 10 million objects is ~300 MB).
const MAX_PACK_INDEX_BYTES: u64 = 1 << 30;
const PACK_INDEX_MAGIC: [u8; 4] = [0xff, b't', b'O', b'c'];

/// The objects of one repository.
#[derive(Debug, Default)]
pub(super) struct ProjectObjects {
    loose: HashSet<[u8; 20]>,
    /// Each pack's ids, sorted.
    packs: Vec<Vec<[u8; 20]>>,
}

impl ProjectObjects {
    /// The objects of the repository whose `.git` is in `root`; `None` when they cannot all be
    /// listed (a pack index that cannot be read, an unknown version).
    pub fn read(root: &Dir) -> Option<Self> {
        let objects =
            open_child_dir(&open_child_dir(root, ".git".as_ref()).ok()?, "objects".as_ref()).ok()?;
        Self::read_objects(&objects)
    }

    /// The objects of an object folder (the project's `.git/objects`, or the store's own).
    pub fn read_objects(objects: &Dir) -> Option<Self> {
        let mut found = Self::default();
        for entry in objects.entries().ok()?.flatten() {
            let name = entry.file_name();
            let Some(prefix) = name.to_str().and_then(fan_out) else { continue };
            let Ok(folder) = open_child_dir(objects, &name) else { continue };
            for object in folder.entries().ok()?.flatten() {
                if let Some(oid) = object.file_name().to_str().and_then(|rest| loose_id(prefix, rest)) {
                    found.loose.insert(oid);
                }
            }
        }
        let Ok(packs) = open_child_dir(objects, "pack".as_ref()) else { return Some(found) };
        for entry in packs.entries().ok()?.flatten() {
            let name = entry.file_name();
            if name.to_str().is_some_and(|n| n.starts_with("pack-") && n.ends_with(".idx")) {
                found.packs.push(pack_ids(&packs, &name)?);
            }
        }
        Some(found)
    }

    pub fn holds(&self, oid: &[u8; 20]) -> bool {
        self.loose.contains(oid) || self.packs.iter().any(|ids| ids.binary_search(oid).is_ok())
    }
}

/// The byte a fan-out folder's two hex digits name.
fn fan_out(name: &str) -> Option<u8> {
    (name.len() == 2).then(|| u8::from_str_radix(name, 16).ok()).flatten()
}

/// The id of a loose object named `rest` in fan-out folder `prefix`.
fn loose_id(prefix: u8, rest: &str) -> Option<[u8; 20]> {
    let mut oid = [0u8; 20];
    oid[0] = prefix;
    hex::decode_to_slice(rest, &mut oid[1..]).ok()?;
    Some(oid)
}

/// The sorted ids of a version 2 pack index.
fn pack_ids(packs: &Dir, name: &std::ffi::OsStr) -> Option<Vec<[u8; 20]>> {
    let (file, meta) = open_child_file_with_metadata(packs, name).ok()?;
    if meta.len() > MAX_PACK_INDEX_BYTES {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_PACK_INDEX_BYTES).read_to_end(&mut bytes).ok()?;
    if bytes.get(..4)? != PACK_INDEX_MAGIC || bytes.get(4..8)? != [0, 0, 0, 2] {
        return None;
    }
    let count = u32::from_be_bytes(bytes.get(8 + 255 * 4..8 + 256 * 4)?.try_into().ok()?);
    let table = bytes.get(8 + 256 * 4..)?.get(..usize::try_from(count).ok()?.checked_mul(20)?)?;
    let ids: Vec<[u8; 20]> = table.chunks_exact(20).filter_map(|id| id.try_into().ok()).collect();
    ids.windows(2).all(|w| w[0] < w[1]).then_some(ids)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn git(dir: &std::path::Path, args: &[&str]) {
        let status = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(dir)
            .status()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(status.success(), "git {args:?}");
    }

    fn id(dir: &std::path::Path, text: &str) -> [u8; 20] {
        let out = std::process::Command::new("git")
            .args(["hash-object", "--stdin"])
            .current_dir(dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().map(|mut s| s.write_all(text.as_bytes()));
                child.wait_with_output()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        let mut oid = [0u8; 20];
        hex::decode_to_slice(String::from_utf8_lossy(&out.stdout).trim(), &mut oid)
            .unwrap_or_else(|e| panic!("{e}"));
        oid
    }

    #[test]
    fn loose_and_packed_objects_are_found_and_others_are_not() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = || {
            Dir::open_ambient_dir(dir.path(), cap_std::ambient_authority()).unwrap_or_else(|e| panic!("{e}"))
        };
        git(dir.path(), &["init", "-q"]);
        std::fs::write(dir.path().join("packed.txt"), "packed\n").unwrap_or_else(|e| panic!("{e}"));
        git(dir.path(), &["add", "-A"]);
        git(dir.path(), &["commit", "-q", "-m", "one"]);
        git(dir.path(), &["gc", "-q"]);
        std::fs::write(dir.path().join("loose.txt"), "loose\n").unwrap_or_else(|e| panic!("{e}"));
        git(dir.path(), &["add", "-A"]);

        let objects = ProjectObjects::read(&root()).unwrap_or_else(|| panic!("listed"));
        assert!(objects.packs.iter().any(|p| !p.is_empty()), "git gc made no pack");
        assert!(objects.holds(&id(dir.path(), "packed\n")));
        assert!(objects.holds(&id(dir.path(), "loose\n")));
        assert!(!objects.holds(&id(dir.path(), "never stored\n")));
        // A pack index that is not one: the objects cannot all be listed.
        let pack = dir.path().join(".git/objects/pack");
        let idx = std::fs::read_dir(&pack)
            .unwrap_or_else(|e| panic!("{e}"))
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "idx"))
            .unwrap_or_else(|| panic!("no pack index"));
        std::fs::write(&idx, b"not an index").unwrap_or_else(|e| panic!("{e}"));
        assert!(ProjectObjects::read(&root()).is_none());
    }
}
