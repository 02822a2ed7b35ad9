//! Writing snapshots without the index: blobs hashed and stored by Warden itself (from contents it
//! read through the sandbox's handles, so no path is followed twice), trees read and made by two
//! long-lived gits (`cat-file --batch`, `mktree -z --batch`) over pipes. A checkpoint after a few
//! files changed costs a few pipe round trips instead of a pass over the whole index.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use sha1::{Digest, Sha1};

use super::CheckpointError;

/// One entry of a tree: `mode` as git writes it in trees (`100644`, `100755`, `120000`, `40000`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TreeEntry {
    pub mode: String,
    pub name: Vec<u8>,
    pub oid: String,
}

impl TreeEntry {
    pub fn is_tree(&self) -> bool {
        self.mode == "40000"
    }
}

/// A long-lived git reading requests on stdin and answering on stdout.
struct Pipe {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Pipe {
    fn start(mut command: Command) -> Result<Self, CheckpointError> {
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = command.spawn().map_err(|e| git_error("start", e))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(git_error("start", std::io::Error::other("no pipes")));
        };
        Ok(Self { child, stdin, stdout: BufReader::new(stdout) })
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(super) struct Objects {
    objects_dir: PathBuf,
    cat: Pipe,
    mktree: Pipe,
}

impl Objects {
    /// Start the two gits; `command` makes a git command against the shadow repository.
    pub fn start(git_dir: &Path, command: impl Fn(&[&str]) -> Command) -> Result<Self, CheckpointError> {
        Ok(Self {
            objects_dir: git_dir.join("objects"),
            cat: Pipe::start(command(&["cat-file", "--batch"]))?,
            mktree: Pipe::start(command(&["mktree", "-z", "--batch"]))?,
        })
    }

    /// Store `bytes` as a blob (a loose object, as git writes them) and return its id.
    pub fn write_blob(&self, bytes: &[u8]) -> Result<String, CheckpointError> {
        let header = format!("blob {}\0", bytes.len());
        let mut hasher = Sha1::new();
        hasher.update(header.as_bytes());
        hasher.update(bytes);
        let oid = hex::encode(hasher.finalize());
        let dir = self.objects_dir.join(&oid[..2]);
        let path = dir.join(&oid[2..]);
        if path.exists() {
            return Ok(oid);
        }
        std::fs::create_dir_all(&dir).map_err(|e| CheckpointError::io(&dir, e))?;
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(1));
        encoder
            .write_all(header.as_bytes())
            .and_then(|()| encoder.write_all(bytes))
            .map_err(|e| CheckpointError::io(&path, e))?;
        let compressed = encoder.finish().map_err(|e| CheckpointError::io(&path, e))?;
        let mut temp = tempfile::Builder::new()
            .prefix("tmp_obj_")
            .tempfile_in(&dir)
            .map_err(|e| CheckpointError::io(&dir, e))?;
        temp.write_all(&compressed).map_err(|e| CheckpointError::io(&path, e))?;
        // Another writer may have stored the same object meanwhile: either copy is the object.
        match temp.persist_noclobber(&path) {
            Ok(_) => Ok(oid),
            Err(_) if path.exists() => Ok(oid),
            Err(e) => Err(CheckpointError::io(&path, e.error)),
        }
    }

    /// The entries of tree `oid`.
    pub fn read_tree(&mut self, oid: &str) -> Result<Vec<TreeEntry>, CheckpointError> {
        let pipe = &mut self.cat;
        writeln!(pipe.stdin, "{oid}")
            .and_then(|()| pipe.stdin.flush())
            .map_err(|e| git_error("cat-file", e))?;
        let mut header = String::new();
        pipe.stdout.read_line(&mut header).map_err(|e| git_error("cat-file", e))?;
        let mut parts = header.split_whitespace();
        let (Some(_), Some("tree"), Some(size)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(CheckpointError::Git {
                command: "git cat-file".into(),
                message: format!("not a tree: {header}"),
            });
        };
        let size: usize = size.parse().map_err(|_| CheckpointError::Git {
            command: "git cat-file".into(),
            message: format!("bad size in {header}"),
        })?;
        let mut raw = vec![0; size + 1];
        pipe.stdout.read_exact(&mut raw).map_err(|e| git_error("cat-file", e))?;
        raw.pop();
        parse_tree(&raw)
    }

    /// Make a tree of `entries` (in any order) and return its id.
    pub fn make_tree(&mut self, entries: &[TreeEntry]) -> Result<String, CheckpointError> {
        let mut input = Vec::new();
        for entry in entries {
            let kind = match entry.mode.as_str() {
                "40000" => "tree",
                "160000" => "commit",
                _ => "blob",
            };
            input.extend_from_slice(format!("{} {kind} {}\t", entry.mode, entry.oid).as_bytes());
            input.extend_from_slice(&entry.name);
            input.push(0);
        }
        input.push(0);
        let pipe = &mut self.mktree;
        pipe.stdin.write_all(&input).and_then(|()| pipe.stdin.flush()).map_err(|e| git_error("mktree", e))?;
        let mut line = String::new();
        pipe.stdout.read_line(&mut line).map_err(|e| git_error("mktree", e))?;
        let oid = line.trim();
        if oid.len() != 40 || !oid.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(CheckpointError::Git {
                command: "git mktree".into(),
                message: format!("unexpected `{oid}`"),
            });
        }
        Ok(oid.to_owned())
    }
}

/// A raw tree object: `<mode> <name>\0<20-byte id>` repeated.
fn parse_tree(mut raw: &[u8]) -> Result<Vec<TreeEntry>, CheckpointError> {
    let bad = || CheckpointError::Git { command: "git cat-file".into(), message: "a malformed tree".into() };
    let mut entries = Vec::new();
    while !raw.is_empty() {
        let space = raw.iter().position(|b| *b == b' ').ok_or_else(bad)?;
        let nul = raw.iter().position(|b| *b == 0).ok_or_else(bad)?;
        if nul < space || raw.len() < nul + 21 {
            return Err(bad());
        }
        entries.push(TreeEntry {
            mode: String::from_utf8_lossy(&raw[..space]).into_owned(),
            name: raw[space + 1..nul].to_vec(),
            oid: hex::encode(&raw[nul + 1..nul + 21]),
        });
        raw = &raw[nul + 21..];
    }
    Ok(entries)
}

fn git_error(command: &str, e: std::io::Error) -> CheckpointError {
    CheckpointError::Git { command: format!("git {command}"), message: e.to_string() }
}
