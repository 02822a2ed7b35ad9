//! The package caches' private layer. The user's caches (`~/.cargo/registry`, `~/.npm`, …) hold
//! code that runs later outside any box (a crate's `build.rs`, what `npx` starts), so a box must
//! never change them; but builds read them (offline work) and write to them (downloads, unpacked
//! crates). So bubblewrap's box shows each cache read-only, with an overlay over it whose upper
//! folder is the project's own: `<project storage>/cache-layer/<cache>/{upper,work}`. Reads see
//! the user's cache and what the project's boxes added; writes land in the layer, which only the
//! project's boxes ever see. `warden-box` mounts the overlays inside the box ([`super::bwrap`]).
//!
//! The layer lives in Warden's storage for the project (the file tools' second root), not in the
//! project: nothing outside a box reads it. Settings → Sandbox shows its size and clears it.

use std::path::{Path, PathBuf};

use super::BoxPolicy;

/// The layer's folder in a project's storage.
pub const LAYER_DIR: &str = "cache-layer";

/// Where bubblewrap puts each overlay's parts inside the box, `N/lower` and `N/layer`, for
/// `warden-box` to mount and then detach: on the box's private `/tmp`, at a path of Warden's own
/// whose characters mean nothing to overlayfs's options (the user's cache path may hold `,` or `:`).
pub(super) const STAGING_IN_BOX: &str = "/tmp/.warden-layers";

/// One cache with its overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layer {
    /// The user's cache, the overlay's lower folder and where the overlay goes.
    pub cache: PathBuf,
    /// The project's layer for it on the host, holding `upper/` and `work/`.
    pub dir: PathBuf,
    /// Its staging folder in the box ([`STAGING_IN_BOX`]).
    pub staging: PathBuf,
}

/// The caches of `policy` that get an overlay: all of them when the policy has a layer, but one
/// that holds something else the box mounts (the project, a folder it shows or writes): an overlay
/// would hide that mount, so such a cache stays read-only.
pub(super) fn layers(policy: &BoxPolicy) -> Vec<Layer> {
    let Some(root) = &policy.cache_layer else { return Vec::new() };
    let others: Vec<&PathBuf> = std::iter::once(&policy.project)
        .chain(&policy.writable)
        .chain(&policy.visible)
        .chain(&policy.readable)
        .chain(&policy.pinned)
        .collect();
    policy
        .caches
        .iter()
        .filter(|cache| !others.iter().any(|other| other.starts_with(cache) || cache.starts_with(other)))
        .enumerate()
        .map(|(index, cache)| Layer {
            cache: cache.clone(),
            dir: root.join(name(cache)),
            staging: Path::new(STAGING_IN_BOX).join(index.to_string()),
        })
        .collect()
}

/// Where the boxes' locks are kept, in the layer's folder (a name no cache's layer takes).
const BOXES: &str = ".boxes";
const LOCK: &str = ".lock";

/// One box's own work folders in the layer: overlayfs's work folder cannot be shared by two
/// mounts (each mount empties it as it starts, so two boxes of one project starting at once broke
/// each other's mount), while the upper folder is the project's, shared by its boxes.
#[derive(Debug)]
pub(super) struct BoxWork {
    /// The name of the box's work folder in each layer's `work/` (`box-XXXXXX`).
    pub name: String,
    /// A shared lock on `.boxes/NAME.lock`, which the box inherits: a later box that can lock it
    /// exclusively knows every process of this one is gone, and removes its work folders.
    pub lock: std::os::fd::OwnedFd,
}

/// The layer's folders, made before the box starts (overlayfs needs them to exist): each cache's
/// `upper/`, and the box's own work folder in each cache's `work/`, after removing those of boxes
/// that have ended. `root` is the project's layer folder (`BoxPolicy::cache_layer`).
pub(super) fn prepare(root: &Path, layers: &[Layer]) -> std::io::Result<Option<BoxWork>> {
    if layers.is_empty() {
        return Ok(None);
    }
    let boxes = root.join(BOXES);
    std::fs::create_dir_all(&boxes)?;
    sweep(root, &boxes);
    let work = hold_new_lock(&boxes)?;
    for layer in layers {
        std::fs::create_dir_all(layer.dir.join("upper"))?;
        std::fs::create_dir_all(layer.dir.join("work").join(&work.name))?;
    }
    Ok(Some(work))
}

/// A new lock file in `boxes`, held shared through a read-only descriptor (the box inherits it and
/// can do nothing with it but hold it). The file is locked through the descriptor that made it
/// before anything else: a sweep running meanwhile in another box's launch may take and remove it
/// only in the moment before, and then the path no longer leads to it and another is made.
// nix 0.29 deprecates `flock` for `Flock`, which unlocks when dropped: here the lock must outlive
// Warden's descriptor (the box's inherited copy holds it).
#[allow(deprecated)]
fn hold_new_lock(boxes: &Path) -> std::io::Result<BoxWork> {
    use nix::fcntl::{flock, FlockArg};
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;
    loop {
        let made = tempfile::Builder::new().prefix("box-").suffix(LOCK).tempfile_in(boxes)?;
        flock(made.as_file().as_raw_fd(), FlockArg::LockShared).map_err(std::io::Error::from)?;
        let (making, path) = made.keep().map_err(|e| e.error)?;
        let still_there = std::fs::symlink_metadata(&path)
            .and_then(|on_disk| making.metadata().map(|locked| on_disk.ino() == locked.ino()))
            .unwrap_or(false);
        if !still_there {
            continue;
        }
        // Held by `making` meanwhile, so no sweep can take it between these two.
        let held = std::fs::File::open(&path)?;
        flock(held.as_raw_fd(), FlockArg::LockShared).map_err(std::io::Error::from)?;
        drop(making);
        let name = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(LOCK));
        return match name {
            Some(name) => Ok(BoxWork { name: name.to_owned(), lock: held.into() }),
            None => Err(std::io::Error::other("a lock file without its name")),
        };
    }
}

/// Remove the work folders of the boxes whose lock nobody holds any more, and their locks.
#[allow(deprecated)]
fn sweep(root: &Path, boxes: &Path) {
    use nix::fcntl::{flock, FlockArg};
    use std::os::fd::AsRawFd;
    let Ok(entries) = std::fs::read_dir(boxes) else { return };
    // Listed once, and only when a box has ended: every launch sweeps, most find nothing to do.
    let mut layers: Option<Vec<PathBuf>> = None;
    for entry in entries.flatten() {
        let lock_path = entry.path();
        // Only the names Warden gives: the project's storage is also the file tools' second root,
        // so a `...lock` the model wrote there must not name the layer itself (`work/..`).
        let name = entry.file_name().to_str().and_then(|n| n.strip_suffix(LOCK)).map(str::to_owned);
        let Some(name) = name.filter(|n| is_box_name(n)) else { continue };
        let Ok(file) = std::fs::File::open(&lock_path) else { continue };
        if flock(file.as_raw_fd(), FlockArg::LockExclusiveNonblock).is_err() {
            continue; // the box still runs (or is being made)
        }
        for layer in layers.get_or_insert_with(|| layer_folders(root)).iter() {
            if let Err(error) = clear(&layer.join("work").join(&name)) {
                tracing::debug!(%error, layer = %layer.display(), "an ended box's work folder stays");
            }
        }
        let _ = std::fs::remove_file(&lock_path);
    }
}

/// Whether `name` is one Warden gives a box's work folder: `box-` and letters and digits.
fn is_box_name(name: &str) -> bool {
    name.strip_prefix("box-")
        .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// Each cache's layer folder under `root` (not the boxes' locks).
fn layer_folders(root: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| entry.path())
        .collect()
}

/// A cache's folder name in the layer: its path under the home without dots (`cargo-registry`,
/// `npm`, `cache-pip`), else the whole path so.
fn name(cache: &Path) -> String {
    let known = super::hidden::HOME_CACHES.iter().find(|relative| cache.ends_with(relative));
    let text = match known {
        Some(relative) => (*relative).to_owned(),
        None => cache.to_string_lossy().into_owned(),
    };
    let words: Vec<&str> = text.split(['/', '.']).filter(|word| !word.is_empty()).collect();
    words.join("-")
}

/// The bytes the layer at `dir` holds (files and links as stored, folders not counted); 0 when
/// there is none.
pub fn size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => size(&entry.path()),
            Ok(_) => entry.metadata().map(|meta| meta.len()).unwrap_or(0),
            Err(_) => 0,
        })
        .sum()
}

/// Remove the layer at `dir` and all it holds. Folders the box left without write permission
/// (overlayfs's own `work/work` has mode 0, package managers unpack read-only trees) are opened
/// up first; links are removed, never followed.
pub fn clear(dir: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error),
        Ok(meta) if !meta.is_dir() => return std::fs::remove_file(dir),
        Ok(_) => {}
    }
    open_up(dir)?;
    std::fs::remove_dir_all(dir)
}

/// Follow the checkpoints' retention: remove each cache's layer under `dir` that no box has
/// written to for `keep` (a cache the project's boxes stopped using, e.g. npm's after the project
/// moved to pnpm); one written since stays whole (part of an unpacked package would break it).
/// What is removed is only downloaded again. Returns the layers removed.
pub fn housekeeping(dir: &Path, keep: std::time::Duration) -> std::io::Result<Vec<PathBuf>> {
    let Some(cutoff) = std::time::SystemTime::now().checked_sub(keep) else { return Ok(Vec::new()) };
    let mut removed = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(removed),
        entries => entries?,
    };
    for entry in entries.flatten() {
        let layer = entry.path();
        // The boxes' locks are not a cache's layer.
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if entry.file_type().is_ok_and(|kind| kind.is_dir()) && !changed_since(&layer, cutoff) {
            clear(&layer)?;
            removed.push(layer);
        }
    }
    Ok(removed)
}

/// Whether `path` or anything under it (links not followed) was modified at or after `cutoff`;
/// stops at the first that was. A folder's time changes when an entry is made or removed in it.
fn changed_since(path: &Path, cutoff: std::time::SystemTime) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(path) else { return false };
    if meta.modified().is_ok_and(|modified| modified >= cutoff) {
        return true;
    }
    meta.is_dir()
        && std::fs::read_dir(path)
            .map(|entries| entries.flatten().any(|entry| changed_since(&entry.path(), cutoff)))
            .unwrap_or(false)
}

/// Give every folder under `dir` (itself included) its owner's full rights. A box that shares the
/// layer may be writing in it meanwhile (renaming a folder, putting a link in its place), so each
/// folder is opened without following links, from the folder holding it, and changed through that
/// descriptor: a link swapped in at any depth is never followed to a folder outside the layer.
#[cfg(target_os = "linux")]
fn open_up(dir: &Path) -> std::io::Result<()> {
    use nix::fcntl::OFlag;
    let flags = OFlag::O_PATH | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let fd = nix::fcntl::open(dir, flags, nix::sys::stat::Mode::empty()).map_err(std::io::Error::from)?;
    // SAFETY: `open` returned a fresh descriptor that nothing else owns.
    #[allow(unsafe_code)]
    let fd = unsafe { <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) };
    open_up_opened(&fd)
}

/// [`open_up`] of the folder `fd` holds (an `O_PATH` descriptor).
#[cfg(target_os = "linux")]
fn open_up_opened(fd: &std::os::fd::OwnedFd) -> std::io::Result<()> {
    use nix::fcntl::OFlag;
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::os::unix::fs::PermissionsExt;
    // The descriptor's own folder, whatever its path has become since it was opened.
    let this = std::path::PathBuf::from(format!("/proc/self/fd/{}", fd.as_raw_fd()));
    std::fs::set_permissions(&this, std::fs::Permissions::from_mode(0o700))?;
    let flags = OFlag::O_PATH | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    for entry in std::fs::read_dir(&this)?.flatten() {
        if !entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            continue;
        }
        // Gone, or no longer a folder (a link put in its place): nothing of it to open up.
        let Ok(child) = nix::fcntl::openat(
            Some(fd.as_raw_fd()),
            entry.file_name().as_os_str(),
            flags,
            nix::sys::stat::Mode::empty(),
        ) else {
            continue;
        };
        // SAFETY: `openat` returned a fresh descriptor that nothing else owns.
        #[allow(unsafe_code)]
        let child = unsafe { std::os::fd::OwnedFd::from_raw_fd(child) };
        open_up_opened(&child)?;
    }
    Ok(())
}

/// Elsewhere (no layer is ever mounted there: only bubblewrap's box has one), by path.
#[cfg(not(target_os = "linux"))]
fn open_up(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    for entry in std::fs::read_dir(dir)?.flatten() {
        if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            open_up(&entry.path())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod sweep_tests {
    use super::*;

    /// A lock the model wrote into the project's storage (the file tools' second root) with a name
    /// that leads out of `work/` removes nothing; an ended box's work folder goes, a held one stays.
    #[test]
    fn the_sweep_removes_only_ended_boxes_work_folders_by_the_names_warden_gives() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path();
        let layer = root.join("npm");
        std::fs::create_dir_all(layer.join("upper")).unwrap();
        std::fs::write(layer.join("upper/downloaded"), "kept").unwrap();
        let boxes = root.join(BOXES);
        std::fs::create_dir_all(&boxes).unwrap();
        for planted in ["...lock", "box-..lock", "box-a_b.lock", "other.lock"] {
            std::fs::write(boxes.join(planted), "").unwrap();
        }
        std::fs::create_dir_all(layer.join("work/box-ended/work")).unwrap();
        std::fs::write(boxes.join("box-ended.lock"), "").unwrap();
        let held = hold_new_lock(&boxes).unwrap();
        std::fs::create_dir_all(layer.join("work").join(&held.name)).unwrap();

        sweep(root, &boxes);
        assert_eq!(std::fs::read_to_string(layer.join("upper/downloaded")).unwrap(), "kept");
        assert!(!layer.join("work/box-ended").exists(), "an ended box's work folder stays");
        assert!(layer.join("work").join(&held.name).is_dir(), "a running box's work folder was removed");
        assert!(boxes.join(format!("{}{LOCK}", held.name)).exists());
        drop(held);
        // Another test's thread may be between fork and exec right now, its child holding a copy
        // of the lock's descriptor (closed at its exec): the sweep then sees the box as running.
        // The next sweep, as in the product, takes the folder.
        let emptied = (0..100).any(|_| {
            sweep(root, &boxes);
            let empty = !layer.join("work").read_dir().unwrap().any(|_| true);
            if !empty {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            empty
        });
        assert!(emptied, "the box ended: its folder goes");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cache_has_a_readable_name_of_its_own() {
        assert_eq!(name(Path::new("/home/u/.cargo/registry")), "cargo-registry");
        assert_eq!(name(Path::new("/home/u/.npm")), "npm");
        assert_eq!(name(Path::new("/home/u/.cache/pip")), "cache-pip");
        assert_eq!(name(Path::new("/srv/odd.cache/x")), "srv-odd-cache-x");
    }

    #[test]
    fn a_cache_holding_the_project_gets_no_overlay() {
        let mut policy = BoxPolicy::with_home(Path::new("/home/u/.cargo/git/checkouts/p"), None, &[]);
        policy.caches = vec!["/home/u/.cargo/git".into(), "/home/u/.npm".into()];
        assert!(layers(&policy).is_empty(), "no layer without a layer folder");
        policy.cache_layer = Some("/data/p/cache-layer".into());
        let layers = layers(&policy);
        assert_eq!(
            layers,
            [Layer {
                cache: "/home/u/.npm".into(),
                dir: "/data/p/cache-layer/npm".into(),
                staging: "/tmp/.warden-layers/0".into(),
            }]
        );
    }

    #[test]
    fn a_caches_layer_no_box_wrote_to_for_the_retention_goes_and_a_used_one_stays() {
        const DAY: std::time::Duration = std::time::Duration::from_secs(24 * 3600);
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dir = root.path().join(LAYER_DIR);
        let aged = |path: &Path, days: u32| {
            let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            file.set_modified(std::time::SystemTime::now() - DAY * days).unwrap_or_else(|e| panic!("{e}"));
        };
        // npm's layer: nothing written for 40 days. cargo's: an old crate, and one unpacked today
        // deep inside (the folders above it are aged again, so only the file is new).
        let npm = dir.join("npm");
        let cargo = dir.join("cargo-registry");
        for file in [
            npm.join("upper/_cacache/old"),
            cargo.join("upper/src/old-1.0/lib.rs"),
            cargo.join("upper/src/new-1.0/lib.rs"),
        ] {
            std::fs::create_dir_all(file.parent().unwrap_or(&dir)).unwrap_or_else(|e| panic!("{e}"));
            std::fs::write(&file, "x").unwrap_or_else(|e| panic!("{e}"));
        }
        let everything = |top: &Path| -> Vec<PathBuf> {
            let mut all = vec![top.to_path_buf()];
            let mut i = 0;
            while i < all.len() {
                if let Ok(entries) = std::fs::read_dir(&all[i]) {
                    all.extend(entries.flatten().map(|e| e.path()));
                }
                i += 1;
            }
            all
        };
        for path in everything(&npm).iter().chain(&everything(&cargo)).rev() {
            if !path.ends_with("new-1.0/lib.rs") {
                aged(path, 40);
            }
        }
        let removed = housekeeping(&dir, DAY * 30).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(removed, std::slice::from_ref(&npm));
        assert!(!npm.exists(), "the unused layer stays");
        assert!(cargo.join("upper/src/old-1.0/lib.rs").is_file(), "a used layer stays whole");
        assert_eq!(housekeeping(&root.path().join("none"), DAY).map(|r| r.len()).ok(), Some(0));
    }

    /// A link in the layer to a folder outside it (a box may put one where a folder was) is
    /// removed, never followed: the folder it names keeps its mode and its files.
    #[test]
    fn clearing_never_follows_a_link_out_of_the_layer() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let outside = root.path().join("outside");
        std::fs::create_dir_all(outside.join("inner")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|e| panic!("{e}"));
        let dir = root.path().join(LAYER_DIR);
        std::fs::create_dir_all(dir.join("npm/upper")).unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(&outside, dir.join("npm/upper/_cacache"))
            .unwrap_or_else(|e| panic!("{e}"));
        clear(&dir).unwrap_or_else(|e| panic!("{e}"));
        assert!(!dir.exists());
        let mode = std::fs::metadata(&outside).map(|m| m.permissions().mode() & 0o777).unwrap_or(0);
        assert_eq!(mode, 0o755, "the folder outside was changed");
        assert!(outside.join("inner").is_dir(), "the folder outside lost its content");
    }

    #[test]
    fn clearing_removes_what_the_box_left_read_only() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dir = root.path().join(LAYER_DIR);
        let locked = dir.join("cargo-registry/upper/src/crate-1.0.0");
        std::fs::create_dir_all(&locked).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(locked.join("build.rs"), "fn main() {}").unwrap_or_else(|e| panic!("{e}"));
        let work = dir.join("cargo-registry/work/work");
        std::fs::create_dir_all(&work).unwrap_or_else(|e| panic!("{e}"));
        for folder in [&locked, &work] {
            std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o500))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::set_permissions(&work, std::fs::Permissions::from_mode(0o000))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(size(&dir), 12);
        clear(&dir).unwrap_or_else(|e| panic!("{e}"));
        assert!(!dir.exists());
        assert_eq!(size(&dir), 0);
        clear(&dir).unwrap_or_else(|e| panic!("clearing nothing: {e}"));
    }
}
