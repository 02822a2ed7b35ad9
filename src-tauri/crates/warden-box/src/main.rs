//! `warden-box`: Warden's own program, the first inside a bubblewrap box that may reach the network
//! or whose caches get the project's private layer ([`confine`]). A box with the network
//! has a network namespace of its own, whose only interface is its loopback; the one way out is
//! Warden's proxy, on the host side, whose unix socket is mounted into the box. This program
//! listens on the box's `127.0.0.1:PORT` (and `[::1]:PORT` where the box has IPv6) and carries every
//! connection made there to that socket, so that programs reading
//! `HTTPS_PROXY=http://127.0.0.1:PORT` reach the proxy. Two ways to run it:
//!
//! - `warden-box --proxy-socket PATH --port PORT -- COMMAND [ARGS…]`, a box of its own (`warden
//!   sandbox --network`): it binds first, then forks: the child keeps the listeners and bridges;
//!   this process replaces itself with the command. So the command stays the box's first process
//!   (its status, its signals and an `execvp` failure are what they were without the bridge). The
//!   bridge is killed when the command ends (`PR_SET_PDEATHSIG`): bubblewrap's init waits for every
//!   process of the box, so a bridge that outlived its command would keep the box open. It ignores
//!   the terminal's interrupt and stop keys, which are the command's to answer.
//! - `warden-box --keep --proxy-socket PATH --port PORT --control PATH`, the keeper of a session's
//!   shared namespace ([`keep`]), which the session's later boxes join.
//!
//! Before either the command or the bridge, with `--seccomp-fd FD --uid UID --gid GID`, the box's
//! own work folder's name `--work NAME`, and any number of `--overlay STAGING TARGET` and `--hide PATH`, it mounts the caches' layers, gives up
//! every capability and loads the seccomp filter itself ([`confine`]); then `--proxy-socket` and
//! `--port` are optional (a box without the network, or one that joined the session's).

mod bridge;
mod confine;
mod keep;

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::process::ExitCode;

/// The status when this program cannot set the box up (as `env` and `timeout` use 125).
const SETUP_FAILED: u8 = 125;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match Request::parse(&args) {
        Ok(Request::Launch(launch)) => run_command(&launch),
        Ok(Request::Keep(keep)) => match keep::run(&keep) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => fail(&message),
        },
        Err(message) => fail(&message),
    }
}

/// Set the box up as `launch` asks, then become its command, with the bridge to the proxy beside
/// it when there is one.
fn run_command(launch: &Launch) -> ExitCode {
    if let Some(confine) = &launch.confine {
        if let Err(message) = confine::apply(confine) {
            return fail(&message);
        }
    }
    match &launch.proxy {
        Some(proxy) => bridge_and_run(proxy, &launch.command),
        None => ExitCode::from(exec(&launch.command)),
    }
}

/// Bridge the box's loopback to the proxy for as long as `argv` runs, as that command.
fn bridge_and_run(proxy: &Proxy, argv: &[OsString]) -> ExitCode {
    let listeners = match bridge::bind(proxy.port) {
        Ok(listeners) => listeners,
        Err(message) => return fail(&message),
    };
    // Taken before the fork: the command may have ended, and the bridge been given another parent,
    // before the bridge asks who its parent is.
    let command = nix::unistd::getpid();
    match fork() {
        Ok(Fork::Bridge) => {
            if let Err(message) = follow_the_command(command) {
                return fail(&message);
            }
            bridge::to_proxy(listeners, &proxy.socket);
            ExitCode::SUCCESS
        }
        Ok(Fork::Command) => {
            drop(listeners);
            ExitCode::from(exec(argv))
        }
        Err(message) => fail(&message),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("warden-box: {message}");
    ExitCode::from(SETUP_FAILED)
}

const USAGE: &str = "usage: warden-box [CONFINE] --proxy-socket PATH --port PORT -- COMMAND [ARGS…]\n       \
                     warden-box CONFINE -- COMMAND [ARGS…]\n       \
                     warden-box --keep --proxy-socket PATH --port PORT --control PATH\n\
                     CONFINE: --seccomp-fd FD --uid UID --gid GID [--work NAME] [--overlay STAGING TARGET]… [--hide PATH]…";

/// What the box's launch asked for.
#[derive(Debug, PartialEq, Eq)]
enum Request {
    Launch(Launch),
    Keep(keep::Keep),
}

/// A command to run, confined and with the bridge as asked (at least one of them).
#[derive(Debug, PartialEq, Eq)]
struct Launch {
    confine: Option<confine::Confine>,
    proxy: Option<Proxy>,
    command: Vec<OsString>,
}

/// Where the bridge carries the box's loopback port.
#[derive(Debug, PartialEq, Eq)]
struct Proxy {
    socket: PathBuf,
    port: u16,
}

impl Request {
    fn parse(args: &[OsString]) -> Result<Self, String> {
        let (mut socket, mut port, mut control, mut keep) = (None, None, None, false);
        let (mut seccomp_fd, mut uid, mut gid) = (None, None, None);
        let (mut overlays, mut hidden, mut work) = (Vec::new(), Vec::new(), None);
        let number = |value: Option<&OsString>| value.and_then(|v| v.to_str()?.parse::<u32>().ok());
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            match arg.to_str() {
                Some("--proxy-socket") => socket = rest.next().map(PathBuf::from),
                Some("--port") => port = rest.next().and_then(|p| p.to_str()?.parse::<u16>().ok()),
                Some("--control") => control = rest.next().map(PathBuf::from),
                Some("--keep") => keep = true,
                Some("--seccomp-fd") => {
                    seccomp_fd = number(rest.next()).and_then(|fd| i32::try_from(fd).ok())
                }
                Some("--uid") => uid = number(rest.next()),
                Some("--gid") => gid = number(rest.next()),
                Some("--overlay") => match (rest.next(), rest.next()) {
                    (Some(staging), Some(target)) => {
                        overlays.push(confine::Overlay { staging: staging.into(), target: target.into() })
                    }
                    _ => return Err(USAGE.to_owned()),
                },
                Some("--work") => match rest.next().and_then(|name| name.to_str()) {
                    Some(name) if confine::plain_name(name) => work = Some(name.to_owned()),
                    _ => return Err(USAGE.to_owned()),
                },
                Some("--hide") => match rest.next() {
                    Some(path) => hidden.push(PathBuf::from(path)),
                    None => return Err(USAGE.to_owned()),
                },
                Some("--") => break,
                _ => return Err(format!("unknown argument {arg:?}")),
            }
        }
        let command: Vec<OsString> = rest.cloned().collect();
        let confine = match (seccomp_fd, uid, gid) {
            (Some(seccomp_fd), Some(uid), Some(gid)) => {
                Some(confine::Confine { overlays, hidden, work, uid, gid, seccomp_fd })
            }
            (None, None, None) if overlays.is_empty() && hidden.is_empty() && work.is_none() => None,
            _ => return Err(USAGE.to_owned()),
        };
        let proxy = match (socket, port) {
            (Some(socket), Some(port)) => Some(Proxy { socket, port }),
            (None, None) => None,
            _ => return Err(USAGE.to_owned()),
        };
        match (proxy, control, keep, command.is_empty()) {
            (proxy, None, false, false) if proxy.is_some() || confine.is_some() => {
                Ok(Self::Launch(Launch { confine, proxy, command }))
            }
            (Some(Proxy { socket, port }), Some(control), true, true) if confine.is_none() => {
                Ok(Self::Keep(keep::Keep { proxy_socket: socket, port, control }))
            }
            _ => Err(USAGE.to_owned()),
        }
    }
}

enum Fork {
    Bridge,
    Command,
}

#[allow(unsafe_code)]
fn fork() -> Result<Fork, String> {
    // SAFETY: no thread has been started yet (the bridge starts its threads in the child, after
    // the fork), so the child is a full copy of a single-threaded process and may do anything.
    match unsafe { nix::unistd::fork() } {
        Ok(nix::unistd::ForkResult::Child) => Ok(Fork::Bridge),
        Ok(nix::unistd::ForkResult::Parent { .. }) => Ok(Fork::Command),
        Err(errno) => Err(format!("cannot start the proxy bridge: {errno}")),
    }
}

/// Boxes with the network are bubblewrap's, on Linux only; elsewhere the bridge cannot follow its
/// command (no `PR_SET_PDEATHSIG`) and is not started.
#[cfg(not(target_os = "linux"))]
fn follow_the_command(_command: nix::unistd::Pid) -> Result<(), String> {
    Err("warden-box runs on Linux only".to_owned())
}

/// In the bridge: die with the command (`command`, the parent), and leave the terminal's keys to it.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn follow_the_command(command: nix::unistd::Pid) -> Result<(), String> {
    use nix::sys::signal::{signal, SigHandler, Signal};
    nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(|e| format!("PR_SET_PDEATHSIG: {e}"))?;
    // The command may have ended before the line above: then this process has another parent.
    if nix::unistd::getppid() != command {
        std::process::exit(0);
    }
    // The command's output pipes are not the bridge's: a reader waiting for their end must not
    // wait for the bridge.
    let null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .map_err(|e| format!("/dev/null: {e}"))?;
    for fd in 0..=2 {
        nix::unistd::dup2(std::os::fd::AsRawFd::as_raw_fd(&null), fd).map_err(|e| format!("dup2: {e}"))?;
    }
    for key in [Signal::SIGINT, Signal::SIGQUIT, Signal::SIGTSTP] {
        // SAFETY: SIG_IGN installs no handler; no code of ours runs on these signals.
        unsafe { signal(key, SigHandler::SigIgn) }.map_err(|e| format!("ignoring {key}: {e}"))?;
    }
    Ok(())
}

/// Replace this process with `command`, looked up in `PATH`; returns only on failure, with the
/// status a shell gives a command it cannot run.
fn exec(command: &[OsString]) -> u8 {
    let argv: Result<Vec<CString>, _> = command.iter().map(|a| CString::new(a.as_bytes())).collect();
    let Ok(argv) = argv else {
        eprintln!("warden-box: the command has a NUL byte");
        return 126;
    };
    let Some(program) = argv.first() else { return SETUP_FAILED };
    let error = nix::unistd::execvp(program, &argv).err();
    let name = command.first().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    match error {
        Some(nix::errno::Errno::ENOENT) | None => {
            eprintln!("warden-box: execvp {name}: No such file or directory");
            127
        }
        Some(errno) => {
            eprintln!("warden-box: execvp {name}: {}", errno.desc());
            126
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_command_follows_the_double_dash_whatever_it_holds() {
        let parsed = Request::parse(&os(&["--proxy-socket", "/s", "--port", "9", "--", "sh", "--port", "1"]));
        let proxy = Some(Proxy { socket: "/s".into(), port: 9 });
        let launch = Launch { confine: None, proxy, command: os(&["sh", "--port", "1"]) };
        assert_eq!(parsed, Ok(Request::Launch(launch)));
    }

    #[test]
    fn a_confined_launch_takes_its_overlays_and_may_go_without_the_proxy() {
        let parsed = Request::parse(&os(&[
            "--seccomp-fd",
            "5",
            "--uid",
            "1000",
            "--gid",
            "100",
            "--work",
            "box-Ab3_x",
            "--overlay",
            "/tmp/.l/0",
            "/h/.npm",
            "--hide",
            "/h/.npm/.npmrc",
            "--",
            "sh",
        ]));
        let confine = confine::Confine {
            overlays: vec![confine::Overlay { staging: "/tmp/.l/0".into(), target: "/h/.npm".into() }],
            hidden: vec!["/h/.npm/.npmrc".into()],
            work: Some("box-Ab3_x".to_owned()),
            uid: 1000,
            gid: 100,
            seccomp_fd: 5,
        };
        let launch = Launch { confine: Some(confine), proxy: None, command: os(&["sh"]) };
        assert_eq!(parsed, Ok(Request::Launch(launch)));
        for args in [
            // Overlays without the filter, ids or descriptor: never a box with capabilities left.
            &["--overlay", "/tmp/.l/0", "/h/.npm", "--", "sh"][..],
            &["--seccomp-fd", "5", "--uid", "1000", "--", "sh"],
            &["--seccomp-fd", "5", "--uid", "1000", "--gid", "1", "--overlay", "/tmp/.l/0"],
            // A work folder's name that would lead elsewhere or say more to overlayfs.
            &["--seccomp-fd", "5", "--uid", "1000", "--gid", "1", "--work", "../x", "--", "sh"],
            &["--seccomp-fd", "5", "--uid", "1000", "--gid", "1", "--work", "a,upperdir=/", "--", "sh"],
            &["--work", "box-1", "--", "sh"],
            &["--seccomp-fd", "5", "--uid", "1000", "--gid", "1", "--proxy-socket", "/s", "--", "sh"],
            &["--seccomp-fd", "x", "--uid", "1000", "--gid", "1", "--", "sh"],
        ] {
            assert!(Request::parse(&os(args)).is_err(), "{args:?}");
        }
    }

    #[test]
    fn a_keeper_takes_a_control_socket_and_no_command() {
        let parsed =
            Request::parse(&os(&["--keep", "--proxy-socket", "/s", "--port", "9", "--control", "/c"]));
        let keep = keep::Keep { proxy_socket: "/s".into(), port: 9, control: "/c".into() };
        assert_eq!(parsed, Ok(Request::Keep(keep)));
        for args in [
            &["--keep", "--proxy-socket", "/s", "--port", "9"][..],
            &["--keep", "--proxy-socket", "/s", "--port", "9", "--control", "/c", "--", "sh"],
            &["--proxy-socket", "/s", "--port", "9", "--control", "/c", "--", "sh"],
        ] {
            assert!(Request::parse(&os(args)).is_err(), "{args:?}");
        }
    }

    #[test]
    fn a_launch_without_socket_port_or_command_is_refused() {
        for args in [
            &["--port", "9", "--", "sh"][..],
            &["--proxy-socket", "/s", "--", "sh"],
            &["--proxy-socket", "/s", "--port", "99999", "--", "sh"],
            &["--proxy-socket", "/s", "--port", "9", "--"],
            &["--proxy-socket", "/s", "--port", "9", "sh"],
        ] {
            assert!(Request::parse(&os(args)).is_err(), "{args:?}");
        }
    }
}
