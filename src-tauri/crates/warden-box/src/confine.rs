//! The box's last steps before the command, for a box whose caches get a private layer: bubblewrap
//! cannot mount overlayfs itself (Debian 12's 0.8 has no `--overlay`), and once the seccomp filter
//! is on nothing can mount at all. So bubblewrap starts this program with two capabilities of the
//! box's user namespace (`CAP_SYS_ADMIN` to mount, `CAP_DAC_OVERRIDE` for overlayfs's own work
//! folder, which it makes with mode 0) and without the filter, and this program, in order:
//!
//! 1. mounts each overlay (lower: the user's cache, read-only; upper and work: the project's
//!    layer), covers again the hidden locations inside the caches (an overlay shows its lower
//!    folder's own files, not what was mounted over them), and detaches the staging mounts, so
//!    the command sees neither the user's cache nor the layer but through the overlay;
//! 2. enters a new user namespace that gives the command the user's own ids (bubblewrap ran it as
//!    the namespace's root, which overlayfs needs; bubblewrap would otherwise have made this
//!    second namespace itself): its capabilities reach only that namespace, which owns no mount,
//!    so nothing can be mounted or unmounted from here on, with or without the filter;
//! 3. drops every capability (bounding set, ambient, inheritable, permitted, effective) and sets
//!    `PR_SET_NO_NEW_PRIVS`;
//! 4. loads the seccomp filter Warden built, from the descriptor bubblewrap passed on, and closes it.
//!
//! Any error in these steps ends the box with status 125 before the command runs.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use nix::libc;

/// What to set up: the overlays, the covers, the ids and the filter.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Confine {
    /// Each overlay's staging folder and where it is mounted.
    pub overlays: Vec<Overlay>,
    /// Hidden locations inside the caches, covered again over the overlays.
    pub hidden: Vec<PathBuf>,
    /// The box's own work folder in each layer's `work/` (overlayfs empties its work folder as it
    /// mounts, so two boxes of one project must not share one); `None`: `work/` itself.
    pub work: Option<String>,
    pub uid: u32,
    pub gid: u32,
    /// The seccomp program (`struct sock_filter[]`), inherited from Warden through bubblewrap.
    pub seccomp_fd: i32,
}

/// One cache's overlay: bubblewrap binds the user's cache read-only at `STAGING/lower` and the
/// project's layer (holding `upper/` and `work/`) at `STAGING/layer`; the overlay goes on `target`.
/// The staging path is Warden's own (`/tmp/.warden-layers/N`), free of the characters overlayfs's
/// options give a meaning (`,` `:` `\`), which the user's cache path may hold.
#[derive(Debug, PartialEq, Eq)]
pub struct Overlay {
    pub staging: PathBuf,
    pub target: PathBuf,
}

/// Run every step, or say which failed.
pub fn apply(confine: &Confine) -> Result<(), String> {
    for overlay in &confine.overlays {
        mount_overlay(overlay, confine.work.as_deref())?;
    }
    for path in &confine.hidden {
        cover(path)?;
    }
    for overlay in &confine.overlays {
        for staged in ["lower", "layer"] {
            let path = overlay.staging.join(staged);
            nix::mount::umount2(&path, nix::mount::MntFlags::MNT_DETACH)
                .map_err(|e| format!("cannot detach {}: {e}", path.display()))?;
        }
    }
    own_ids(confine.uid, confine.gid)?;
    drop_capabilities()?;
    nix::sys::prctl::set_no_new_privs().map_err(|e| format!("PR_SET_NO_NEW_PRIVS: {e}"))?;
    load_filter(confine.seccomp_fd)
}

/// Whether `name` can name a work folder: letters, digits, `-` and `_` (nothing overlayfs's options
/// or a path would read otherwise).
pub fn plain_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn mount_overlay(overlay: &Overlay, work: Option<&str>) -> Result<(), String> {
    let staging = overlay.staging.to_str().filter(|s| !s.contains([',', ':', '\\']));
    let Some(staging) = staging else {
        return Err(format!("unusable staging folder {}", overlay.staging.display()));
    };
    let work = match work {
        Some(name) if plain_name(name) => format!("work/{name}"),
        Some(name) => return Err(format!("unusable work folder name {name:?}")),
        None => "work".to_owned(),
    };
    // `userxattr`: the only way an overlay is allowed in a user namespace (its own attributes in
    // `user.overlay.*`). `index=off`: two boxes of one project may share the upper folder at once
    // (a background server and a command); overlayfs refuses that only with the index on. Each
    // box has its own work folder, which overlayfs empties as it mounts.
    let options = format!(
        "lowerdir={staging}/lower,upperdir={staging}/layer/upper,workdir={staging}/layer/{work},userxattr,index=off"
    );
    nix::mount::mount(
        Some("overlay"),
        &overlay.target,
        Some("overlay"),
        nix::mount::MsFlags::MS_NOSUID | nix::mount::MsFlags::MS_NODEV,
        Some(options.as_str()),
    )
    .map_err(|e| format!("cannot mount the cache layer on {}: {e}", overlay.target.display()))
}

/// Cover `path` as bubblewrap covered it below the overlay: an empty read-only folder over a
/// folder, `/dev/null` over anything else. What the overlay does not show there (the layer deleted
/// or replaced it: then the user's file is not seen through it either) needs no cover.
fn cover(path: &Path) -> Result<(), String> {
    use nix::mount::MsFlags;
    let Ok(meta) = std::fs::symlink_metadata(path) else { return Ok(()) };
    let failed = |e: nix::Error| format!("cannot hide {}: {e}", path.display());
    if meta.file_type().is_symlink() {
        return Ok(());
    }
    if meta.is_dir() {
        let flags = MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
        return nix::mount::mount(Some("tmpfs"), path, Some("tmpfs"), flags, Some("mode=0755"))
            .map_err(failed);
    }
    nix::mount::mount(Some("/dev/null"), path, None::<&str>, MsFlags::MS_BIND, None::<&str>)
        .map_err(failed)?;
    let read_only = MsFlags::MS_REMOUNT | MsFlags::MS_BIND | MsFlags::MS_RDONLY;
    nix::mount::mount(None::<&str>, path, None::<&str>, read_only, None::<&str>).map_err(failed)
}

/// A user namespace of its own in which this process is `uid`/`gid` (the namespace's root outside
/// it): bubblewrap's box keeps its mounts, which this namespace does not own.
fn own_ids(uid: u32, gid: u32) -> Result<(), String> {
    let (outer_uid, outer_gid) = (nix::unistd::geteuid(), nix::unistd::getegid());
    nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWUSER)
        .map_err(|e| format!("cannot make the command's user namespace: {e}"))?;
    let write = |file: &str, text: String| {
        std::fs::write(format!("/proc/self/{file}"), text).map_err(|e| format!("/proc/self/{file}: {e}"))
    };
    write("uid_map", format!("{uid} {outer_uid} 1\n"))?;
    write("setgroups", "deny".to_owned())?;
    write("gid_map", format!("{gid} {outer_gid} 1\n"))
}

/// `_LINUX_CAPABILITY_VERSION_3`: two 32-bit words per set.
const CAPABILITY_VERSION_3: u32 = 0x2008_0522;

#[repr(C)]
struct CapHeader {
    version: u32,
    pid: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

/// Every capability gone, the bounding set first (it needs `CAP_SETPCAP`, which the new user
/// namespace gave), so that a program run as the namespace's root cannot get them back by exec.
#[allow(unsafe_code)]
fn drop_capabilities() -> Result<(), String> {
    for cap in 0..64 {
        // SAFETY: prctl with integer arguments only.
        let dropped = unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) };
        if dropped != 0 {
            let error = std::io::Error::last_os_error();
            // Past the last capability this kernel knows.
            if error.raw_os_error() == Some(libc::EINVAL) {
                break;
            }
            return Err(format!("cannot drop capability {cap} from the bounding set: {error}"));
        }
    }
    // SAFETY: prctl with integer arguments only.
    let cleared = unsafe { libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) };
    if cleared != 0 {
        return Err(format!("cannot clear the ambient capabilities: {}", std::io::Error::last_os_error()));
    }
    let header = CapHeader { version: CAPABILITY_VERSION_3, pid: 0 };
    let data = [CapData::default(); 2];
    // SAFETY: capset reads a header and two data structs laid out as the kernel's, alive here.
    let set = unsafe { libc::syscall(libc::SYS_capset, &header as *const CapHeader, data.as_ptr()) };
    if set != 0 {
        return Err(format!("cannot drop the capabilities: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}

/// The largest program the kernel loads (`BPF_MAXINSNS`).
const MAX_INSTRUCTIONS: usize = 4096;

/// Load the filter from `fd` (read whole, then closed) for this process and all it starts.
#[allow(unsafe_code)]
fn load_filter(fd: i32) -> Result<(), String> {
    if fd < 3 {
        return Err(format!("bad seccomp descriptor {fd}"));
    }
    // SAFETY: the descriptor was given to this program for this use alone; it is owned (and
    // closed) here.
    let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| format!("cannot read the seccomp filter: {e}"))?;
    drop(file);
    let size = std::mem::size_of::<libc::sock_filter>();
    if bytes.is_empty() || bytes.len() % size != 0 || bytes.len() / size > MAX_INSTRUCTIONS {
        return Err(format!("the seccomp filter is malformed ({} bytes)", bytes.len()));
    }
    let program: Vec<libc::sock_filter> = bytes
        .chunks_exact(size)
        .map(|ins| libc::sock_filter {
            code: u16::from_ne_bytes([ins[0], ins[1]]),
            jt: ins[2],
            jf: ins[3],
            k: u32::from_ne_bytes([ins[4], ins[5], ins[6], ins[7]]),
        })
        .collect();
    let len = u16::try_from(program.len()).map_err(|_| "the seccomp filter is too long".to_owned())?;
    let fprog = libc::sock_fprog { len, filter: program.as_ptr().cast_mut() };
    // SAFETY: the kernel copies the program from `fprog`, which points into `program`, alive here.
    let loaded = unsafe {
        libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &fprog as *const libc::sock_fprog, 0, 0)
    };
    if loaded != 0 {
        return Err(format!("cannot load the seccomp filter: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}
