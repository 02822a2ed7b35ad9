//! The second wall: a seccomp filter bubblewrap loads right before the command. The namespaces
//! already take the network, the mounts and the other processes away; the filter also refuses the
//! system calls that attack the box itself or the kernel (tracing, other processes' memory,
//! io_uring, mounting, new namespaces, keyrings, BPF, module loading), every socket family but
//! unix, internet and the netlink protocols tools read (vsock is not namespaced: it reaches the
//! host's and the VMs' services from any box), and, when the network is off, unix and internet
//! sockets too. Refused calls fail with `EPERM`; `clone3` fails with `ENOSYS`, so the C library
//! falls back to `clone`, whose flags the filter can read. What each refusal does is proven in a
//! real box, with and without the filter, by the probe in `seccomp_probe.rs`.
//!
//! It is one program, not one per error: the kernel's cost of attaching a filter is mostly per
//! filter (≈ 0.2 ms for a second one here, on every boxed command), so `clone3`'s three
//! instructions go in front of the program `seccompiler` builds for the rest.

use std::collections::BTreeMap;
use std::io::{Seek, SeekFrom, Write};
use std::os::fd::OwnedFd;

use nix::libc;
use seccompiler::{
    sock_filter, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use super::ContainError;

/// Refused outright, whatever the arguments.
const REFUSED: &[i64] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_name_to_handle_at,
    libc::SYS_open_by_handle_at,
];

/// The only socket families a box may open; every other one is refused in every mode: vsock
/// (not namespaced: the host's services seen from a VM, WSL2's, Kata's), packet sockets, and the
/// rarely used families whose kernel code is the attack surface (`AF_ALG`, `AF_KEY`, `AF_RDS`,
/// `AF_TIPC`, Bluetooth, CAN, XDP, …).
const FAMILIES: &[u64] =
    &[libc::AF_UNIX as u64, libc::AF_INET as u64, libc::AF_INET6 as u64, libc::AF_NETLINK as u64];

/// The netlink protocols a box may open: the routing table (glibc's `getaddrinfo` with
/// `AI_ADDRCONFIG`, `if_nameindex`, `ip`), the socket list (`ss`), and device events (libudev's
/// monitor, which browsers under test open). Not the others: netfilter, xfrm, audit, crypto, the
/// generic family's many subsystems.
const NETLINK_PROTOCOLS: &[u64] =
    &[libc::NETLINK_ROUTE as u64, libc::NETLINK_SOCK_DIAG as u64, libc::NETLINK_KOBJECT_UEVENT as u64];

/// Socket families a command without network cannot open. Unix sockets are among them: a socket
/// file on a read-only mount still accepts connections, so a service outside the box (the system
/// D-Bus, a database, an agent) would be one `connect` away. `socketpair` stays allowed (pipes
/// between a program's own processes); with the network allowed, unix sockets are too, and only
/// those of the session and Docker's are hidden.
const NETWORK_FAMILIES: &[u64] = &[libc::AF_UNIX as u64, libc::AF_INET as u64, libc::AF_INET6 as u64];

/// The filter as a descriptor bubblewrap reads (`--add-seccomp-fd`), close-on-exec.
pub(super) fn filter(network: bool) -> Result<OwnedFd, ContainError> {
    memfd("warden-seccomp", &program_bytes(&program(network)?))
}

/// The filter as a BPF program (the Landlock fallback loads it itself, see `super::landlock`):
/// `clone3` refused with `ENOSYS` and every x32 call refused, then `seccompiler`'s program for the
/// rest. Prepending leaves that program's jumps (all relative and forward) where they were; its
/// own first instructions check the architecture, so these are matched before that check:
/// `clone3` by a number that is `clone3` in every x86 and arm ABI that has it (and a refusal
/// either way), x32 by its bit. x32 calls carry x86_64's architecture value, so seccompiler's check
/// lets them in, and their numbers (the x32 bit set) match none of its rules: on a kernel with x32
/// enabled, `unshare`, `mount` or a socket would have gone through. No valid number of another ABI
/// has that bit, so refusing it costs nothing elsewhere.
pub(super) fn program(network: bool) -> Result<BpfProgram, ContainError> {
    program_with(network, false)
}

/// [`program`], and with `tcp_only` every internet socket that is not a stream refused too: the
/// Landlock fallback's network, where Landlock rules TCP connections (to the proxy's port only)
/// and nothing rules UDP.
pub(super) fn program_with(network: bool, tcp_only: bool) -> Result<BpfProgram, ContainError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| ContainError::Setup(format!("seccomp on {}: {e}", std::env::consts::ARCH)))?;
    let refused = compile(refused_rules(network, tcp_only)?, arch)?;
    let mut program = front_refusals()?;
    program.extend(refused);
    Ok(program)
}

/// The bit that marks an x32 system call (`__X32_SYSCALL_BIT`).
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// `if (nr == clone3) return ERRNO(ENOSYS); if (nr & X32) return ERRNO(EPERM);`, falling through
/// to what follows otherwise.
fn front_refusals() -> Result<BpfProgram, ContainError> {
    let number =
        u32::try_from(libc::SYS_clone3).map_err(|_| ContainError::Setup("clone3's number".into()))?;
    let errno = |e: i32| {
        u32::try_from(e)
            .map(|e| libc::SECCOMP_RET_ERRNO | e)
            .map_err(|_| ContainError::Setup("bad errno".into()))
    };
    let code = |bits: u32| u16::try_from(bits).map_err(|_| ContainError::Setup("a BPF opcode".into()));
    let ret = code(libc::BPF_RET | libc::BPF_K)?;
    Ok(vec![
        // A = seccomp_data.nr (offset 0)
        sock_filter { code: code(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS)?, jt: 0, jf: 0, k: 0 },
        // A == clone3 ? next : skip one
        sock_filter { code: code(libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K)?, jt: 0, jf: 1, k: number },
        sock_filter { code: ret, jt: 0, jf: 0, k: errno(libc::ENOSYS)? },
        // A & X32 ? next : skip one
        sock_filter {
            code: code(libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K)?,
            jt: 0,
            jf: 1,
            k: X32_SYSCALL_BIT,
        },
        sock_filter { code: ret, jt: 0, jf: 0, k: errno(libc::EPERM)? },
    ])
}

fn refused_rules(network: bool, tcp_only: bool) -> Result<BTreeMap<i64, Vec<SeccompRule>>, ContainError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = REFUSED.iter().map(|&nr| (nr, Vec::new())).collect();
    // clone(2) making a new namespace of any kind (bubblewrap already made the box's own).
    let namespaces = (libc::CLONE_NEWUSER
        | libc::CLONE_NEWNS
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS
        | libc::CLONE_NEWCGROUP) as u64;
    let mut clone_rules = Vec::new();
    for flag in bits(namespaces) {
        clone_rules.push(rule(vec![condition(
            0,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(flag),
            flag,
        )?])?);
    }
    rules.insert(libc::SYS_clone, clone_rules);
    // Typing into a terminal (TIOCSTI) or its console (TIOCLINUX).
    let ioctls = [libc::TIOCSTI, libc::TIOCLINUX]
        .iter()
        .map(|&req| rule(vec![condition(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, req)?]))
        .collect::<Result<Vec<_>, ContainError>>()?;
    rules.insert(libc::SYS_ioctl, ioctls);
    rules.insert(libc::SYS_socket, socket_rules(network, tcp_only)?);
    Ok(rules)
}

/// socket(2) refused: a family not in [`FAMILIES`], a netlink protocol not in
/// [`NETLINK_PROTOCOLS`], and without the network [`NETWORK_FAMILIES`]. (A rule's conditions all
/// hold for it to match; the rules of one call match when any does.)
fn socket_rules(network: bool, tcp_only: bool) -> Result<Vec<SeccompRule>, ContainError> {
    let family = |op, value| condition(0, SeccompCmpArgLen::Dword, op, value);
    let protocol = |op, value| condition(2, SeccompCmpArgLen::Dword, op, value);
    let other_family =
        FAMILIES.iter().map(|&f| family(SeccompCmpOp::Ne, f)).collect::<Result<Vec<_>, _>>()?;
    let mut other_netlink = vec![family(SeccompCmpOp::Eq, libc::AF_NETLINK as u64)?];
    for &p in NETLINK_PROTOCOLS {
        other_netlink.push(protocol(SeccompCmpOp::Ne, p)?);
    }
    let mut rules = vec![rule(other_family)?, rule(other_netlink)?];
    if !network {
        for &f in NETWORK_FAMILIES {
            rules.push(rule(vec![family(SeccompCmpOp::Eq, f)?])?);
        }
    } else if tcp_only {
        // The type without SOCK_NONBLOCK and SOCK_CLOEXEC, which share its argument.
        let kind = |value| condition(1, SeccompCmpArgLen::Dword, SeccompCmpOp::MaskedEq(0xf), value);
        for inet in [libc::AF_INET, libc::AF_INET6] {
            for other in [libc::SOCK_DGRAM, libc::SOCK_RAW, libc::SOCK_RDM, libc::SOCK_SEQPACKET] {
                rules.push(rule(vec![family(SeccompCmpOp::Eq, inet as u64)?, kind(other as u64)?])?);
            }
        }
    }
    Ok(rules)
}

fn bits(mask: u64) -> impl Iterator<Item = u64> {
    (0..64).map(|i| 1u64 << i).filter(move |bit| mask & bit != 0)
}

fn condition(
    arg: u8,
    len: SeccompCmpArgLen,
    op: SeccompCmpOp,
    value: u64,
) -> Result<SeccompCondition, ContainError> {
    SeccompCondition::new(arg, len, op, value)
        .map_err(|e| ContainError::Setup(format!("seccomp condition: {e}")))
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, ContainError> {
    SeccompRule::new(conditions).map_err(|e| ContainError::Setup(format!("seccomp rule: {e}")))
}

/// A filter that fails the matched calls with `errno` and lets everything else through.
/// `rules` refused with EPERM, everything else allowed.
fn compile(rules: BTreeMap<i64, Vec<SeccompRule>>, arch: TargetArch) -> Result<BpfProgram, ContainError> {
    let errno = u32::try_from(libc::EPERM).map_err(|_| ContainError::Setup("bad errno".into()))?;
    let filter = SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(errno), arch)
        .map_err(|e| ContainError::Setup(format!("seccomp filter: {e}")))?;
    filter.try_into().map_err(|e| ContainError::Setup(format!("seccomp compile: {e}")))
}

/// `struct sock_filter[]` as the kernel reads it: code (u16), jt (u8), jf (u8), k (u32), native order.
fn program_bytes(program: &BpfProgram) -> Vec<u8> {
    let mut out = Vec::with_capacity(program.len() * 8);
    for ins in program {
        out.extend_from_slice(&ins.code.to_ne_bytes());
        out.push(ins.jt);
        out.push(ins.jf);
        out.extend_from_slice(&ins.k.to_ne_bytes());
    }
    out
}

/// `bytes` in an in-memory file named `name`, read from its start by whoever inherits it.
pub(super) fn memfd(name: &str, bytes: &[u8]) -> Result<OwnedFd, ContainError> {
    let setup = |e: std::io::Error| ContainError::Setup(format!("{name}: {e}"));
    let name = std::ffi::CString::new(name).map_err(|e| ContainError::Setup(e.to_string()))?;
    let fd = nix::sys::memfd::memfd_create(&name, nix::sys::memfd::MemFdCreateFlag::MFD_CLOEXEC)
        .map_err(|errno| setup(std::io::Error::from_raw_os_error(errno as i32)))?;
    let mut file = std::fs::File::from(fd);
    file.write_all(bytes).map_err(setup)?;
    file.seek(SeekFrom::Start(0)).map_err(setup)?;
    Ok(OwnedFd::from(file))
}

/// The filter proven in a real box, with and without it.
#[cfg(test)]
#[path = "seccomp_probe.rs"]
mod probe;
