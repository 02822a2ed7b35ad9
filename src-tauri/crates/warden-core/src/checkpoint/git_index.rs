//! What the project's own git already knows: the blob ids its index (`.git/index`) records for
//! files whose stat data has not changed since git hashed them. A first snapshot of a large
//! repository takes those ids instead of reading and storing every file again.
//!
//! The index is read-only here and read through the project's verified handles (the `.git` folder
//! and its `index` opened by name, no link followed); nothing of the project's `.git` is written.
//! An entry is trusted only as git itself would trust it, and more strictly:
//! - a stage-0 regular file, without the assume-unchanged, skip-worktree or intent-to-add flags;
//! - whose recorded stat data (change and modification times to the nanosecond, device, inode,
//!   mode, owner, group, size) is the file's now;
//! - not "racily clean": modified before the index was written, never in the same instant or
//!   after (git's rule), and not an entry git smudged (size 0 but not the empty blob).
//!
//! An index that is not whole (split or sparse, an unknown version, a checksum that does not match
//! — git's `index.skipHash` writes none, which is taken — or one that changed while it was read) is
//! not used at all. Whether the index may be trusted at all is the caller's question: one that a
//! process Warden started could have written is not
//! ([`crate::containment::may_have_written`]).

// Keys are the project's paths: a seeded hasher, faster than SipHash on 50,000 of them.
use foldhash::HashMap;
use std::io::Read;

use cap_std::fs::Dir;
use sha1::{Digest, Sha1};

use super::cursor::Cursor;
use crate::sandbox::handles::{open_child_dir, open_child_file_with_metadata};

/// An index larger than this is not read (git's own for 1M files is ~100 MB).
const MAX_INDEX_BYTES: u64 = 512 * 1024 * 1024;
/// The id of the empty blob, the only one an entry of size 0 may trust.
const EMPTY_BLOB: [u8; 20] = [
    0xe6, 0x9d, 0xe2, 0x9b, 0xb2, 0xd1, 0xd6, 0x43, 0x4b, 0x8b, 0x29, 0xae, 0x77, 0x5a, 0xd8, 0xc2, 0xe4,
    0x8c, 0x53, 0x91,
];

/// The stat data git records for a file (each field as git truncates it to 32 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct IndexStat {
    pub ctime: (u32, u32),
    pub mtime: (u32, u32),
    pub dev: u32,
    pub ino: u32,
    pub uid: u32,
    pub gid: u32,
    pub size: u32,
}

impl IndexStat {
    /// The stat data of a file as the project's walk read it (not following a link).
    #[cfg(unix)]
    pub fn of(meta: &cap_std::fs::Metadata) -> Self {
        use cap_std::fs::MetadataExt;
        // Git keeps the low 32 bits of each field: so does the comparison.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let low = |n: i64| n as u32;
        #[allow(clippy::cast_possible_truncation)]
        let low64 = |n: u64| n as u32;
        Self {
            ctime: (low(meta.ctime()), low(meta.ctime_nsec())),
            mtime: (low(meta.mtime()), low(meta.mtime_nsec())),
            dev: low64(meta.dev()),
            ino: low64(meta.ino()),
            uid: meta.uid(),
            gid: meta.gid(),
            size: low64(meta.size()),
        }
    }

    /// Elsewhere no index is read ([`ProjectIndex::read`] needs the index file's times).
    #[cfg(not(unix))]
    pub fn of(_: &cap_std::fs::Metadata) -> Self {
        Self { ctime: (0, 0), mtime: (0, 0), dev: 0, ino: 0, uid: 0, gid: 0, size: 0 }
    }
}

/// One trusted-looking entry of the index.
#[derive(Debug, Clone)]
struct Entry {
    stat: IndexStat,
    executable: bool,
    oid: [u8; 20],
}

/// The project's index as read once: the entries that may vouch for a file.
#[derive(Debug, Default)]
pub(super) struct ProjectIndex {
    entries: HashMap<Vec<u8>, Entry>,
    /// When the index file was last written: entries modified then or later are racy.
    written: (u32, u32),
}

impl ProjectIndex {
    /// The index of the repository whose `.git` folder is in `root` (the project's verified root
    /// handle), or `None` when there is none git wrote that can be used.
    pub fn read(root: &Dir) -> Option<Self> {
        let git = open_child_dir(root, ".git".as_ref()).ok()?;
        let (mut file, before) = open_child_file_with_metadata(&git, "index".as_ref()).ok()?;
        if before.len() > MAX_INDEX_BYTES {
            return None;
        }
        let mut bytes = Vec::with_capacity(usize::try_from(before.len()).unwrap_or(0));
        file.read_to_end(&mut bytes).ok()?;
        let after = file.metadata().ok()?;
        if !same_file_state(&before, &after) || bytes.len() as u64 != after.len() {
            return None;
        }
        let written = modified(&after)?;
        match parse(&bytes) {
            Ok(entries) => Some(Self { entries, written }),
            Err(why) => {
                tracing::debug!(why, "the project's git index is not used for the first snapshot");
                None
            }
        }
    }

    /// The blob id the index gives `path` when the file's stat data (`stat`, with whether it is
    /// executable) says git's hash of it still holds.
    pub fn known(&self, path: &[u8], stat: &IndexStat, executable: bool) -> Option<String> {
        let entry = self.entries.get(path)?;
        let trusted = entry.stat == *stat
            && entry.executable == executable
            && entry.stat.mtime < self.written
            && entry.stat.ctime < self.written
            && (entry.stat.size != 0 || entry.oid == EMPTY_BLOB);
        trusted.then(|| hex::encode(entry.oid))
    }

    /// The blob ids of the entries.
    pub fn oids(&self) -> impl Iterator<Item = &[u8; 20]> {
        self.entries.values().map(|entry| &entry.oid)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(unix)]
fn same_file_state(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.ino(), a.size(), a.mtime(), a.mtime_nsec(), a.ctime(), a.ctime_nsec())
        == (b.ino(), b.size(), b.mtime(), b.mtime_nsec(), b.ctime(), b.ctime_nsec())
}

#[cfg(not(unix))]
fn same_file_state(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

#[cfg(unix)]
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn modified(meta: &std::fs::Metadata) -> Option<(u32, u32)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.mtime() as u32, meta.mtime_nsec() as u32))
}

#[cfg(not(unix))]
fn modified(_: &std::fs::Metadata) -> Option<(u32, u32)> {
    None
}

const MODE_FILE: u32 = 0o100_644;
const MODE_EXECUTABLE: u32 = 0o100_755;
const FLAG_ASSUME_VALID: u16 = 0x8000;
const FLAG_EXTENDED: u16 = 0x4000;
const FLAG_STAGE: u16 = 0x3000;
const EXTENDED_SKIP_WORKTREE: u16 = 0x4000;
const EXTENDED_INTENT_TO_ADD: u16 = 0x2000;

/// The usable entries of an index file (versions 2 to 4), by path.
fn parse(bytes: &[u8]) -> Result<HashMap<Vec<u8>, Entry>, &'static str> {
    let body_len = bytes.len().checked_sub(20).ok_or("too short")?;
    let (body, checksum) = bytes.split_at(body_len);
    // Git writes twenty zero bytes instead when told to skip the hash (`index.skipHash`, which
    // `feature.manyFiles` turns on); it writes an index whole (a lock file renamed over it), and the
    // entries are still read to the last byte below.
    if checksum != [0u8; 20] && Sha1::digest(body).as_slice() != checksum {
        return Err("its checksum does not match");
    }
    let mut at = Cursor::new(body);
    if at.bytes(4) != Some(b"DIRC") {
        return Err("not an index");
    }
    let version = u32_at(&mut at)?;
    if !(2..=4).contains(&version) {
        return Err("an index version this reader does not know");
    }
    let count = u32_at(&mut at)?;
    let mut entries = HashMap::with_capacity_and_hasher(
        usize::try_from(count).unwrap_or(0).min(1 << 22),
        Default::default(),
    );
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        let start = at.at();
        let (stat, mode, oid, flags, extended) = entry_head(&mut at, version)?;
        let name = if version == 4 {
            let strip = varint_at(&mut at)?;
            let keep = previous.len().checked_sub(usize::try_from(strip).map_err(|_| "bad name")?);
            let mut name = previous[..keep.ok_or("bad name prefix")?].to_vec();
            name.extend_from_slice(at.until_nul().ok_or("a name without its end")?);
            name
        } else {
            let name = at.until_nul().ok_or("a name without its end")?.to_vec();
            // Entries are padded with NULs to a multiple of eight bytes (one NUL was read).
            let len = at.at() - start;
            at.bytes((8 - len % 8) % 8).ok_or(TRUNCATED)?;
            name
        };
        let usable = (mode == MODE_FILE || mode == MODE_EXECUTABLE)
            && flags & (FLAG_ASSUME_VALID | FLAG_STAGE) == 0
            && extended & (EXTENDED_SKIP_WORKTREE | EXTENDED_INTENT_TO_ADD) == 0;
        if usable {
            entries.insert(name.clone(), Entry { stat, executable: mode == MODE_EXECUTABLE, oid });
        }
        previous = name;
    }
    check_extensions(&mut at)?;
    Ok(entries)
}

/// An entry's fixed part: stat data, mode, id, flags and (version 3 on) extended flags.
fn entry_head(
    at: &mut Cursor<'_>,
    version: u32,
) -> Result<(IndexStat, u32, [u8; 20], u16, u16), &'static str> {
    let [c0, c1, m0, m1, dev, ino, mode, uid, gid, size] = [(); 10].map(|()| u32_at(at));
    let stat = IndexStat {
        ctime: (c0?, c1?),
        mtime: (m0?, m1?),
        dev: dev?,
        ino: ino?,
        uid: uid?,
        gid: gid?,
        size: size?,
    };
    let mode = mode?;
    let oid: [u8; 20] = at.take().ok_or("short id")?;
    let flags = u16_at(at)?;
    let extended = if flags & FLAG_EXTENDED != 0 {
        if version < 3 {
            return Err("extended flags in a version 2 index");
        }
        u16_at(at)?
    } else {
        0
    };
    Ok((stat, mode, oid, flags, extended))
}

/// An index split in two (`link`) or with folders folded (`sdir`) lists only part of the files.
fn check_extensions(at: &mut Cursor<'_>) -> Result<(), &'static str> {
    while !at.is_done() {
        let signature = at.bytes(4).ok_or(TRUNCATED)?;
        if signature == b"link" || signature == b"sdir" {
            return Err("a split or sparse index");
        }
        let size = u32_at(at)?;
        at.bytes(usize::try_from(size).map_err(|_| "bad extension")?).ok_or(TRUNCATED)?;
    }
    Ok(())
}

const TRUNCATED: &str = "truncated";

fn u32_at(at: &mut Cursor<'_>) -> Result<u32, &'static str> {
    at.take().map(u32::from_be_bytes).ok_or(TRUNCATED)
}

fn u16_at(at: &mut Cursor<'_>) -> Result<u16, &'static str> {
    at.take().map(u16::from_be_bytes).ok_or(TRUNCATED)
}

/// Git's offset varint (version 4 names): each continuation adds one before shifting.
fn varint_at(at: &mut Cursor<'_>) -> Result<u64, &'static str> {
    let [mut byte] = at.take().ok_or(TRUNCATED)?;
    let mut value = u64::from(byte & 0x7f);
    while byte & 0x80 != 0 {
        [byte] = at.take().ok_or(TRUNCATED)?;
        value = value.checked_add(1).and_then(|v| v.checked_mul(128)).ok_or("bad varint")?
            | u64::from(byte & 0x7f);
    }
    Ok(value)
}

#[cfg(all(test, unix))]
#[path = "git_index_tests.rs"]
mod tests;
