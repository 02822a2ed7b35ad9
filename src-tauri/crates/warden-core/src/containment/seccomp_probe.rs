//! The filter proven by what it does, not by its shape: a probe (this test binary again, inside a
//! real bubblewrap box) makes each refused system call itself, with libc, and says what the
//! kernel answered. It runs in the box built as the product builds it (the filter, the network off
//! and on; and network off with a package cache, whose layer `warden-box` mounts before it loads
//! the filter itself), in the Landlock fallback, and in the same bubblewrap box without the filter (built here
//! from `bwrap::arguments`, which only this test can do: nothing a user or the model reaches can
//! leave the filter out). Each case must get the filter's errno with it and something else
//! without; a rule deleted from `REFUSED` fails its case.
//!
//! Each call is chosen so that, without the filter, the kernel answers it with something other
//! than `EPERM` although the box has no capability: a call that succeeds unprivileged (`unshare`
//! of a user namespace, `keyctl`, `open_tree` without cloning, `io_uring_setup`), or arguments the
//! kernel rejects before it checks any permission (a missing mount point for `mount`, unknown
//! flags for `umount2`, a bad descriptor for `setns`, a socket type no family has). The calls the
//! kernel refuses to a process without capabilities before it reads anything are run too, but
//! their refusal without the filter is the kernel's own `EPERM`: they are marked
//! [`Unfiltered::KernelRefuses`], not observable, with the reason.
//!
//! Every case runs in a child forked for it (single-threaded, so `unshare(CLONE_NEWUSER)` is
//! allowed, and nothing it changes reaches the next case) that reports by its exit status: 0 for
//! success, else the errno.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use nix::libc::{self, c_long};

use super::super::{bwrap, launch_with, BoxPolicy, Mechanism};

/// Set in the probe's environment: run the cases and print their results instead of the test.
const PROBE_ENV: &str = "WARDEN_SECCOMP_PROBE";
/// What starts a result line: the harness prints the test's name on the same line as the first.
const MARK: &str = "PROBE\t";
/// The test that is also the probe (the harness's name for it).
const PROBE_TEST: &str = "containment::seccomp::probe::the_filter_refuses_each_call_it_names_and_no_other";

/// What a case gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The call succeeds.
    Works,
    /// It fails with this errno.
    Errno(i32),
    /// Anything but this errno (success included): where the answer depends on the machine (a
    /// module loaded or not, a sysctl), but is never the filter's.
    Not(i32),
}

/// What the box without the filter gives.
#[derive(Debug, Clone, Copy)]
enum Unfiltered {
    Is(Expect),
    /// The kernel refuses it too: with `EPERM` (a capability the box does not have, checked
    /// first; not observable, the reason is printed) or, on a kernel built without it, `ENOSYS`.
    KernelRefuses(&'static str),
    /// `Is` unless the machine makes it not observable: the function says why when it does.
    Unless(fn() -> Option<String>, Expect),
}

struct Case {
    name: &'static str,
    run: fn() -> c_long,
    /// With the filter and the network off; with the network on; without the filter.
    offline: Expect,
    online: Expect,
    unfiltered: Unfiltered,
}

const EPERM: Expect = Expect::Errno(libc::EPERM);

/// Refused in every mode.
const fn refused(name: &'static str, run: fn() -> c_long, unfiltered: Unfiltered) -> Case {
    Case { name, run, offline: EPERM, online: EPERM, unfiltered }
}

const fn works(e: Expect) -> Unfiltered {
    Unfiltered::Is(e)
}

#[allow(clippy::too_many_lines)] // A table of probe cases, one entry each.
fn cases() -> Vec<Case> {
    use Expect::{Errno, Not, Works};
    let mut cases = vec![
        // Other processes' memory and tracing, on the probe's own child (a process it may trace).
        refused("ptrace(ATTACH) own child", ptrace_child, Unfiltered::Unless(ptrace_scope, Works)),
        refused("process_vm_readv own child", vm_read_child, Unfiltered::Unless(ptrace_scope, Works)),
        refused("io_uring_setup", io_uring_setup, Unfiltered::Unless(io_uring_disabled, Works)),
        refused(
            "io_uring_enter",
            || sys(libc::SYS_io_uring_enter, &[-1, 0, 0, 0, 0, 0]),
            works(Errno(libc::EBADF)),
        ),
        refused(
            "io_uring_register",
            || sys(libc::SYS_io_uring_register, &[-1, 0, 0, 0]),
            works(Not(libc::EPERM)),
        ),
        // Keyrings.
        refused("keyctl(GET_KEYRING_ID)", keyctl, works(Works)),
        refused("add_key", add_key, works(Works)),
        refused("request_key", request_key, works(Errno(libc::ENOKEY))),
        // The kernel's programmable parts.
        refused("bpf(unknown command)", bpf, Unfiltered::Unless(bpf_gated, Errno(libc::EINVAL))),
        refused("perf_event_open(own cpu clock)", perf_event_open, works(Not(libc::EPERM))),
        refused("userfaultfd(user mode only)", userfaultfd, works(Not(libc::EPERM))),
        // Files by handle, around the mount's permissions.
        refused("name_to_handle_at", name_to_handle_at, works(Errno(libc::EOVERFLOW))),
        refused(
            "open_by_handle_at",
            open_by_handle_at,
            Unfiltered::Unless(
                || before((6, 10), "CAP_DAC_READ_SEARCH is checked before the descriptor"),
                Errno(libc::EBADF),
            ),
        ),
        // The mount family.
        refused("mount(missing target)", mount, works(Errno(libc::ENOENT))),
        refused("umount2(unknown flag)", umount2, works(Errno(libc::EINVAL))),
        refused("open_tree(no clone)", open_tree, works(Works)),
        refused("mount_setattr(size 0)", mount_setattr, works(Errno(libc::EINVAL))),
        refused("fsconfig(fd -1)", || sys(libc::SYS_fsconfig, &[-1, 0, 0, 0, 0]), works(Errno(libc::EINVAL))),
        refused("pivot_root", pivot_root, Unfiltered::KernelRefuses(NO_CAP_SYS_ADMIN)),
        refused("fsopen", fsopen, Unfiltered::KernelRefuses(NO_CAP_SYS_ADMIN)),
        refused(
            "fsmount",
            || sys(libc::SYS_fsmount, &[-1, 0, 0]),
            Unfiltered::KernelRefuses(NO_CAP_SYS_ADMIN),
        ),
        refused("fspick", fspick, Unfiltered::KernelRefuses(NO_CAP_SYS_ADMIN)),
        refused("move_mount", move_mount, Unfiltered::KernelRefuses(NO_CAP_SYS_ADMIN)),
        // New namespaces, every way.
        refused(
            "unshare(CLONE_NEWUSER)",
            || sys(libc::SYS_unshare, &[libc::CLONE_NEWUSER as c_long]),
            works(Works),
        ),
        refused("clone(CLONE_NEWUSER)", clone_newuser, works(Works)),
        refused("setns(fd -1)", || sys(libc::SYS_setns, &[-1, 0]), works(Errno(libc::EBADF))),
        Case {
            name: "clone3",
            run: || sys(libc::SYS_clone3, &[0, 0]),
            offline: Errno(libc::ENOSYS),
            online: Errno(libc::ENOSYS),
            unfiltered: works(Errno(libc::EINVAL)),
        },
        // Typing into a terminal, asked of a pipe (a terminal would answer EPERM itself: not ours).
        refused("ioctl(TIOCSTI)", || ioctl_on_pipe(libc::TIOCSTI), works(Errno(libc::ENOTTY))),
        refused("ioctl(TIOCLINUX)", || ioctl_on_pipe(libc::TIOCLINUX), works(Errno(libc::ENOTTY))),
        // What a process with no capabilities is refused anyway: listed, not observable.
        refused(
            "kexec_load",
            || sys(libc::SYS_kexec_load, &[0, 0, 0, 0]),
            Unfiltered::KernelRefuses(NO_CAP_SYS_BOOT),
        ),
        refused(
            "init_module",
            || sys(libc::SYS_init_module, &[0, 0, 0]),
            Unfiltered::KernelRefuses(NO_CAP_SYS_MODULE),
        ),
        refused(
            "finit_module",
            || sys(libc::SYS_finit_module, &[-1, 0, 0]),
            Unfiltered::KernelRefuses(NO_CAP_SYS_MODULE),
        ),
        refused("delete_module", delete_module, Unfiltered::KernelRefuses(NO_CAP_SYS_MODULE)),
        refused(
            "reboot(bad magic)",
            || sys(libc::SYS_reboot, &[0, 0, 0, 0]),
            Unfiltered::KernelRefuses(NO_CAP_SYS_BOOT),
        ),
        refused("swapoff", swapoff, Unfiltered::KernelRefuses("needs CAP_SYS_ADMIN, checked first")),
        refused("acct(NULL)", || sys(libc::SYS_acct, &[0]), Unfiltered::KernelRefuses("needs CAP_SYS_PACCT")),
        // Socket families no box needs, in every mode.
        refused("socket(AF_VSOCK)", || socket(libc::AF_VSOCK, libc::SOCK_STREAM, 0), works(Not(libc::EPERM))),
        refused(
            "socket(AF_PACKET, bad type)",
            || socket(libc::AF_PACKET, BAD_SOCKET_TYPE, 0),
            works(Errno(libc::EINVAL)),
        ),
        refused("socket(every other family, bad type)", other_families, works(Errno(libc::EINVAL))),
        refused(
            "socket(AF_NETLINK, NETLINK_GENERIC)",
            || socket(libc::AF_NETLINK, libc::SOCK_RAW, libc::NETLINK_GENERIC),
            works(Works),
        ),
        // Refused only without the network.
        offline_only("socket(AF_INET)", || socket(libc::AF_INET, libc::SOCK_STREAM, 0)),
        offline_only("socket(AF_INET6)", || socket(libc::AF_INET6, libc::SOCK_DGRAM, 0)),
        offline_only("socket(AF_UNIX)", || socket(libc::AF_UNIX, libc::SOCK_STREAM, 0)),
        // What tools need, in every mode: pipes between a program's processes, and the routing
        // table glibc's getaddrinfo (AI_ADDRCONFIG) and `ip` read, and `ss`'s socket list.
        allowed("socketpair(AF_UNIX)", socketpair),
        allowed("socket(AF_NETLINK, NETLINK_ROUTE)", || {
            socket(libc::AF_NETLINK, libc::SOCK_RAW, libc::NETLINK_ROUTE)
        }),
        allowed("socket(AF_NETLINK, NETLINK_SOCK_DIAG)", || {
            socket(libc::AF_NETLINK, libc::SOCK_RAW, libc::NETLINK_SOCK_DIAG)
        }),
    ];
    if cfg!(target_arch = "x86_64") {
        // unshare through the x32 ABI: the kernel says ENOSYS where x32 is off, runs it where on.
        cases.push(refused("x32 unshare(CLONE_NEWUSER)", x32_unshare, works(Not(libc::EPERM))));
    }
    cases
}

const NO_CAP_SYS_ADMIN: &str = "needs CAP_SYS_ADMIN in the mount namespace's owner, checked first";
const NO_CAP_SYS_BOOT: &str = "needs CAP_SYS_BOOT, checked first";
const NO_CAP_SYS_MODULE: &str = "needs CAP_SYS_MODULE, checked first";
/// The kernel's number of socket families (`AF_MCTP`, 45, is the last one, Linux 5.15 to 6.18);
/// a family beyond it is refused as unknown (`EAFNOSUPPORT`) before its type is read.
const AF_MAX: i32 = 46;
/// Above `SOCK_MAX`: the kernel refuses the type (`EINVAL`) before it looks at the family.
const BAD_SOCKET_TYPE: i32 = 15;

const fn offline_only(name: &'static str, run: fn() -> c_long) -> Case {
    Case { name, run, offline: EPERM, online: Expect::Works, unfiltered: Unfiltered::Is(Expect::Works) }
}

const fn allowed(name: &'static str, run: fn() -> c_long) -> Case {
    Case {
        name,
        run,
        offline: Expect::Works,
        online: Expect::Works,
        unfiltered: Unfiltered::Is(Expect::Works),
    }
}

// ---- The calls. Each runs in a forked child of a multi-threaded process: no allocation, only
// ---- system calls on what is on the stack or static.

#[allow(unsafe_code)]
fn sys(nr: c_long, args: &[c_long]) -> c_long {
    let a = |i: usize| args.get(i).copied().unwrap_or(0);
    // SAFETY: a raw system call with integer arguments, or pointers to live stack or static data
    // the caller made for it.
    unsafe { libc::syscall(nr, a(0), a(1), a(2), a(3), a(4), a(5)) }
}

/// A pointer argument the kernel reads.
fn ptr<T>(p: *const T) -> c_long {
    p as c_long
}

/// A pointer argument the kernel writes through.
fn out<T>(p: &mut T) -> c_long {
    p as *mut T as c_long
}

fn socket(family: i32, kind: i32, protocol: i32) -> c_long {
    sys(libc::SYS_socket, &[family.into(), kind.into(), protocol.into()])
}

/// Each family but the four a box may use, with a type no family has: all refused alike (the
/// errno), or 255 when their answers differ (a family the filter forgot).
fn other_families() -> c_long {
    let mut first = None;
    for family in 0..AF_MAX {
        if [libc::AF_UNIX, libc::AF_INET, libc::AF_INET6, libc::AF_NETLINK].contains(&family) {
            continue;
        }
        let answer = if socket(family, BAD_SOCKET_TYPE, 0) < 0 { errno() } else { 0 };
        match first {
            None => first = Some(answer),
            Some(seen) if seen != answer => return fail(255),
            Some(_) => {}
        }
    }
    fail(first.unwrap_or(255))
}

/// `-1` with errno set to `e`, as a failed call leaves it.
#[allow(unsafe_code)]
fn fail(e: i32) -> c_long {
    // SAFETY: the calling thread's errno.
    unsafe { *libc::__errno_location() = e };
    if e == 0 {
        0
    } else {
        -1
    }
}

#[allow(unsafe_code)]
fn errno() -> i32 {
    // SAFETY: the calling thread's errno.
    unsafe { *libc::__errno_location() }
}

static TARGET: u64 = 0x5741_5244_454e;

/// A child of this (forked) process that waits to be killed; `f` runs on its pid, the child is
/// killed and reaped after.
#[allow(unsafe_code)]
fn on_own_child(f: fn(libc::pid_t) -> c_long) -> c_long {
    // SAFETY: fork in a single-threaded child; the grandchild only pauses until killed.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        loop {
            // SAFETY: waits for a signal.
            unsafe { libc::pause() };
        }
    }
    if pid < 0 {
        return -1;
    }
    let result = f(pid);
    let saved = errno();
    // SAFETY: our own child, killed and reaped.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
    fail(if result < 0 { saved } else { 0 })
}

fn ptrace_child() -> c_long {
    on_own_child(|pid| sys(libc::SYS_ptrace, &[libc::PTRACE_ATTACH as c_long, pid.into(), 0, 0]))
}

fn vm_read_child() -> c_long {
    on_own_child(|pid| {
        let mut buf = [0u8; 8];
        let local = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: 8 };
        let remote = libc::iovec { iov_base: ptr(&TARGET) as *mut libc::c_void, iov_len: 8 };
        sys(libc::SYS_process_vm_readv, &[pid.into(), ptr(&local), 1, ptr(&remote), 1, 0])
    })
}

fn io_uring_setup() -> c_long {
    let params = [0u8; 120];
    sys(libc::SYS_io_uring_setup, &[1, ptr(params.as_ptr())])
}

const KEYCTL_GET_KEYRING_ID: c_long = 0;
const KEY_SPEC_PROCESS_KEYRING: c_long = -2;

fn keyctl() -> c_long {
    sys(libc::SYS_keyctl, &[KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1])
}

fn add_key() -> c_long {
    let payload = b"x";
    sys(
        libc::SYS_add_key,
        &[
            ptr(c"user".as_ptr()),
            ptr(c"warden-probe".as_ptr()),
            ptr(payload.as_ptr()),
            1,
            KEY_SPEC_PROCESS_KEYRING,
        ],
    )
}

fn request_key() -> c_long {
    sys(libc::SYS_request_key, &[ptr(c"user".as_ptr()), ptr(c"warden-probe-absent".as_ptr()), 0, 0])
}

fn bpf() -> c_long {
    let attr = [0u8; 128];
    sys(libc::SYS_bpf, &[0x7fff, ptr(attr.as_ptr()), 128])
}

fn perf_event_open() -> c_long {
    // perf_event_attr (VER8, 136 bytes): type SOFTWARE, config CPU_CLOCK, disabled, exclude_kernel,
    // exclude_hv: counting this process's user time, which paranoid level 2 allows.
    let mut attr = [0u8; 136];
    attr[0..4].copy_from_slice(&1u32.to_ne_bytes());
    attr[4..8].copy_from_slice(&136u32.to_ne_bytes());
    attr[40..48].copy_from_slice(&(1u64 | 1 << 5 | 1 << 6).to_ne_bytes());
    sys(libc::SYS_perf_event_open, &[ptr(attr.as_ptr()), 0, -1, -1, 0])
}

/// `UFFD_USER_MODE_ONLY`: allowed to unprivileged processes since Linux 5.11.
fn userfaultfd() -> c_long {
    sys(libc::SYS_userfaultfd, &[(libc::O_CLOEXEC | 1).into()])
}

fn name_to_handle_at() -> c_long {
    // handle_bytes 0: the kernel says EOVERFLOW and how many it needs.
    let mut handle = [0u32; 32];
    let mut mount_id = 0i32;
    sys(
        libc::SYS_name_to_handle_at,
        &[libc::AT_FDCWD.into(), ptr(c"/".as_ptr()), out(&mut handle), out(&mut mount_id), 0],
    )
}

fn open_by_handle_at() -> c_long {
    let mut handle = [0u32; 32];
    handle[0] = 8;
    sys(libc::SYS_open_by_handle_at, &[-1, ptr(handle.as_ptr()), libc::O_RDONLY.into()])
}

fn mount() -> c_long {
    sys(
        libc::SYS_mount,
        &[ptr(c"none".as_ptr()), ptr(c"/warden-probe-absent".as_ptr()), ptr(c"tmpfs".as_ptr()), 0, 0],
    )
}

fn umount2() -> c_long {
    sys(libc::SYS_umount2, &[ptr(c"/".as_ptr()), 0x100])
}

fn open_tree() -> c_long {
    sys(libc::SYS_open_tree, &[libc::AT_FDCWD.into(), ptr(c"/".as_ptr()), libc::O_CLOEXEC.into()])
}

fn mount_setattr() -> c_long {
    sys(libc::SYS_mount_setattr, &[libc::AT_FDCWD.into(), ptr(c"/".as_ptr()), 0, 0, 0])
}

fn pivot_root() -> c_long {
    sys(libc::SYS_pivot_root, &[ptr(c"/".as_ptr()), ptr(c"/".as_ptr())])
}

fn fsopen() -> c_long {
    sys(libc::SYS_fsopen, &[ptr(c"tmpfs".as_ptr()), 0])
}

fn fspick() -> c_long {
    sys(libc::SYS_fspick, &[libc::AT_FDCWD.into(), ptr(c"/".as_ptr()), 0])
}

fn move_mount() -> c_long {
    let (here, path) = (libc::AT_FDCWD.into(), ptr(c"/".as_ptr()));
    sys(libc::SYS_move_mount, &[here, path, here, path, 0])
}

fn delete_module() -> c_long {
    sys(libc::SYS_delete_module, &[ptr(c"warden_probe_absent".as_ptr()), libc::O_NONBLOCK.into()])
}

fn swapoff() -> c_long {
    sys(libc::SYS_swapoff, &[ptr(c"/warden-probe-absent".as_ptr())])
}

/// clone(2) with `CLONE_NEWUSER` and no stack: the child (if one is made) leaves at once.
#[allow(unsafe_code)]
fn clone_newuser() -> c_long {
    let flags = (libc::CLONE_NEWUSER | libc::SIGCHLD) as c_long;
    let pid = sys(libc::SYS_clone, &[flags, 0, 0, 0, 0]);
    if pid == 0 {
        // SAFETY: the new child leaves without touching anything.
        unsafe { libc::_exit(0) };
    }
    if pid > 0 {
        // SAFETY: reaps our own child.
        unsafe { libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0) };
        return 0;
    }
    pid
}

#[allow(unsafe_code)]
fn ioctl_on_pipe(request: libc::c_ulong) -> c_long {
    let mut fds = [0i32; 2];
    // SAFETY: a pipe into a stack array of two descriptors.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return -1;
    }
    let byte = b'x';
    sys(libc::SYS_ioctl, &[fds[0].into(), request as c_long, ptr(&byte)])
}

fn socketpair() -> c_long {
    let mut fds = [0i32; 2];
    sys(libc::SYS_socketpair, &[libc::AF_UNIX.into(), libc::SOCK_STREAM.into(), 0, out(&mut fds)])
}

fn x32_unshare() -> c_long {
    const X32: c_long = 0x4000_0000;
    sys(X32 | 272, &[libc::CLONE_NEWUSER as c_long])
}

// ---- What makes a case not observable on this machine.

fn sysctl(name: &str) -> Option<i64> {
    std::fs::read_to_string(Path::new("/proc/sys").join(name)).ok()?.trim().parse().ok()
}

fn ptrace_scope() -> Option<String> {
    sysctl("kernel/yama/ptrace_scope")
        .filter(|scope| *scope >= 2)
        .map(|scope| format!("Yama's ptrace_scope is {scope}: no process may trace another"))
}

fn io_uring_disabled() -> Option<String> {
    sysctl("kernel/io_uring_disabled")
        .filter(|v| *v != 0)
        .map(|v| format!("io_uring is disabled here (kernel.io_uring_disabled = {v})"))
}

fn bpf_gated() -> Option<String> {
    let disabled = sysctl("kernel/unprivileged_bpf_disabled").unwrap_or(0);
    (disabled != 0)
        .then(|| before((6, 5), "with unprivileged_bpf_disabled set, every bpf command is refused first"))
        .flatten()
}

/// `Some(why)` when the kernel is older than `version`.
fn before(version: (u32, u32), why: &str) -> Option<String> {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").ok()?;
    let mut parts = release.trim().split(['.', '-']).map(|p| p.parse::<u32>().unwrap_or(0));
    let here = (parts.next()?, parts.next()?);
    (here < version).then(|| format!("Linux {}.{} < {}.{}: {why}", here.0, here.1, version.0, version.1))
}

// ---- The probe and the test.

/// Runs every case in a child of its own and prints `PROBE\t<name>\t<code>` (0: it worked, else the
/// errno, or `signal N`).
#[allow(unsafe_code, clippy::print_stdout)]
fn probe() {
    for case in cases() {
        // SAFETY: the child runs the case (system calls on its stack, no allocation) and leaves
        // with `_exit`; the parent reaps it.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let code = if (case.run)() < 0 { errno().clamp(1, 255) } else { 0 };
            // SAFETY: leaves the forked child without running anything of the parent's.
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        // SAFETY: reaps the child just forked.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        let code = if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status).to_string()
        } else {
            format!("signal {}", libc::WTERMSIG(status))
        };
        println!("{MARK}{}\t{code}", case.name);
    }
}

#[derive(Clone, Copy, Debug)]
enum Run {
    /// The box as the product builds it.
    Filtered { network: bool },
    /// The same box, network off, with a package cache and its layer: `warden-box` mounts the
    /// overlay, drops its capabilities and loads the filter, not bubblewrap.
    Layered,
    /// The same bubblewrap box without the filter.
    Unfiltered,
    /// The Landlock fallback (same filter, loaded by Warden), network off.
    Landlock,
}

fn run_probe(run: Run, home: &Path, project: &Path) -> BTreeMap<String, String> {
    let mut policy = BoxPolicy::with_home(project, Some(home), &[]);
    policy.network = matches!(run, Run::Filtered { network: true });
    if matches!(run, Run::Layered) {
        let cache = home.join(".npm");
        std::fs::create_dir_all(&cache).unwrap_or_else(|e| panic!("{e}"));
        policy.caches = vec![cache];
        policy.cache_layer = home.parent().map(|base| base.join("storage/cache-layer"));
    }
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("the test binary: {e}"));
    let argv: Vec<OsString> = [
        exe.into_os_string(),
        PROBE_TEST.into(),
        "--exact".into(),
        "--nocapture".into(),
        "--test-threads=1".into(),
    ]
    .into();
    let bwrap_program =
        || bwrap::installed().unwrap_or_else(|| panic!("bubblewrap is not installed; CI installs it"));
    let output = match run {
        Run::Filtered { .. } | Run::Layered => {
            let mechanism = Mechanism::Bubblewrap { program: bwrap_program() };
            let launch = launch_with(&mechanism, &policy, &argv, project).unwrap_or_else(|e| panic!("{e}"));
            let out = launch.command().env(PROBE_ENV, "1").output();
            drop(launch);
            out
        }
        Run::Landlock => {
            let mechanism = super::super::landlock::probe();
            assert!(matches!(mechanism, Mechanism::Landlock { .. }), "no Landlock here: {mechanism:?}");
            let launch = launch_with(&mechanism, &policy, &argv, project).unwrap_or_else(|e| panic!("{e}"));
            let out = launch.command().env(PROBE_ENV, "1").output();
            drop(launch);
            out
        }
        Run::Unfiltered => {
            let mut args = bwrap::arguments(&policy, project, &bwrap::Net::Closed, None, None);
            args.push("--".into());
            args.extend(argv);
            Command::new(bwrap_program()).args(args).env(PROBE_ENV, "1").output()
        }
    }
    .unwrap_or_else(|e| panic!("cannot start the box: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the probe failed in {run:?}:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
        .lines()
        .filter_map(|line| line.split_once(MARK).map(|(_, rest)| rest))
        .filter_map(|line| line.split_once('\t'))
        .map(|(name, code)| (name.to_owned(), code.to_owned()))
        .collect()
}

fn shown(code: &str) -> String {
    let name = match code.parse::<i32>() {
        Ok(0) => "works",
        Ok(libc::EPERM) => "EPERM",
        Ok(libc::ENOENT) => "ENOENT",
        Ok(libc::EBADF) => "EBADF",
        Ok(libc::EACCES) => "EACCES",
        Ok(libc::EINVAL) => "EINVAL",
        Ok(libc::ENOTTY) => "ENOTTY",
        Ok(libc::ENOSYS) => "ENOSYS",
        Ok(libc::EOVERFLOW) => "EOVERFLOW",
        Ok(libc::EAFNOSUPPORT) => "EAFNOSUPPORT",
        Ok(libc::ENOKEY) => "ENOKEY",
        Ok(255) => "mixed answers",
        _ => return if code.is_empty() { "(no answer)".to_owned() } else { format!("errno {code}") },
    };
    name.to_owned()
}

fn meets(code: &str, expect: Expect) -> bool {
    let code: Option<i32> = code.parse().ok();
    match expect {
        Expect::Works => code == Some(0),
        Expect::Errno(e) => code == Some(e),
        Expect::Not(e) => code.is_some_and(|c| c != e),
    }
}

#[test]
#[allow(clippy::print_stdout)]
fn the_filter_refuses_each_call_it_names_and_no_other() {
    if std::env::var_os(PROBE_ENV).is_some() {
        return probe();
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let base: PathBuf = std::fs::canonicalize(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let (home, project) = (base.join("home"), base.join("project"));
    for d in [&home, &project] {
        std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{e}"));
    }
    let offline = run_probe(Run::Filtered { network: false }, &home, &project);
    let online = run_probe(Run::Filtered { network: true }, &home, &project);
    let layered = run_probe(Run::Layered, &home, &project);
    let bare = run_probe(Run::Unfiltered, &home, &project);
    let landlock = run_probe(Run::Landlock, &home, &project);

    let mut table = String::new();
    let mut wrong = Vec::new();
    let code =
        |results: &BTreeMap<String, String>, name: &str| results.get(name).cloned().unwrap_or_default();
    for case in cases() {
        let (off, on, without, ll, lay) = (
            code(&offline, case.name),
            code(&online, case.name),
            code(&bare, case.name),
            code(&landlock, case.name),
            code(&layered, case.name),
        );
        let mut check = |what: &str, got: &str, expect: Expect| {
            if !meets(got, expect) {
                wrong.push(format!("{} {what}: {} (expected {expect:?})", case.name, shown(got)));
            }
        };
        check("with the filter, network off", &off, case.offline);
        check("with the filter, network on", &on, case.online);
        check("in the Landlock fallback", &ll, case.offline);
        check("with the filter loaded by warden-box", &lay, case.offline);
        let note = match case.unfiltered {
            Unfiltered::Is(expect) => {
                check("without the filter", &without, expect);
                String::new()
            }
            Unfiltered::Unless(not_here, expect) => match not_here() {
                Some(why) => format!("not observable here: {why}"),
                None => {
                    check("without the filter", &without, expect);
                    String::new()
                }
            },
            Unfiltered::KernelRefuses(why) => {
                let kernel = [EPERM, Expect::Errno(libc::ENOSYS)];
                if !kernel.iter().any(|&expect| meets(&without, expect)) {
                    wrong.push(format!(
                        "{} without the filter: {} (the kernel's own refusal expected)",
                        case.name,
                        shown(&without)
                    ));
                }
                if meets(&without, EPERM) {
                    format!("not observable: {why}")
                } else {
                    "the kernel has no such call here".to_owned()
                }
            }
        };
        table.push_str(&format!(
            "{:<40} {:<13} {:<13} {:<13} {:<13} {:<13} {note}\n",
            case.name,
            shown(&off),
            shown(&on),
            shown(&lay),
            shown(&ll),
            shown(&without)
        ));
    }
    let head = ["call", "no network", "network", "layered", "Landlock", "no filter"];
    println!(
        "{:<40} {:<13} {:<13} {:<13} {:<13} {:<13}\n{table}",
        head[0], head[1], head[2], head[3], head[4], head[5]
    );
    assert!(wrong.is_empty(), "{}\n\n{table}", wrong.join("\n"));
}
