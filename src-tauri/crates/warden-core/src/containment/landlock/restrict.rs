//! The part of the box that runs in the child, between fork and exec: no new privileges, the
//! Landlock ruleset, the seccomp filter. Everything it uses was made in the parent.

use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::sync::Arc;

use nix::libc;
use seccompiler::BpfProgram;

/// A Landlock ruleset ready to enforce and the seccomp program to load after it.
pub(in crate::containment) struct Restriction {
    ruleset: OwnedFd,
    program: BpfProgram,
}

impl std::fmt::Debug for Restriction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Restriction")
            .field("ruleset", &self.ruleset)
            .field("program", &self.program.len())
            .finish()
    }
}

impl Restriction {
    pub(super) fn new(ruleset: OwnedFd, program: BpfProgram) -> Self {
        Self { ruleset, program }
    }

    /// Restrict the child of `command` before it executes its program. A failure fails the spawn:
    /// the command never runs unrestricted.
    #[allow(unsafe_code)]
    pub(in crate::containment) fn install(this: &Arc<Self>, command: &mut std::process::Command) {
        let this = Arc::clone(this);
        // SAFETY: the closure runs in the forked child, which has a single thread, between fork
        // and exec, where only async-signal-safe calls are allowed. It allocates nothing and takes
        // no lock: it reads the ruleset descriptor and the seccomp program (built and owned by
        // the parent before the fork, kept alive by the Arc the closure owns) and makes three
        // kinds of system calls: prctl(2), landlock_restrict_self(2), and seccomp(2) through
        // `seccompiler::apply_filter`, which builds its `sock_fprog` on the stack and allocates
        // neither on success nor on error (its errors wrap `io::Error::last_os_error()`, an errno).
        // Errors become `io::Error`s from an errno, which do not allocate either.
        unsafe {
            command.pre_exec(move || this.apply());
        }
    }

    /// In the child: `PR_SET_NO_NEW_PRIVS` (required by both, and no setuid program or file
    /// capability can gain what the box takes away), every capability dropped, then Landlock, then
    /// seccomp (whose filter would not refuse the Landlock calls, but the order keeps that true
    /// whatever it refuses later).
    #[allow(unsafe_code)]
    fn apply(&self) -> std::io::Result<()> {
        // SAFETY: plain system calls with integer arguments.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        drop_capabilities()?;
        // SAFETY: the descriptor is open (owned by `self`); flags 0.
        if unsafe { libc::syscall(libc::SYS_landlock_restrict_self, self.ruleset.as_raw_fd(), 0u32) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        seccompiler::apply_filter(&self.program).map_err(|error| match error {
            seccompiler::Error::Prctl(e) | seccompiler::Error::Seccomp(e) => e,
            _ => std::io::Error::from_raw_os_error(libc::EINVAL),
        })?;
        Ok(())
    }
}

/// Drop every capability, for good: out of the bounding set (so root does not get them back at
/// exec), the ambient and the inheritable sets, and the current ones. bubblewrap does the same
/// (`--cap-drop ALL`). A capability would reopen what Landlock closes: with `CAP_PERFMON` or
/// `CAP_SYS_ADMIN`, `/proc/<pid>/environ` of any process is readable despite the domain. Without
/// capabilities (an ordinary user) there is nothing to drop and the bounding set stays as it is
/// (dropping from it needs `CAP_SETPCAP`; `EPERM` is expected then).
#[allow(unsafe_code)]
fn drop_capabilities() -> std::io::Result<()> {
    for cap in 0..64 {
        // SAFETY: plain system call with integer arguments. EINVAL past the last capability.
        let _ = unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) };
    }
    // SAFETY: plain system call with integer arguments.
    let _ = unsafe { libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) };
    let mut header = CapHeader { version: LINUX_CAPABILITY_VERSION_3, pid: 0 };
    let data = [CapData::default(); 2];
    // SAFETY: capset(2) reads a version 3 header and two data records, both on this stack frame.
    if unsafe { libc::syscall(libc::SYS_capset, &mut header as *mut CapHeader, data.as_ptr()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

const LINUX_CAPABILITY_VERSION_3: u32 = 0x2008_0522;

/// `struct __user_cap_header_struct`.
#[repr(C)]
struct CapHeader {
    version: u32,
    pid: i32,
}

/// `struct __user_cap_data_struct` (two of them in version 3: capabilities 0–31 and 32–63).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}
