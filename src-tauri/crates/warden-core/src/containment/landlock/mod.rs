//! The box where bubblewrap cannot run (not installed, or unprivileged user namespaces disabled):
//! Landlock for the filesystem, TCP and signals, and the same seccomp filter as bubblewrap's
//! ([`super::seccomp`]) for the other system calls and socket families.
//!
//! Landlock restricts the calling process and everything it starts, so it is applied in the child
//! between fork and exec ([`restrict`]); everything else (the ruleset with its rules, the seccomp
//! programs) is prepared in the parent, because that hook may not allocate.
//!
//! What the rules give ([`rules`]): the whole filesystem readable but the user's home, of which
//! only the toolchains and the paths the project added are (the box's git reads the user's git
//! configuration without credentials, a copy in the scratch folder named by `GIT_CONFIG_GLOBAL`),
//! the project and a scratch folder writable (the package caches only readable: no overlay gives the project a layer of its own), TCP refused when the network is off (ABI 4), no signal to and no
//! abstract unix socket of a process outside the box (ABI 6). Landlock only grants, it cannot take
//! a subpath of a granted folder back, so hidden and read-only locations are left out by granting
//! their siblings one by one. Differences from bubblewrap, all following from that:
//! - Hidden locations are refused (`EACCES`), not empty.
//! - In a folder with a hidden location anywhere below it (the project root, as soon as the
//!   project has a `.env` file), the entries present when the command starts are usable, but
//!   what the command creates right in that folder is refused: its rights would come from the
//!   folder itself, and they would reach the hidden location too. Folders off the way to a hidden
//!   location are whole.
//! - `read_only` (`.git/hooks`, `.git/config`) is not enforced: see [`rules`].
//! - Listing a folder that holds a hidden folder is refused (`ls ~` with `~/.ssh` hidden), and so
//!   is listing the home (bubblewrap shows it with only the toolchains in it).
//! - There is no PID namespace: `/proc` lists every process of the machine (though their
//!   environment, memory and descriptors stay closed: Landlock refuses ptrace-mode access across
//!   domains).
//! - `TMPDIR` is a fresh folder under the system temp folder ([`scratch`]): the command cannot
//!   write `/tmp` itself, and the folder is not private from the user's other processes, unlike
//!   bubblewrap's tmpfs.
//! - When the command ends, what it left running is killed by its launcher (`kill -KILL -1`, which
//!   with signal scoping reaches only the box's own processes); on kernels before ABI 6 nothing is
//!   scoped, so that step is skipped, and Warden's own sweeps (`crate::process_guard`) remain.
//!   Dying with Warden is left to those sweeps too.

mod restrict;
mod rules;
mod scratch;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(super) use restrict::Restriction;

use super::{BoxPolicy, ContainError, Launch, Mechanism};

/// The first ABI with TCP rules (connect and bind by port).
const TCP_ABI: u8 = 4;

/// The first ABI with signal and abstract unix socket scoping.
const SCOPED_ABI: u8 = 6;

/// The launcher: `TMPDIR` and the working folder set, the command run, and then, when signals are
/// scoped, whatever it left behind killed. Arguments: scratch folder, working folder, command.
const LAUNCHER: &str = r#"TMPDIR=$1; export TMPDIR; cd -- "$2" || exit 125; shift 2; "$@""#;
const REAPER: &str = r#"; status=$?; kill -KILL -1 2>/dev/null; exit $status"#;

/// Landlock's ABI version on this kernel, when it is supported and enabled.
pub(super) fn abi() -> Option<u8> {
    #[allow(unsafe_code)]
    // SAFETY: landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) only returns the
    // ABI version (or an error); it reads no memory.
    let version = unsafe {
        nix::libc::syscall(
            nix::libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    u8::try_from(version).ok().filter(|v| *v > 0)
}

/// Landlock when this kernel has it.
pub(super) fn probe() -> Mechanism {
    match abi() {
        Some(abi) => Mechanism::Landlock { abi },
        None => Mechanism::Unavailable {
            why: "Landlock is not supported or not enabled in this kernel (lsm= boot option)".to_owned(),
        },
    }
}

/// `bwrap` when it works, else Landlock when the kernel has it (saying why bubblewrap did not do).
pub(super) fn fallback(bwrap: Mechanism) -> Mechanism {
    match (bwrap, abi()) {
        (Mechanism::Unavailable { .. }, Some(abi)) => Mechanism::Landlock { abi },
        (Mechanism::Unavailable { why }, None) => Mechanism::Unavailable {
            why: format!("{why}; Landlock is not supported or not enabled in this kernel either"),
        },
        (found, _) => found,
    }
}

/// `argv` in `cwd` under `policy`: the launcher shell, restricted before it starts.
pub(super) fn launch(
    abi: u8,
    policy: &BoxPolicy,
    argv: &[OsString],
    cwd: &Path,
) -> Result<Launch, ContainError> {
    if argv.is_empty() {
        return Err(ContainError::Setup("no command".to_owned()));
    }
    let scoped = abi >= SCOPED_ABI;
    // With the network and TCP rules (ABI 4), the way out is Warden's proxy on this machine's
    // loopback: the only port a command may connect to, named by the proxy variables.
    let proxy_port = match (policy.network, abi >= TCP_ABI) {
        (true, true) => {
            let proxy = policy.egress_proxy().map_err(ContainError::Setup)?;
            Some(proxy.tcp_port().map_err(ContainError::Setup)?)
        }
        _ => None,
    };
    let scratch = scratch::create()?;
    let mut env: Vec<OsString> = Vec::new();
    if let Some(text) = policy.home.as_deref().and_then(super::home::git_config) {
        // Not the user's file, which the rules do not grant: a copy without its credentials.
        let copy = scratch.path.join(".gitconfig");
        std::fs::write(&copy, text)
            .map_err(|e| ContainError::Setup(format!("the box's git configuration: {e}")))?;
        let mut assignment = OsString::from("GIT_CONFIG_GLOBAL=");
        assignment.push(&copy);
        env.push(assignment);
    }
    let ruleset = rules::ruleset(policy, &scratch.path, scoped, proxy_port)?;
    let program = super::seccomp::program_with(policy.network, proxy_port.is_some())?;
    let script = if scoped { format!("{LAUNCHER}{REAPER}") } else { LAUNCHER.to_owned() };
    let mut args: Vec<OsString> = vec!["-c".into(), script.into(), "warden-box".into()];
    args.push(scratch.path.clone().into_os_string());
    args.push(cwd.as_os_str().to_owned());
    if let Some(port) = proxy_port {
        env.extend(
            super::net::proxy_env_at(port).into_iter().map(|(name, value)| format!("{name}={value}").into()),
        );
    }
    if !env.is_empty() {
        // The launcher execs its arguments; `env` puts the variables in front of the command.
        args.push("env".into());
        args.extend(env);
    }
    args.extend(argv.iter().cloned());
    Ok(Launch {
        program: PathBuf::from("/bin/sh"),
        args,
        // The scratch folder's lock, held by the command for as long as any of it runs.
        fds: vec![scratch.lock],
        contained: true,
        proxied: proxy_port.is_some(),
        restriction: Some(Arc::new(Restriction::new(ruleset, program))),
        join: None,
    })
}
