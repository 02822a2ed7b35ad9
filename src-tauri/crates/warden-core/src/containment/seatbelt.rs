//! The box on macOS: Seatbelt, through `/usr/bin/sandbox-exec -p PROFILE -D NAME=PATH… -- argv`.
//! The same policy as bubblewrap's: everything readable except the hidden locations, writes only in
//! the project, the writable caches and the temp folders, `read_only` paths taken back, no network
//! unless allowed, signals and process inspection only inside the box. The profile starts from
//! `(deny default)`; later rules win over earlier ones, so the denials come after the allowances.
//!
//! No path is ever written into the profile text: each one is a parameter (`-D HIDDEN_3=/path`)
//! the profile names with `(param "HIDDEN_3")`. A path is then one argv entry the kernel hands
//! over as bytes, never parsed as SBPL, so quotes, backslashes, parentheses, newlines or bytes
//! that are not UTF-8 cannot end a string literal and add a rule; there is no escaping to get
//! wrong. (codex's Seatbelt box passes its roots the same way.) The text depends only on the
//! shape of the policy (how many paths of each kind, folder or file, network or not).
//!
//! Differences from bubblewrap: hidden locations fail with "Operation not permitted" instead of
//! looking empty, `/private/tmp` is the machine's shared one (bubblewrap gives a private `/tmp`),
//! and the command's working directory is set by the caller (`sandbox-exec` has no `--chdir`).
//! The generator compiles everywhere and is tested on Linux; only [`probe`] runs `sandbox-exec`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{BoxPolicy, ContainError, Launch, Mechanism};

/// Only this one: a `sandbox-exec` earlier on `PATH` could be anyone's.
pub(super) const PROGRAM: &str = "/usr/bin/sandbox-exec";

/// Processes, signals and process inspection stay inside the box; user lookups work.
const BASE: &str = r#"(version 1)
(deny default)
(allow process-exec process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow sysctl-read
  (sysctl-name "hw.activecpu") (sysctl-name "hw.byteorder") (sysctl-name "hw.cachelinesize")
  (sysctl-name "hw.cpufamily") (sysctl-name "hw.cputype") (sysctl-name "hw.logicalcpu")
  (sysctl-name "hw.logicalcpu_max") (sysctl-name "hw.machine") (sysctl-name "hw.memsize")
  (sysctl-name "hw.model") (sysctl-name "hw.ncpu") (sysctl-name "hw.nperflevels")
  (sysctl-name "hw.pagesize") (sysctl-name "hw.physicalcpu") (sysctl-name "hw.physicalcpu_max")
  (sysctl-name-prefix "hw.optional.") (sysctl-name-prefix "hw.perflevel")
  (sysctl-name "kern.argmax") (sysctl-name "kern.hostname") (sysctl-name "kern.maxfilesperproc")
  (sysctl-name "kern.maxproc") (sysctl-name "kern.ngroups") (sysctl-name "kern.osproductversion")
  (sysctl-name "kern.osrelease") (sysctl-name "kern.ostype") (sysctl-name "kern.osversion")
  (sysctl-name "kern.osvariant_status") (sysctl-name "kern.secure_kernel")
  (sysctl-name "kern.usrstack64") (sysctl-name "kern.version") (sysctl-name "sysctl.proc_cputype")
  (sysctl-name "vm.loadavg") (sysctl-name-prefix "kern.proc.pgrp.")
  (sysctl-name-prefix "kern.proc.pid."))
(allow mach-host*)
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.opendirectoryd.membership")
  (global-name "com.apple.bsd.dirhelper"))
(allow user-preference-read)
(allow ipc-posix-sem)
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))
(allow file-read* file-write* file-ioctl
  (require-all (regex #"^/dev/ttys[0-9]+$") (extension "com.apple.sandbox.pty")))
(allow file-read*)
(allow file-write-data
  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr")
  (subpath "/dev/fd"))
(allow file-write* (subpath "/private/tmp") (subpath "/private/var/tmp"))
"#;

/// Only with `policy.network`: any address, DNS and the system's network and TLS trust services.
/// Not the keychain (`com.apple.SecurityServer`): a credential helper could hand its tokens out.
const NETWORK: &str = r#"(allow network-outbound network-inbound network-bind)
(allow system-socket)
(allow sysctl-read (sysctl-name-prefix "net.routetable."))
(allow mach-lookup
  (global-name "com.apple.SystemConfiguration.DNSConfiguration")
  (global-name "com.apple.SystemConfiguration.configd")
  (global-name "com.apple.networkd")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.ocspd"))
"#;

/// The profile text and the paths it names, in `-D` order.
#[derive(Debug)]
pub(super) struct Profile {
    pub text: String,
    pub params: Vec<(String, PathBuf)>,
}

impl Profile {
    /// `-p TEXT -D NAME=PATH…`, the arguments of `sandbox-exec` before `--`.
    pub fn arguments(&self) -> Vec<OsString> {
        let mut args = vec![OsString::from("-p"), OsString::from(&self.text)];
        for (name, path) in &self.params {
            let mut definition = OsString::from(format!("{name}="));
            definition.push(path.as_os_str());
            args.push("-D".into());
            args.push(definition);
        }
        args
    }

    /// A parameter for each form of `path`: as given, and resolved when it goes through a symlink
    /// (Seatbelt matches the resolved path). Returns their names.
    fn params(&mut self, prefix: &str, path: &Path) -> Vec<String> {
        let mut forms = vec![path.to_path_buf()];
        if let Ok(real) = std::fs::canonicalize(path) {
            if real != path {
                forms.push(real);
            }
        }
        forms
            .into_iter()
            .map(|form| {
                let name = format!("{prefix}_{}", self.params.len());
                self.params.push((name.clone(), form));
                name
            })
            .collect()
    }

    /// `(ACTION (FILTER (param "NAME")))` for each parameter of `path`.
    fn rule(&mut self, action: &str, filter: &str, prefix: &str, path: &Path) {
        for name in self.params(prefix, path) {
            self.line(action, filter, &name);
        }
    }

    fn line(&mut self, action: &str, filter: &str, name: &str) {
        self.text.push_str(&format!("({action} ({filter} (param \"{name}\")))\n"));
    }
}

/// The Seatbelt profile of `policy`; `temp` is the user's temp folder (`$TMPDIR`), writable.
pub(super) fn profile(policy: &BoxPolicy, temp: &Path) -> Profile {
    let mut p = Profile { text: BASE.to_owned(), params: Vec::new() };
    p.rule("allow file-write*", "subpath", "TEMP", temp);
    // macOS is unchanged: the package caches stay writable there (no overlay to give the project
    // a layer of its own).
    for dir in policy.writable.iter().chain(&policy.caches) {
        p.rule("allow file-write*", "subpath", "WRITABLE", dir);
    }
    p.rule("allow file-write*", "subpath", "PROJECT", &policy.project);
    if policy.network {
        p.text.push_str(NETWORK);
    }
    // After every allowance: the last matching rule wins.
    for path in &policy.read_only {
        p.rule("deny file-write*", "subpath", "READ_ONLY", path);
    }
    // Renaming a folder above a denied path would carry it out from under its rule
    // (`mv .git g; edit g/hooks; mv g .git`): those folders cannot be renamed or removed.
    let roots = writable_roots(policy, temp);
    for path in policy.read_only.iter().chain(&policy.hidden) {
        for parent in between(path, &roots) {
            p.rule("deny file-write*", "literal", "PARENT", &parent);
        }
    }
    for path in &policy.hidden {
        let filter = if path.is_dir() { "subpath" } else { "literal" };
        for name in p.params("HIDDEN", path) {
            p.line("deny file-read* file-write*", filter, &name);
            // A hidden socket (Docker's, an agent's) cannot be connected to either.
            let socket =
                format!("(deny network-outbound (remote unix-socket (subpath (param \"{name}\"))))\n");
            p.text.push_str(&socket);
        }
    }
    p
}

/// Every folder the box may write in, as given and resolved.
fn writable_roots(policy: &BoxPolicy, temp: &Path) -> Vec<PathBuf> {
    let mut roots = vec![policy.project.clone(), temp.to_path_buf()];
    roots.extend(policy.writable.iter().chain(&policy.caches).cloned());
    roots.extend(["/private/tmp", "/private/var/tmp"].map(PathBuf::from));
    let resolved: Vec<PathBuf> = roots.iter().filter_map(|root| std::fs::canonicalize(root).ok()).collect();
    roots.extend(resolved);
    roots
}

/// The folders strictly between the outermost writable root holding `path` and `path`.
fn between(path: &Path, roots: &[PathBuf]) -> Vec<PathBuf> {
    let outermost = roots
        .iter()
        .filter(|root| path.starts_with(root) && path != root.as_path())
        .min_by_key(|root| root.components().count());
    let Some(root) = outermost else { return Vec::new() };
    path.ancestors().skip(1).take_while(|parent| *parent != root.as_path()).map(Path::to_path_buf).collect()
}

/// Seatbelt when `sandbox-exec` is there and applies this module's profile on this macOS.
pub(super) fn probe() -> Mechanism {
    let program = PathBuf::from(PROGRAM);
    if !program.is_file() {
        return Mechanism::Unavailable { why: format!("{PROGRAM} is not there") };
    }
    // Every kind of rule the profile can hold, so a macOS that rejects one says so here, once.
    let policy = BoxPolicy {
        project: std::env::temp_dir(),
        writable: vec![std::env::temp_dir()],
        caches: vec![],
        cache_layer: None,
        hidden: vec!["/private/var/empty".into(), "/private/etc/warden-probe".into()],
        read_only: vec!["/private/var/empty".into()],
        pinned: vec![],
        visible: vec![],
        network: true,
        network_rules: Default::default(),
        home: None,
        readable: vec![],
        home_known: true,
        shared_net: None,
        own_proxy: None,
        git_aside: None,
    };
    let out = Command::new(&program)
        .args(profile(&policy, &std::env::temp_dir()).arguments())
        .args(["--", "/usr/bin/true"])
        .env_clear()
        .output();
    match out {
        Ok(out) if out.status.success() => Mechanism::Seatbelt { program },
        Ok(out) => Mechanism::Unavailable {
            why: format!(
                "sandbox-exec refuses the box here ({}); is Warden itself sandboxed?",
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        },
        Err(error) => Mechanism::Unavailable { why: format!("sandbox-exec does not start: {error}") },
    }
}

/// `sandbox-exec` running `argv` under `policy`. The caller sets the working directory.
pub(super) fn launch(program: &Path, policy: &BoxPolicy, argv: &[OsString]) -> Result<Launch, ContainError> {
    if argv.is_empty() {
        return Err(ContainError::Setup("no command".to_owned()));
    }
    let mut args = profile(policy, &std::env::temp_dir()).arguments();
    args.push("--".into());
    args.extend(argv.iter().cloned());
    Ok(Launch {
        program: program.to_path_buf(),
        args,
        fds: Vec::new(),
        contained: true,
        proxied: false,
        restriction: None,
        join: None,
    })
}

#[cfg(test)]
#[path = "seatbelt_tests.rs"]
mod tests;
