//! How this machine contains the commands Warden runs: which box works here (bubblewrap, the
//! Landlock fallback, Seatbelt, or none), found once, and what each one can and cannot hold.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[cfg(target_os = "linux")]
use super::landlock;
use super::{bwrap, launcher, layer_support, seatbelt};

/// How commands are contained on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mechanism {
    /// bubblewrap (namespaces and mounts) plus a seccomp filter.
    Bubblewrap { program: PathBuf },
    /// macOS Seatbelt: `sandbox-exec` with a generated profile.
    Seatbelt { program: PathBuf },
    /// Landlock (filesystem, TCP, signals) plus the same seccomp filter, where bubblewrap cannot
    /// run; `abi` is the kernel's Landlock version. The `landlock` module says what it does differently.
    Landlock { abi: u8 },
    /// Commands run as the user, with only the path sandbox and the blocklist between them and
    /// the machine; `why` says what is missing.
    Unavailable { why: String },
}

impl Mechanism {
    pub fn is_contained(&self) -> bool {
        !matches!(self, Self::Unavailable { .. })
    }

    /// Whether the box's network goes only through Warden's proxy, so that a project's `rules`
    /// can hold: bubblewrap's, and the Landlock fallback's from ABI 4. Seatbelt's box (macOS) and
    /// Landlock before ABI 4 give a command with the network this machine's whole network, so
    /// there `rules` leaves commands without the network, as the project's `off` does (a command
    /// may still ask for it).
    pub fn filters_network(&self) -> bool {
        match self {
            Self::Bubblewrap { .. } => true,
            // Landlock rules for TCP came with ABI 4.
            Self::Landlock { abi } => *abi >= 4,
            Self::Seatbelt { .. } | Self::Unavailable { .. } => false,
        }
    }

    /// Whether the box leaves the project's `.git/config` and hooks writable (the Landlock
    /// fallback, whose rights cover a folder's whole hierarchy): what a call changes of them is
    /// then put back when it ends ([`git_snapshot`]).
    pub fn leaves_git_writable(&self) -> bool {
        matches!(self, Self::Landlock { .. })
    }

    /// Whether a box with `network` still lets its commands connect to this machine's pathname
    /// unix sockets (the session bus, agents' sockets): the Landlock fallback's, which has no rule
    /// for `connect` and no network namespace, when the network is allowed.
    pub fn leaves_sockets_reachable(&self, network: bool) -> bool {
        network && matches!(self, Self::Landlock { .. })
    }

    /// For Settings: "bubblewrap" or "none (why)".
    pub fn describe(&self) -> String {
        match self {
            Self::Bubblewrap { .. } => "bubblewrap + seccomp".to_owned(),
            Self::Seatbelt { .. } => "Seatbelt (sandbox-exec): commands have no network unless one asks for \
                 it and you approve (then it is this machine's whole network: the project's network rules \
                 need Warden's proxy, which this box does not have)"
                .to_owned(),
            Self::Landlock { abi } => format!(
                "Landlock (ABI {abi}) + seccomp, the fallback where bubblewrap cannot run: other \
                 processes stay visible (not reachable), .git's config, hooks and info/ and the \
                 core.hooksPath folder stay writable while a command runs (what it changed there \
                 is put back when it ends; submodules' stay writable), \
                 the package caches (~/.cargo/registry, ~/.npm, pip's…) are read-only (no private \
                 layer: a command that must download into one fails), \
                 no new file can be made in a folder that holds a hidden secret, unix sockets under \
                 hidden folders (the session bus in $XDG_RUNTIME_DIR, agents) stay connectable when \
                 the network is allowed, and {}",
                if *abi >= 4 {
                    "the network, when allowed, goes only through Warden's proxy"
                } else {
                    "commands have no network unless one asks for it and you approve (then it is this \
                     machine's: TCP rules need ABI 4)"
                }
            ),
            Self::Unavailable { why } => format!("none: {why}"),
        }
    }
}

/// The environment variable that forces a mechanism: `bwrap`, `landlock` (for tests), or `none`
/// (for users whose machine cannot run the box and who accept that).
pub const MECHANISM_ENV: &str = "WARDEN_SANDBOX";

/// The mechanism of this machine, found once: bubblewrap when it is installed and can create the
/// namespaces it needs here, else Landlock when the kernel has it (Linux); Seatbelt when
/// `sandbox-exec` accepts the box (macOS).
pub fn mechanism() -> &'static Mechanism {
    static FOUND: OnceLock<Mechanism> = OnceLock::new();
    FOUND.get_or_init(|| match std::env::var(MECHANISM_ENV).as_deref() {
        Ok("none") => Mechanism::Unavailable { why: format!("{MECHANISM_ENV}=none") },
        Ok("bwrap") => bwrap::probe(),
        #[cfg(target_os = "linux")]
        Ok("landlock") => landlock::probe(),
        _ => platform(),
    })
}

/// Start one box of `program` (bubblewrap) whose cache gets its layer, now, and say whether it
/// worked: what a long-lived Warden does once in the background ([`probe_in_background`]).
pub fn try_cache_layer(program: &Path) -> Result<(), String> {
    layer_support::try_now(program)
}

/// Why the boxes of this machine give the package caches no private layer, if they do not: the
/// Landlock fallback never can; bubblewrap's box cannot where [`layer_support`] finds it would not
/// start. `None` where the caches get their layer (or there is no box at all).
pub fn cache_layer_unavailable() -> Option<String> {
    match mechanism() {
        Mechanism::Bubblewrap { program } => {
            launcher::find().map(|_| ()).and_then(|()| layer_support::available(program)).err()
        }
        Mechanism::Unavailable { .. } => None,
        _ => Some("this box cannot mount overlays (only bubblewrap's can)".to_owned()),
    }
}

/// Find [`mechanism`] on a thread of its own, so the probe (bubblewrap starting a box, a few ms)
/// runs while the caller loads settings and builds its provider, not before the first request. A
/// later [`mechanism`] waits for this one instead of probing again. Then, with bubblewrap, try one
/// box with the cache layer ([`layer_support`]); until it ends, boxes go by its checks by name.
pub fn probe_in_background() {
    let spawned = std::thread::Builder::new().name("warden-probe".into()).spawn(|| {
        if let Mechanism::Bubblewrap { program } = mechanism() {
            layer_support::prove(program);
        }
    });
    if let Err(error) = spawned {
        tracing::debug!(%error, "no thread for the sandbox probe; it runs when first needed");
    }
}

/// The box this platform offers, one arm per platform; each probe compiles everywhere.
pub(super) fn platform() -> Mechanism {
    if cfg!(target_os = "macos") {
        return seatbelt::probe();
    }
    #[cfg(target_os = "linux")]
    return landlock::fallback(bwrap::probe());
    #[cfg(not(target_os = "linux"))]
    Mechanism::Unavailable { why: "commands are not contained on this platform yet".to_owned() }
}
