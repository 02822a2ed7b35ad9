//! The shadow repository's objects, written by Warden itself (loose, or many at once as a pack): blobs from bytes read through the
//! project's verified handles, trees from entries Warden assembled — so no git of the store is
//! ever handed a path to follow. Reading goes through one long-lived `git cat-file --batch` over
//! pipes, each request under the store's time limit.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::deadline::Watch;
use super::pack::{object_id, Kind, Pack, Packed};
use super::CheckpointError;

/// Tree modes as git writes them in trees.
pub(super) const MODE_FILE: &str = "100644";
pub(super) const MODE_EXECUTABLE: &str = "100755";
pub(super) const MODE_LINK: &str = "120000";
pub(super) const MODE_TREE: &str = "40000";

/// One entry of a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TreeEntry {
    pub mode: &'static str,
    pub name: Vec<u8>,
    pub oid: String,
}

impl TreeEntry {
    pub fn is_tree(&self) -> bool {
        self.mode == MODE_TREE
    }
}

/// Writes loose objects into the store (shared by the threads of a first snapshot).
#[derive(Debug)]
pub(super) struct ObjectWriter {
    objects_dir: PathBuf,
    /// The two-hex-digit folders known to exist (bit per folder): one `mkdir` each, not one per object.
    made: [AtomicU64; 4],
}

impl ObjectWriter {
    pub fn new(git_dir: &Path) -> Self {
        Self { objects_dir: git_dir.join("objects"), made: Default::default() }
    }

    /// Store `bytes` as a blob and return its id.
    pub fn blob(&self, bytes: &[u8]) -> Result<String, CheckpointError> {
        self.write("blob", bytes)
    }

    /// Store a tree of `entries` (any order; names must be unique) and return its id.
    pub fn tree(&self, entries: &mut [TreeEntry]) -> Result<String, CheckpointError> {
        self.write("tree", &tree_bytes(entries))
    }

    /// The id and raw bytes of a tree of `entries`, not stored: see [`ObjectWriter::trees`].
    pub fn tree_object(entries: &mut [TreeEntry]) -> (String, Vec<u8>) {
        let bytes = tree_bytes(entries);
        (Self::id("tree", &bytes), bytes)
    }

    /// Store the raw trees `trees`: many (a first snapshot's) as one pack, a few as loose objects.
    pub fn trees(&self, trees: Vec<Vec<u8>>) -> Result<(), CheckpointError> {
        let batch = self.batch(false);
        for bytes in trees {
            batch.add(Packed::new(Kind::Tree, bytes))?;
        }
        self.finish(batch)
    }

    /// A batch of objects to store together ([`Pack::new`] says what `beside_stored` does).
    pub fn batch(&self, beside_stored: bool) -> Pack {
        Pack::new(&self.objects_dir, beside_stored)
    }

    /// Make a batch's objects part of the store.
    pub fn finish(&self, batch: Pack) -> Result<(), CheckpointError> {
        batch.finish(|kind, content| self.write(kind.name(), content).map(drop))
    }

    /// The id git gives an object of `kind` holding `bytes`.
    pub fn id(kind: &str, bytes: &[u8]) -> String {
        hex::encode(object_id(kind, bytes))
    }

    /// Store an object as git stores a loose one (zlib of header and bytes) unless it is there.
    fn write(&self, kind: &str, bytes: &[u8]) -> Result<String, CheckpointError> {
        let oid = Self::id(kind, bytes);
        let dir = self.objects_dir.join(&oid[..2]);
        let path = dir.join(&oid[2..]);
        if path.exists() {
            return Ok(oid);
        }
        self.make_dir(&oid, &dir)?;
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(1));
        encoder
            .write_all(format!("{kind} {}\0", bytes.len()).as_bytes())
            .and_then(|()| encoder.write_all(bytes))
            .map_err(|e| CheckpointError::io(&path, e))?;
        let compressed = encoder.finish().map_err(|e| CheckpointError::io(&path, e))?;
        let temp = || tempfile::Builder::new().prefix("tmp_obj_").tempfile_in(&dir);
        let mut temp = match temp() {
            // Housekeeping's repack takes away the folders it emptied.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(&dir).and_then(|()| temp())
            }
            made => made,
        }
        .map_err(|e| CheckpointError::io(&dir, e))?;
        temp.write_all(&compressed).map_err(|e| CheckpointError::io(&path, e))?;
        // Another writer may have stored the same object meanwhile: either copy is the object.
        match temp.persist_noclobber(&path) {
            Ok(_) => Ok(oid),
            Err(_) if path.exists() => Ok(oid),
            Err(e) => Err(CheckpointError::io(&path, e.error)),
        }
    }

    fn make_dir(&self, oid: &str, dir: &Path) -> Result<(), CheckpointError> {
        let index = usize::from_str_radix(&oid[..2], 16).unwrap_or(0);
        let (word, bit) = (&self.made[index / 64], 1u64 << (index % 64));
        if word.load(Ordering::Relaxed) & bit == 0 {
            std::fs::create_dir_all(dir).map_err(|e| CheckpointError::io(dir, e))?;
            word.fetch_or(bit, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// Forty lowercase hex digits.
pub(super) fn is_oid(text: &str) -> bool {
    text.len() == 40 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A raw tree: entries in git's order (a folder sorts as if its name ended in `/`), each
/// `<mode> <name>\0<20-byte id>`.
fn tree_bytes(entries: &mut [TreeEntry]) -> Vec<u8> {
    entries.sort_by_key(sort_key);
    let mut out = Vec::with_capacity(entries.len() * 40);
    for entry in entries.iter() {
        out.extend_from_slice(entry.mode.as_bytes());
        out.push(b' ');
        out.extend_from_slice(&entry.name);
        out.push(0);
        let mut raw = [0u8; 20];
        // Ids are made here or read from git: always 40 hex digits.
        let _ = hex::decode_to_slice(&entry.oid, &mut raw);
        out.extend_from_slice(&raw);
    }
    out
}

fn sort_key(entry: &TreeEntry) -> Vec<u8> {
    let mut key = entry.name.clone();
    if entry.is_tree() {
        key.push(b'/');
    }
    key
}

/// A long-lived `git cat-file --batch`: objects read by id over pipes.
pub(super) struct CatFile {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    watch: Watch,
    limit: Duration,
}

impl CatFile {
    /// Start it; `command` is the store's `git cat-file --batch`.
    pub fn start(mut command: Command, limit: Duration) -> Result<Self, CheckpointError> {
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = command.spawn().map_err(|e| git_error(&e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(git_error("no pipes"));
        };
        let watch = Watch::new(child.id());
        Ok(Self { child, stdin, stdout: BufReader::new(stdout), watch, limit })
    }

    /// The kind and bytes of object `oid`.
    pub fn read(&mut self, oid: &str) -> Result<(String, Vec<u8>), CheckpointError> {
        self.watch.arm(self.limit);
        let answer = self.request(oid);
        if self.watch.disarm() {
            return Err(git_error(&format!(
                "did not answer within {} s and was stopped",
                self.limit.as_secs()
            )));
        }
        answer
    }

    fn request(&mut self, oid: &str) -> Result<(String, Vec<u8>), CheckpointError> {
        writeln!(self.stdin, "{oid}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| git_error(&e.to_string()))?;
        let mut header = String::new();
        self.stdout.read_line(&mut header).map_err(|e| git_error(&e.to_string()))?;
        let mut parts = header.split_whitespace();
        let (Some(_), Some(kind), Some(size)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(git_error(&format!("no object {oid}: {}", header.trim())));
        };
        let size: usize = size.parse().map_err(|_| git_error(&format!("bad size in {header}")))?;
        let mut bytes = vec![0; size + 1];
        self.stdout.read_exact(&mut bytes).map_err(|e| git_error(&e.to_string()))?;
        bytes.pop();
        Ok((kind.to_owned(), bytes))
    }

    /// The bytes of blob `oid`, hashed again: what the store reads from the project's objects
    /// (a first snapshot's borrowed blobs) is writable by the project's commands.
    pub fn blob(&mut self, oid: &str) -> Result<Vec<u8>, CheckpointError> {
        match self.read(oid)? {
            (kind, bytes) if kind == "blob" && ObjectWriter::id("blob", &bytes) == oid => Ok(bytes),
            (kind, _) if kind == "blob" => {
                Err(git_error(&format!("the bytes git gave for blob {oid} are not what its id says")))
            }
            (kind, _) => Err(git_error(&format!("{oid} is a {kind}, not a blob"))),
        }
    }
}

impl Drop for CatFile {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn git_error(message: &str) -> CheckpointError {
    CheckpointError::Git { command: "git cat-file".into(), message: message.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids Warden gives blobs and trees are git's own: `git` reads them back, and makes the
    /// same tree from the same entries (folders sorted as if their names ended in `/`).
    #[test]
    fn objects_written_here_are_the_ones_git_makes() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let git = super::super::git::Git::new(dir.path().join("store"));
        git.init().unwrap_or_else(|e| panic!("{e}"));
        let writer = ObjectWriter::new(git.git_dir());
        let blob = writer.blob(b"hello\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(blob, "ce013625030ba8dba906f756967f9e9ca394464a");
        let inner = writer
            .tree(&mut [TreeEntry { mode: MODE_FILE, name: b"x".to_vec(), oid: blob.clone() }])
            .unwrap_or_else(|e| panic!("{e}"));
        let mut entries = vec![
            TreeEntry { mode: MODE_FILE, name: b"a.b".to_vec(), oid: blob.clone() },
            TreeEntry { mode: MODE_TREE, name: b"a".to_vec(), oid: inner.clone() },
            TreeEntry { mode: MODE_EXECUTABLE, name: b"a-".to_vec(), oid: blob.clone() },
            TreeEntry { mode: MODE_LINK, name: b"l\xff".to_vec(), oid: blob.clone() },
        ];
        let ours = writer.tree(&mut entries).unwrap_or_else(|e| panic!("{e}"));
        let mut input = Vec::new();
        for (mode, kind, name, oid) in [
            ("100644", "blob", &b"a.b"[..], &blob),
            ("040000", "tree", b"a", &inner),
            ("100755", "blob", b"a-", &blob),
            ("120000", "blob", b"l\xff", &blob),
        ] {
            input.extend_from_slice(format!("{mode} {kind} {oid}\t").as_bytes());
            input.extend_from_slice(name);
            input.push(0);
        }
        let theirs = git.run(&["mktree", "-z"], Some(&input)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ours, String::from_utf8_lossy(&theirs).trim());
        let mut cat = CatFile::start(git.command_unheld(&["cat-file", "--batch"]), Duration::from_secs(30))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cat.blob(&blob).unwrap_or_else(|e| panic!("{e}")), b"hello\n");
        let listed =
            git.run(&["ls-tree", "-z", "--name-only", &ours], None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(listed, b"a-\0a.b\0a\0l\xff\0");
    }
}
