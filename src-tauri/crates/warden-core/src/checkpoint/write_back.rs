//! Putting files back the way the file tools write them, so that nothing a process in the project
//! does while a restore runs can steer it elsewhere. Every folder is opened by its single name from
//! its parent's handle, never following a link, starting at the project's root handle, and its real
//! location is checked; every file is written under a staging name created exclusively in that
//! folder (`O_CREAT|O_EXCL`, which never follows a link), flushed, and renamed over its name in the
//! same folder; the folder's location is checked again afterwards. A folder swapped for a link to
//! `~/.ssh` makes the open fail: the file is reported, not written there.
//!
//! Each file is replaced in one rename, so a restore killed at any moment leaves every file with
//! its bytes before or its bytes in the checkpoint. Every file is staged first, then the file
//! system is flushed once (`syncfs`: one journal commit instead of an fsync per file, which costs
//! milliseconds each), then the renames are made and flushed once more. Staging names are noted in
//! the store's journal before they are made, and the next open of the store removes any a kill
//! left behind.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_fs_ext::DirExt;
use cap_std::fs::{Dir, OpenOptions};

use super::changes::RawChange;
use super::objects::{CatFile, MODE_EXECUTABLE, MODE_LINK};
use super::scan::native_path;
use super::CheckpointError;
use crate::sandbox::{Access, Workspace};

static STAGED: AtomicU64 = AtomicU64::new(0);
/// The mark of a staging name: `.<name>.warden-restore-<pid>-<n>`.
const STAGING_MARK: &str = ".warden-restore-";
/// Room left for the target's name inside a staging name (NAME_MAX is 255).
const MAX_NAME_IN_STAGING: usize = 180;

/// One file a restore could not put back, and why.
#[derive(Debug)]
pub(super) struct NotRestored {
    pub path: String,
    pub reason: String,
}

/// Writes a checkpoint's files back into the project.
pub(super) struct WriteBack<'a> {
    workspace: &'a Workspace,
    root: Dir,
    journal: &'a Journal,
}

impl<'a> WriteBack<'a> {
    pub fn new(workspace: &'a Workspace, journal: &'a Journal) -> Result<Self, CheckpointError> {
        let root = open_root(workspace)?;
        Ok(Self { workspace, root, journal })
    }

    /// Remove the files `changes` says the checkpoint does not hold (then the folders that leaves
    /// empty), and write those it holds. Every path is tried; the ones that failed are returned.
    pub fn apply(&self, cat: &mut CatFile, changes: &[RawChange]) -> Vec<NotRestored> {
        let mut failed = Vec::new();
        let mut note = |path: &[u8], reason: String| {
            failed.push(NotRestored { path: String::from_utf8_lossy(path).into_owned(), reason });
        };
        for change in changes.iter().filter(|c| c.new.is_none()) {
            if let Err(reason) = self.remove(&change.path) {
                note(&change.path, reason);
            }
        }
        // The files to write, by folder: each folder is opened once to stage and once to rename.
        let mut by_folder: BTreeMap<&[u8], Vec<(&RawChange, &str, &str)>> = BTreeMap::new();
        for change in changes {
            if let Some((mode, oid)) = &change.new {
                let folder = change.path.rsplit_once_byte(b'/').map_or(&b""[..], |(folder, _)| folder);
                by_folder.entry(folder).or_default().push((change, mode, oid));
            }
        }
        let mut staged = Vec::new();
        for (folder, files) in &by_folder {
            match self.stage_folder(cat, folder, files) {
                Ok((done, not)) => {
                    staged.push((*folder, done));
                    for (path, reason) in not {
                        note(path, reason);
                    }
                }
                Err(reason) => {
                    for (change, _, _) in files {
                        note(&change.path, reason.clone());
                    }
                }
            }
        }
        self.flush();
        for (folder, files) in staged {
            for (path, reason) in self.rename_folder(folder, &files) {
                note(path, reason);
            }
        }
        self.flush();
        failed
    }

    /// Remove the file (or link) at `path`; a folder there is left alone.
    fn remove(&self, path: &[u8]) -> Result<(), String> {
        let folders = parts_of(path.rsplit_once_byte(b'/').map_or(&b""[..], |(folder, _)| folder));
        let name = name_of(path);
        let parent = match self.folder(&folders, false) {
            Ok(parent) => parent,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e.to_string()),
        };
        match parent.symlink_metadata(name) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e.to_string()),
            Ok(meta) if meta.is_dir() => return Ok(()),
            Ok(_) => {}
        }
        match parent.remove_file(name) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.to_string()),
        }
        self.check(&parent, &folders)?;
        // Folders the removal emptied go too (git keeps no folders; the checkpoint had none).
        for depth in (1..=folders.len()).rev() {
            let Ok(above) = self.folder(&folders[..depth - 1], false) else { break };
            if above.remove_dir(folders[depth - 1]).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// Stage the files of one folder (made when missing) under staging names: the ones staged
    /// (with their staging names) and the ones that could not be.
    fn stage_folder<'c>(
        &self,
        cat: &mut CatFile,
        folder: &[u8],
        files: &[(&'c RawChange, &str, &str)],
    ) -> Result<(Vec<Staged<'c>>, Vec<Failed<'c>>), String> {
        let parts = parts_of(folder);
        let dir = self.folder(&parts, true).map_err(|e| e.to_string())?;
        self.check(&dir, &parts)?;
        let (mut staged, mut failed) = (Vec::new(), Vec::new());
        for (change, mode, oid) in files {
            let name = name_of(&change.path);
            let staging = staging_name(name);
            let done = self
                .journal
                .note(folder, &staging)
                .map_err(|e| format!("the restore journal: {e}"))
                .and_then(|()| cat.blob(oid).map_err(|e| e.to_string()))
                .and_then(|bytes| {
                    if *mode == MODE_LINK {
                        dir.symlink_contents(native_path(&bytes), &staging).map_err(|e| e.to_string())
                    } else {
                        stage_file(&dir, &staging, &bytes, *mode == MODE_EXECUTABLE)
                    }
                });
            match done {
                Ok(()) => staged.push(Staged { path: &change.path, staging }),
                Err(reason) => {
                    let _ = dir.remove_file(&staging);
                    failed.push((change.path.as_slice(), reason));
                }
            }
        }
        Ok((staged, failed))
    }

    /// Put one folder's staged files in place, each by one rename in the folder (opened again
    /// by its handles: a folder swapped since staging is not followed).
    fn rename_folder<'c>(&self, folder: &[u8], files: &[Staged<'c>]) -> Vec<Failed<'c>> {
        let parts = parts_of(folder);
        let dir = match self.folder(&parts, false).map_err(|e| e.to_string()).and_then(|dir| {
            self.check(&dir, &parts)?;
            Ok(dir)
        }) {
            Ok(dir) => dir,
            Err(reason) => return files.iter().map(|f| (f.path, reason.clone())).collect(),
        };
        let mut failed = Vec::new();
        for file in files {
            let name = name_of(file.path);
            if let Err(e) = dir.rename(&file.staging, &dir, name) {
                let _ = dir.remove_file(&file.staging);
                let reason = match dir.symlink_metadata(name) {
                    Ok(meta) if meta.is_dir() => "a folder is there now; it was left as it is".to_owned(),
                    _ => e.to_string(),
                };
                failed.push((file.path, reason));
            }
        }
        if let Err(reason) = self.check(&dir, &parts) {
            failed.extend(files.iter().map(|f| (f.path, reason.clone())));
        }
        failed
    }

    /// Make what was written so far durable: one flush of the project's file system (each file
    /// where `syncfs` is missing was flushed as it was staged).
    fn flush(&self) {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            if let Err(error) = nix::unistd::syncfs(self.root.as_raw_fd()) {
                tracing::warn!(%error, "could not flush the restored files");
            }
        }
    }

    /// Open the folder `parts` names below the root, one name at a time without following a link,
    /// making the missing ones when `create`.
    fn folder(&self, parts: &[&OsStr], create: bool) -> io::Result<Dir> {
        let mut dir = self.root.try_clone()?;
        for part in parts {
            dir = match dir.open_dir_nofollow(part) {
                Ok(next) => next,
                Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                    match dir.create_dir(part) {
                        Ok(()) => {}
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                        Err(e) => return Err(e),
                    }
                    dir.open_dir_nofollow(part).map_err(|e| not_a_folder(part, e))?
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(e),
                Err(e) => return Err(not_a_folder(part, e)),
            };
        }
        Ok(dir)
    }

    /// The folder's handle is still where the project has it.
    fn check(&self, dir: &Dir, parts: &[&OsStr]) -> Result<(), String> {
        let relative: PathBuf = parts.iter().collect();
        self.workspace.verify_dir(dir, &relative, 0)
    }
}

fn stage_file(parent: &Dir, staging: &OsStr, bytes: &[u8], executable: bool) -> Result<(), String> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    cap_std::fs::OpenOptionsExt::mode(&mut options, if executable { 0o777 } else { 0o666 });
    #[cfg(not(unix))]
    let _ = executable;
    let mut file = parent.open_with(staging, &options).map_err(|e| e.to_string())?.into_std();
    file.write_all(bytes).map_err(|e| e.to_string())?;
    // Linux flushes every staged file at once (`WriteBack::flush`); elsewhere each one here.
    if cfg!(not(target_os = "linux")) {
        file.sync_all().map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn not_a_folder(part: &OsStr, e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!(
            "{} is not a folder now (a link or a file is there: {e}); nothing was written through it",
            Path::new(part).display()
        ),
    )
}

/// A path that could not be put back, and why.
type Failed<'c> = (&'c [u8], String);

/// A file staged in its folder, waiting for its rename.
struct Staged<'c> {
    path: &'c [u8],
    staging: OsString,
}

/// The folders of a `/`-separated folder path (none for the root).
fn parts_of(folder: &[u8]) -> Vec<&OsStr> {
    if folder.is_empty() {
        return Vec::new();
    }
    folder.split(|b| *b == b'/').map(os_str).collect()
}

/// The last component of a git path.
fn name_of(path: &[u8]) -> &OsStr {
    os_str(path.rsplit_once_byte(b'/').map_or(path, |(_, name)| name))
}

/// Splitting a path at its last `/`.
trait RsplitOnceByte {
    fn rsplit_once_byte(&self, byte: u8) -> Option<(&[u8], &[u8])>;
}

impl RsplitOnceByte for [u8] {
    fn rsplit_once_byte(&self, byte: u8) -> Option<(&[u8], &[u8])> {
        let at = self.iter().rposition(|b| *b == byte)?;
        Some((&self[..at], &self[at + 1..]))
    }
}

#[cfg(unix)]
fn os_str(bytes: &[u8]) -> &OsStr {
    std::os::unix::ffi::OsStrExt::from_bytes(bytes)
}

#[cfg(not(unix))]
fn os_str(bytes: &[u8]) -> &OsStr {
    OsStr::new(std::str::from_utf8(bytes).unwrap_or("\u{fffd}"))
}

fn staging_name(name: &OsStr) -> OsString {
    let n = STAGED.fetch_add(1, Ordering::Relaxed);
    let mut head = String::new();
    for c in name.to_string_lossy().chars() {
        if head.len() + c.len_utf8() > MAX_NAME_IN_STAGING {
            break;
        }
        head.push(c);
    }
    OsString::from(format!(".{head}{STAGING_MARK}{}-{n}", std::process::id()))
}

/// The project's root, opened and checked as the file tools open it.
fn open_root(workspace: &Workspace) -> Result<Dir, CheckpointError> {
    let root = workspace.resolve(".", Access::Read).map_err(|e| CheckpointError::Scan(e.to_string()))?;
    workspace.open_dir(&root).map_err(|e| CheckpointError::Scan(e.to_string()))
}

/// The staging names a restore made, so that the next open of the store can remove any left by a
/// restore that was killed: one line per name, `<folder in hex> <name in hex>`.
pub(super) struct Journal {
    path: PathBuf,
}

impl Journal {
    pub fn new(path: PathBuf) -> Self {
        Self { path }
    }

    /// Note a staging name before it is made.
    fn note(&self, folder: &[u8], staging: &OsStr) -> io::Result<()> {
        let line = format!("{} {}\n", hex::encode(folder), hex::encode(staging.as_encoded_bytes()));
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&self.path)?;
        file.write_all(line.as_bytes())
    }

    /// The restore ended: its names are all gone.
    pub fn clear(&self) {
        let _ = std::fs::remove_file(&self.path);
    }

    /// Remove what a killed restore left (only names with the staging mark, never a folder), then
    /// the journal.
    pub fn recover(&self, workspace: &Workspace) {
        let Ok(text) = std::fs::read_to_string(&self.path) else { return };
        let Ok(root) = open_root(workspace) else { return };
        for line in text.lines() {
            let Some((folder, name)) = line.split_once(' ') else { continue };
            let (Ok(folder), Ok(name)) = (hex::decode(folder), hex::decode(name)) else { continue };
            let name = os_str(&name);
            if !name.to_string_lossy().contains(STAGING_MARK) || name.is_empty() {
                continue;
            }
            let mut dir = root.try_clone().ok();
            if !folder.is_empty() {
                for part in folder.split(|b| *b == b'/') {
                    dir = dir.and_then(|d| d.open_dir_nofollow(os_str(part)).ok());
                }
            }
            let Some(dir) = dir else { continue };
            if dir.symlink_metadata(name).is_ok_and(|m| !m.is_dir()) {
                let _ = dir.remove_file(name);
            }
        }
        self.clear();
    }
}
