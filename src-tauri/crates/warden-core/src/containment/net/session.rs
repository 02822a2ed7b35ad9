//! One session's network namespace, shared by every box of the session that has the network
//! (bubblewrap): a dev server started as a background command is reachable from the session's
//! next command, and from the host through the ports Warden forwards ([`super::forward`]).
//!
//! The namespace is made by a **keeper**: a box of its own, started on the first call that needs
//! it, whose only program is `warden-box --keep`. The keeper carries the namespace's loopback port
//! for the proxy to the session's proxy, and connects inside for Warden's forwards. Every later box
//! joins the keeper's user namespace (the one that owns its network namespace) and then its
//! network namespace before bubblewrap starts (`setns` in the child, before `exec`), and bubblewrap
//! then makes every other namespace new as always. The keeper ends with the session, and when
//! Warden dies however it dies: its standard input is a pipe whose other end only Warden holds.

use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::forward::Forwards;
use super::Forward;
use super::{Asker, Proxy, Rules};

/// Where the keeper's control folder is mounted in its box.
const CONTROL_IN_BOX: &str = "/tmp/.warden-control";
const CONTROL_SOCKET: &str = "control.sock";
/// How long the keeper may take to start.
const START_TIMEOUT: Duration = Duration::from_secs(15);

/// A session's network, shared by the session's boxes; it compares equal only to itself.
#[derive(Clone, Default)]
pub struct SharedNet(Arc<SessionNet>);

#[derive(Default)]
pub struct SessionNet {
    keeper: Mutex<Option<Keeper>>,
    /// Who the session's proxy asks about a host no rule names.
    asker: Mutex<Option<Arc<dyn Asker>>>,
}

impl std::fmt::Debug for SharedNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedNet")
    }
}

impl PartialEq for SharedNet {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SharedNet {}

impl SharedNet {
    pub fn new() -> Self {
        Self::default()
    }

    /// The namespace for a box whose proxy applies `rules`, the keeper started first when none
    /// runs (or the last one died). The proxy's rules become `rules`.
    pub(in crate::containment) fn join(&self, bwrap: &Path, rules: &Rules) -> Result<Join, String> {
        let mut keeper = self.0.keeper.lock().map_err(|_| "the session's network is poisoned".to_owned())?;
        if let Some(running) = keeper.as_mut() {
            if running.is_running() {
                running.proxy.set_rules(rules.clone());
                return running.join();
            }
        }
        // A keeper that died takes its namespace with it; the boxes still in it keep it alive.
        *keeper = None;
        let started = Keeper::start(bwrap, rules)?;
        if let Some(asker) = self.0.asker.lock().ok().and_then(|a| a.clone()) {
            started.proxy.set_asker(asker);
        }
        let join = started.join();
        *keeper = Some(started);
        join
    }

    /// Ask `asker` about the hosts no rule names, from the session's next connection on.
    pub fn set_asker(&self, asker: Arc<dyn Asker>) {
        if let Ok(keeper) = self.0.keeper.lock() {
            if let Some(running) = keeper.as_ref() {
                running.proxy.set_asker(Arc::clone(&asker));
            }
        }
        if let Ok(mut slot) = self.0.asker.lock() {
            *slot = Some(asker);
        }
    }

    /// A call of the session has ended: the hosts allowed "once" for it are asked about again.
    pub fn call_ended(&self) {
        if let Ok(keeper) = self.0.keeper.lock() {
            if let Some(running) = keeper.as_ref() {
                running.proxy.forget_once();
            }
        }
    }

    /// Where the proxy's decisions stand now, to ask [`SharedNet::decisions_since`] later.
    pub fn mark(&self) -> u64 {
        self.0
            .keeper
            .lock()
            .ok()
            .and_then(|k| k.as_ref().map(|k| k.proxy.decisions_after(u64::MAX).0))
            .unwrap_or(0)
    }

    /// The proxy's decisions since `mark` (a call's connections, and those of what still runs).
    pub fn decisions_since(&self, mark: u64) -> Vec<super::Decision> {
        self.0
            .keeper
            .lock()
            .ok()
            .and_then(|k| k.as_ref().map(|k| k.proxy.decisions_after(mark).1))
            .unwrap_or_default()
    }

    /// The ports forwarded to the host now (none when no box of the session had the network).
    pub fn forwarded(&self) -> Vec<Forward> {
        match self.0.keeper.lock() {
            Ok(keeper) => keeper.as_ref().map(|k| k.forwards.current()).unwrap_or_default(),
            Err(_) => Vec::new(),
        }
    }

    /// The pid (on this machine) of a process in the session's namespace, while it runs.
    pub fn keeper_pid(&self) -> Option<u32> {
        self.0.keeper.lock().ok()?.as_ref().map(|k| k.pid)
    }
}

/// The namespaces a box enters before bubblewrap starts: the keeper's user namespace (when it is
/// not this process's own) and its network namespace.
#[derive(Debug)]
pub struct Join {
    user: Option<OwnedFd>,
    net: OwnedFd,
}

impl Join {
    /// Enter the namespaces in `cmd`'s child, before `exec`.
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)]
    pub(in crate::containment) fn install(&self, cmd: &mut Command) {
        use std::os::unix::process::CommandExt;
        let user = self.user.as_ref().map(AsRawFd::as_raw_fd);
        let net = self.net.as_raw_fd();
        // SAFETY: runs in the forked child between fork and exec, which has one thread (setns to a
        // user namespace needs that). setns(2) is async-signal-safe; the closure reads two
        // integers copied before the fork and builds an io::Error from an errno without allocating.
        unsafe {
            cmd.pre_exec(move || {
                for (fd, kind) in [(user, libc::CLONE_NEWUSER), (Some(net), libc::CLONE_NEWNET)] {
                    if let Some(fd) = fd {
                        if libc::setns(fd, kind) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                    }
                }
                Ok(())
            });
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub(in crate::containment) fn install(&self, _cmd: &mut Command) {}
}

/// The keeper's box while it runs.
struct Keeper {
    /// bubblewrap; its standard input is the keeper's life line.
    child: Child,
    /// The keeper box's first process, in the namespace.
    pid: u32,
    join_user: Option<OwnedFd>,
    join_net: OwnedFd,
    proxy: Proxy,
    forwards: Arc<Forwards>,
    /// Holds the control socket; removed when the keeper is dropped.
    _control: tempfile::TempDir,
}

impl Keeper {
    fn start(bwrap: &Path, rules: &Rules) -> Result<Self, String> {
        let launcher = crate::containment::launcher::find()?;
        let proxy = Proxy::start(rules.clone(), super::report_hook())
            .map_err(|e| format!("cannot start Warden's network proxy: {e}"))?;
        let control = tempfile::Builder::new()
            .prefix("warden-keep-")
            .tempdir()
            .map_err(|e| format!("cannot make the session network's folder: {e}"))?;
        let (info_read, info_write) =
            std::io::pipe().map_err(|e| format!("cannot start the session's network: {e}"))?;
        let seccomp = crate::containment::seccomp_filter(true).map_err(|e| e.to_string())?;
        let mut args = crate::containment::keeper_arguments(proxy.dir(), control.path(), launcher);
        args.extend(["--info-fd".into(), info_write.as_raw_fd().to_string().into()]);
        args.extend(["--add-seccomp-fd".into(), seccomp.as_raw_fd().to_string().into(), "--".into()]);
        args.push(launcher.as_os_str().to_owned());
        args.extend(keeper_command());
        let mut cmd = Command::new(bwrap);
        cmd.args(&args).env_clear().stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::piped());
        // Out of the terminal's process group: Ctrl-C in `warden exec` is for the turn, not the
        // session's network.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        crate::containment::inherit(&mut cmd, vec![info_write.as_raw_fd(), seccomp.as_raw_fd()]);
        let mut child =
            cmd.spawn().map_err(|e| format!("cannot start bubblewrap for the session's network: {e}"))?;
        drop((info_write, seccomp));
        let started = read_child_pid(info_read).and_then(|pid| {
            wait_for(&control.path().join(CONTROL_SOCKET), &mut child)?;
            let (join_user, join_net) = namespaces(pid)?;
            Ok((pid, join_user, join_net))
        });
        let (pid, join_user, join_net) = match started {
            Ok(started) => started,
            Err(why) => {
                let _ = child.kill();
                let mut stderr = String::new();
                if let Some(mut pipe) = child.stderr.take() {
                    let _ = pipe.read_to_string(&mut stderr);
                }
                let _ = child.wait();
                return Err(format!("cannot start the session's network: {why} {}", stderr.trim()));
            }
        };
        let forwards = Forwards::watch(pid, control.path().join(CONTROL_SOCKET));
        Ok(Self { child, pid, join_user, join_net, proxy, forwards, _control: control })
    }

    fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn join(&self) -> Result<Join, String> {
        let copy =
            |fd: &OwnedFd| fd.try_clone().map_err(|e| format!("cannot share the session's network: {e}"));
        Ok(Join { user: self.join_user.as_ref().map(copy).transpose()?, net: copy(&self.join_net)? })
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        self.forwards.stop();
        // Closing its input ends the keeper; the kill makes sure of it.
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `warden-box`'s arguments for the keeper, as the keeper's box sees its folders.
fn keeper_command() -> Vec<OsString> {
    let socket = Path::new(super::DIR_IN_BOX).join(super::proxy::SOCKET_NAME);
    let control = Path::new(CONTROL_IN_BOX).join(CONTROL_SOCKET);
    vec![
        "--keep".into(),
        "--proxy-socket".into(),
        socket.into(),
        "--port".into(),
        super::PORT_IN_BOX.to_string().into(),
        "--control".into(),
        control.into(),
    ]
}

/// Where the keeper's control folder is mounted in its box.
pub(in crate::containment) fn control_in_box() -> &'static str {
    CONTROL_IN_BOX
}

/// The host pid of the box's first process, from bubblewrap's `--info-fd` (`{"child-pid": N, …}`).
fn read_child_pid(info: std::io::PipeReader) -> Result<u32, String> {
    #[derive(serde::Deserialize)]
    struct Info {
        #[serde(rename = "child-pid")]
        child_pid: u32,
    }
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut info = info;
        let mut read = Vec::new();
        let mut chunk = [0u8; 512];
        loop {
            match info.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => read.extend_from_slice(&chunk[..n]),
            }
            if let Ok(parsed) = serde_json::from_slice::<Info>(&read) {
                let _ = sender.send(Ok(parsed.child_pid));
                return;
            }
        }
        let _ = sender.send(Err("bubblewrap said nothing of its box".to_owned()));
    });
    receiver.recv_timeout(START_TIMEOUT).map_err(|_| "bubblewrap did not start the box in time".to_owned())?
}

/// Wait until the keeper listens on its control socket (it binds its proxy port first).
fn wait_for(socket: &Path, child: &mut Child) -> Result<(), String> {
    let deadline = Instant::now() + START_TIMEOUT;
    while Instant::now() < deadline {
        if socket.exists() {
            return Ok(());
        }
        if !matches!(child.try_wait(), Ok(None)) {
            return Err("the keeper ended at once.".to_owned());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Err("the keeper did not start in time.".to_owned())
}

/// The namespaces to join `pid`'s network: the user namespace that owns the network namespace
/// (unless it is this process's own), and the network namespace.
fn namespaces(pid: u32) -> Result<(Option<OwnedFd>, OwnedFd), String> {
    let open = |path: PathBuf| {
        File::open(&path).map(OwnedFd::from).map_err(|e| format!("cannot open {}: {e}", path.display()))
    };
    let net = open(PathBuf::from(format!("/proc/{pid}/ns/net")))?;
    let owner = owning_user_namespace(&net)?;
    let ours = std::fs::metadata("/proc/self/ns/user").map_err(|e| format!("/proc/self/ns/user: {e}"))?;
    let theirs = File::from(owner.try_clone().map_err(|e| e.to_string())?)
        .metadata()
        .map_err(|e| format!("the network's owner: {e}"))?;
    use std::os::unix::fs::MetadataExt;
    let same = ours.ino() == theirs.ino() && ours.dev() == theirs.dev();
    Ok((if same { None } else { Some(owner) }, net))
}

/// `ioctl(NS_GET_USERNS)`: the user namespace that owns namespace `ns`.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn owning_user_namespace(ns: &OwnedFd) -> Result<OwnedFd, String> {
    use std::os::fd::FromRawFd;
    const NS_GET_USERNS: libc::c_ulong = 0xb701;
    // SAFETY: NS_GET_USERNS takes no argument and returns a new file descriptor (or -1), which
    // is owned by nothing else.
    let fd = unsafe { libc::ioctl(ns.as_raw_fd(), NS_GET_USERNS as _) };
    if fd < 0 {
        return Err(format!(
            "cannot find who owns the network namespace: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: `fd` was just returned by the kernel and is open.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

#[cfg(not(target_os = "linux"))]
fn owning_user_namespace(_ns: &OwnedFd) -> Result<OwnedFd, String> {
    Err("a shared network namespace needs Linux".to_owned())
}
