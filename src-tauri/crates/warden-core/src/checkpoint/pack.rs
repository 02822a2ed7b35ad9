//! Many objects at once, written as one git pack (version 2, no deltas) and its index, instead of
//! a loose file each. A first snapshot stores hundreds of trees and, without the project's git to
//! borrow from, one blob per file: as loose objects that is a file created per object (and up to
//! 256 fan-out folders), which on ext4 costs most of the snapshot's time. A pack is two files.
//!
//! A batch of up to [`LOOSE_UP_TO`] objects is still written loose (a pack per small checkpoint
//! would leave git a long list of packs to search). Past that, the objects go into a temporary
//! file as they come (compressed by the caller's thread, appended
//! under a lock); [`Pack::finish`] writes the object count into the header, the pack's checksum
//! after it, then the index, and renames the pack and then the index into `objects/pack` — git
//! looks for packs by their index, so a reader sees all of the objects or none, and a process
//! killed midway leaves only a temporary file (removed when dropped, or by the next housekeeping).

use std::collections::HashSet;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha1::{Digest, Sha1};

use super::project_objects::ProjectObjects;
use super::CheckpointError;

/// Git's object kinds as a pack numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Tree = 2,
    Blob = 3,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Tree => "tree",
            Self::Blob => "blob",
        }
    }
}

/// An object ready to be added: its id, its content, and its bytes as a pack holds them (the kind
/// and size header, then the zlib stream of the content).
pub(super) struct Packed {
    oid: [u8; 20],
    kind: Kind,
    content: Vec<u8>,
    entry: Vec<u8>,
}

impl Packed {
    /// Hash and compress `content` as an object of `kind` (the expensive part, done by the
    /// caller's thread, outside the pack's lock).
    pub fn new(kind: Kind, content: Vec<u8>) -> Self {
        let oid = object_id(kind.name(), &content);
        let mut encoder = flate2::write::ZlibEncoder::new(
            entry_header(kind, content.len() as u64),
            flate2::Compression::new(1),
        );
        // Writing into a Vec cannot fail.
        let _ = encoder.write_all(&content);
        let entry = encoder.finish().unwrap_or_default();
        Self { oid, kind, content, entry }
    }

    pub fn oid(&self) -> String {
        hex::encode(self.oid)
    }
}

/// The id git gives an object of `kind` (`blob`, `tree`) holding `bytes`.
pub(super) fn object_id(kind: &str, bytes: &[u8]) -> [u8; 20] {
    let mut hasher = Sha1::new();
    hasher.update(format!("{kind} {}\0", bytes.len()).as_bytes());
    hasher.update(bytes);
    hasher.finalize().into()
}

/// The kind and size of an entry: the kind in bits 4–6 of the first byte with the size's low four
/// bits, then the rest of the size seven bits a byte, the high bit saying another byte follows.
fn entry_header(kind: Kind, size: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(10);
    let mut byte = ((kind as u8) << 4) | (size & 0x0f) as u8;
    let mut rest = size >> 4;
    while rest > 0 {
        out.push(byte | 0x80);
        byte = (rest & 0x7f) as u8;
        rest >>= 7;
    }
    out.push(byte);
    out
}

/// Where an object is in the pack.
struct Placed {
    oid: [u8; 20],
    crc: u32,
    offset: u64,
}

/// A batch too small for a pack of its own is written as loose objects: a pack per checkpoint
/// of a few changed files would leave git a long list of packs to search.
const LOOSE_UP_TO: usize = 64;
const LOOSE_UP_TO_BYTES: usize = 8 << 20;

#[derive(Default)]
struct State {
    /// Objects held back until the batch is known to be large enough for a pack.
    pending: Vec<Packed>,
    pending_bytes: usize,
    file: Option<tempfile::NamedTempFile>,
    /// What the store held when the pack was begun, not written again.
    stored: Option<ProjectObjects>,
    placed: Vec<Placed>,
    seen: HashSet<[u8; 20]>,
    length: u64,
}

/// A batch of objects being written, a pack when it is large; shared by the threads of a scan.
pub(super) struct Pack {
    objects_dir: PathBuf,
    dir: PathBuf,
    state: Mutex<State>,
    /// Whether to leave out what the store holds already (listed when a pack is begun).
    beside_stored: bool,
}

/// Past this many packs in a store, housekeeping writes them as one (git searches each in turn).
const MAX_PACKS: usize = 16;
/// A temporary file of a writer older than this was left by a process that was killed.
const STALE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Remove what killed writers left in `objects_dir/pack`; whether the store has so many packs
/// that they should be written as one.
pub(super) fn tidy(objects_dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(objects_dir.join("pack")) else { return false };
    let mut packs = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".idx") {
            packs += 1;
        }
        let stale = || entry.metadata().ok()?.modified().ok()?.elapsed().ok().map(|age| age > STALE);
        if (name.starts_with("tmp_pack_") || name.starts_with("tmp_idx_")) && stale() == Some(true) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    packs > MAX_PACKS
}

/// The twelve bytes a pack starts with: `PACK`, version 2, and the count (written at the end).
const HEADER: [u8; 12] = *b"PACK\0\0\0\x02\0\0\0\0";
const INDEX_MAGIC: [u8; 4] = [0xff, b't', b'O', b'c'];

impl Pack {
    /// A batch to be written into `objects_dir` (its packs into `objects_dir/pack`); nothing is
    /// created until it is large enough for a pack, or finished. `beside_stored` leaves out of a
    /// pack what the store holds already (worth listing the store's objects for a batch that may
    /// be old: a full scan, the borrowed blobs); loose objects are never written twice.
    pub fn new(objects_dir: &Path, beside_stored: bool) -> Self {
        Self {
            objects_dir: objects_dir.to_owned(),
            dir: objects_dir.join("pack"),
            state: Mutex::new(State::default()),
            beside_stored,
        }
    }

    /// Add `object` unless this batch (or, for a pack, the store) already holds it; its id.
    pub fn add(&self, object: Packed) -> Result<String, CheckpointError> {
        let oid = object.oid();
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !state.seen.insert(object.oid) {
            return Ok(oid);
        }
        if state.file.is_none() {
            state.pending_bytes += object.content.len();
            state.pending.push(object);
            if state.pending.len() <= LOOSE_UP_TO && state.pending_bytes <= LOOSE_UP_TO_BYTES {
                return Ok(oid);
            }
            state.stored = self.beside_stored.then(|| self.stored()).flatten();
            state.file = Some(self.start()?);
            state.length = HEADER.len() as u64;
            for held in std::mem::take(&mut state.pending) {
                append(&mut state, &held)?;
            }
            return Ok(oid);
        }
        append(&mut state, &object)?;
        Ok(oid)
    }

    /// What the store holds now.
    fn stored(&self) -> Option<ProjectObjects> {
        let objects =
            cap_std::fs::Dir::open_ambient_dir(&self.objects_dir, cap_std::ambient_authority()).ok()?;
        ProjectObjects::read_objects(&objects)
    }

    fn start(&self) -> Result<tempfile::NamedTempFile, CheckpointError> {
        std::fs::create_dir_all(&self.dir).map_err(|e| CheckpointError::io(&self.dir, e))?;
        let mut file = tempfile::Builder::new()
            .prefix("tmp_pack_")
            .tempfile_in(&self.dir)
            .map_err(|e| CheckpointError::io(&self.dir, e))?;
        file.write_all(&HEADER).map_err(|e| CheckpointError::io(file.path(), e))?;
        Ok(file)
    }

    /// Make the objects visible to git: a small batch through `loose` (kind and content of each),
    /// a large one as the pack and then its index.
    pub fn finish(
        self,
        loose: impl Fn(Kind, &[u8]) -> Result<(), CheckpointError>,
    ) -> Result<(), CheckpointError> {
        let state = self.state.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        let State { pending, file, mut placed, .. } = state;
        let Some(mut file) = file else {
            return pending.iter().try_for_each(|object| loose(object.kind, &object.content));
        };
        let path = file.path().to_owned();
        let io = |e| CheckpointError::io(&path, e);
        let count =
            u32::try_from(placed.len()).map_err(|_| CheckpointError::Scan("too many objects".into()))?;
        file.seek(SeekFrom::Start(8)).map_err(io)?;
        file.write_all(&count.to_be_bytes()).map_err(io)?;
        let checksum = checksum_of(file.as_file_mut()).map_err(io)?;
        file.write_all(&checksum).map_err(io)?;
        file.as_file().sync_data().map_err(io)?;
        placed.sort_unstable_by_key(|p| p.oid);
        let name = format!("pack-{}", hex::encode(checksum));
        let mut index_file = tempfile::Builder::new()
            .prefix("tmp_idx_")
            .tempfile_in(&self.dir)
            .map_err(|e| CheckpointError::io(&self.dir, e))?;
        let index_io = |e| CheckpointError::io(&self.dir, e);
        index_file.write_all(&index_bytes(&placed, &checksum)).map_err(index_io)?;
        index_file.as_file().sync_data().map_err(index_io)?;
        let pack_path = self.dir.join(format!("{name}.pack"));
        file.persist(&pack_path).map_err(|e| CheckpointError::io(&pack_path, e.error))?;
        let index_path = self.dir.join(format!("{name}.idx"));
        index_file.persist(&index_path).map_err(|e| CheckpointError::io(&index_path, e.error))?;
        Ok(())
    }
}

/// Write `object`'s entry at the end of the open pack, unless the store holds it.
fn append(state: &mut State, object: &Packed) -> Result<(), CheckpointError> {
    if state.stored.as_ref().is_some_and(|stored| stored.holds(&object.oid)) {
        return Ok(());
    }
    let Some(file) = state.file.as_mut() else { return Ok(()) };
    file.write_all(&object.entry).map_err(|e| CheckpointError::io(file.path(), e))?;
    state.placed.push(Placed { oid: object.oid, crc: crc32fast::hash(&object.entry), offset: state.length });
    state.length += object.entry.len() as u64;
    Ok(())
}

/// The SHA-1 of the whole file, read from its start; leaves the file at its end.
fn checksum_of(file: &mut std::fs::File) -> std::io::Result<[u8; 20]> {
    file.seek(SeekFrom::Start(0))?;
    let mut hasher = Sha1::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hasher.finalize().into())
}

/// A version 2 pack index of `placed` (sorted by id): the fan-out table, the ids, their CRCs,
/// their offsets (those past 2 GiB in a table of their own), the pack's checksum, its own.
fn index_bytes(placed: &[Placed], pack_checksum: &[u8; 20]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + 256 * 4 + placed.len() * 28 + 40);
    out.extend_from_slice(&INDEX_MAGIC);
    out.extend_from_slice(&2u32.to_be_bytes());
    let mut below = 0u32;
    for first in 0..=255u8 {
        below += placed.iter().skip(below as usize).take_while(|p| p.oid[0] == first).count() as u32;
        out.extend_from_slice(&below.to_be_bytes());
    }
    placed.iter().for_each(|p| out.extend_from_slice(&p.oid));
    placed.iter().for_each(|p| out.extend_from_slice(&p.crc.to_be_bytes()));
    let mut large = Vec::new();
    for p in placed {
        let small = match u32::try_from(p.offset) {
            Ok(offset) if offset < 0x8000_0000 => offset,
            _ => {
                large.push(p.offset);
                0x8000_0000 | (large.len() as u32 - 1)
            }
        };
        out.extend_from_slice(&small.to_be_bytes());
    }
    large.iter().for_each(|offset| out.extend_from_slice(&offset.to_be_bytes()));
    out.extend_from_slice(pack_checksum);
    let own: [u8; 20] = Sha1::digest(&out).into();
    out.extend_from_slice(&own);
    out
}

#[cfg(all(test, unix))]
#[path = "pack_tests.rs"]
mod tests;
