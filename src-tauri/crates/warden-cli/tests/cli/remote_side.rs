//! The other machine of the remote tests, on this one: a separate user with a home of its own and
//! Warden's binaries copied where a copied engine lives (`~/.local/share/warden/bin`), and a real
//! OpenSSH server each test starts on loopback with its own port, host key and configuration.

use std::os::unix::fs::{chown, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// The remote user's name (made once with `useradd`; the suite runs as root).
pub const USER: &str = "warden-remote";

pub struct RemoteUser {
    pub uid: u32,
    pub gid: u32,
    pub home: PathBuf,
    /// `~/.local/share/warden/bin/warden` of that user.
    pub warden: PathBuf,
}

fn run(program: &str, args: &[&str]) -> std::process::Output {
    let output = std::process::Command::new(program).args(args).output().unwrap();
    assert!(output.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output
}

fn id(flag: &str) -> u32 {
    let out = run("id", &[flag, USER]);
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// The user, made when missing, with this build's `warden`, `warden-engine` and `warden-box` copied into its
/// home (once per test process).
pub fn remote_user() -> &'static RemoteUser {
    static USER_MADE: OnceLock<RemoteUser> = OnceLock::new();
    USER_MADE.get_or_init(|| {
        assert!(
            nix::unistd::geteuid().is_root(),
            "the remote tests make a user of their own: run them as root (the suite does)"
        );
        if !std::process::Command::new("id").arg(USER).output().unwrap().status.success() {
            run("useradd", &["--create-home", "--shell", "/bin/sh", USER]);
        }
        // Not locked (sshd refuses a locked account without PAM), and no password either: keys only.
        run("usermod", &["-p", "*", USER]);
        let (uid, gid) = (id("-u"), id("-g"));
        let home = PathBuf::from(format!("/home/{USER}"));
        let bin = home.join(".local/share/warden/bin");
        std::fs::create_dir_all(&bin).unwrap();
        for dir in
            [home.join(".local"), home.join(".local/share"), home.join(".local/share/warden"), bin.clone()]
        {
            chown(&dir, Some(uid), Some(gid)).unwrap();
        }
        for name in ["warden", "warden-engine", "warden-box"] {
            let built = Path::new(env!("CARGO_BIN_EXE_warden")).with_file_name(name);
            assert!(built.exists(), "{} is missing: cargo build -p warden-box", built.display());
            // A new file renamed into place: another test process may be running the old one.
            let fresh = bin.join(format!(".{name}.{}", std::process::id()));
            std::fs::copy(&built, &fresh).unwrap();
            std::fs::set_permissions(&fresh, std::fs::Permissions::from_mode(0o755)).unwrap();
            chown(&fresh, Some(uid), Some(gid)).unwrap();
            std::fs::rename(&fresh, bin.join(name)).unwrap();
        }
        RemoteUser { uid, gid, home, warden: bin.join("warden") }
    })
}

/// A second remote user, made anew for the one test that copies the engine to a machine that
/// has none: no Warden in its home.
pub const FRESH_USER: &str = "warden-fresh";

/// [`FRESH_USER`], removed with its home and made again: (uid, home).
pub fn fresh_user() -> (u32, PathBuf) {
    let _ = std::process::Command::new("userdel").args(["--remove", "--force", FRESH_USER]).output();
    run("useradd", &["--create-home", "--shell", "/bin/sh", FRESH_USER]);
    run("usermod", &["-p", "*", FRESH_USER]);
    let out = run("id", &["-u", FRESH_USER]);
    let uid = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    (uid, PathBuf::from(format!("/home/{FRESH_USER}")))
}

/// A runtime folder of the remote user's (`XDG_RUNTIME_DIR`), where its engine's socket lives:
/// one per test, so each test has an engine of its own. Removed on drop.
pub struct RunDir {
    pub dir: TempDir,
}

impl RunDir {
    pub fn new(user: &RemoteUser) -> Self {
        let dir = tempfile::Builder::new().prefix("warden-remote-run").tempdir().unwrap();
        chown(dir.path(), Some(user.uid), Some(user.gid)).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        Self { dir }
    }

    /// The engine's socket in it (there while the engine runs).
    pub fn socket(&self) -> PathBuf {
        self.dir.path().join(format!("warden/engine-{}.sock", env!("CARGO_PKG_VERSION")))
    }

    /// `runuser` to the remote user with this folder, the engine leaving `idle_secs` after its
    /// last link.
    pub fn runuser(&self, user: &RemoteUser, idle_secs: u32) -> String {
        format!(
            "runuser -u {USER} -- env XDG_RUNTIME_DIR={} WARDEN_ENGINE_IDLE_SECS={idle_secs} {} serve --stdio",
            self.dir.path().display(),
            user.warden.display()
        )
    }
}

/// A project folder of the remote user's, removed on drop.
pub struct RemoteProject {
    pub path: PathBuf,
}

impl RemoteProject {
    pub fn new(user: &RemoteUser, files: &[(&str, &str)]) -> Self {
        let path = user.home.join(format!("project-{}", uuid_like()));
        std::fs::create_dir(&path).unwrap();
        for (name, content) in files {
            // A file in a folder (`.claude/settings.json`): the folder is the user's too.
            if let Some(folder) = Path::new(name).parent().filter(|f| !f.as_os_str().is_empty()) {
                std::fs::create_dir_all(path.join(folder)).unwrap();
                chown(path.join(folder), Some(user.uid), Some(user.gid)).unwrap();
            }
            std::fs::write(path.join(name), content).unwrap();
            chown(path.join(name), Some(user.uid), Some(user.gid)).unwrap();
        }
        chown(&path, Some(user.uid), Some(user.gid)).unwrap();
        Self { path }
    }

    pub fn target(&self, host: &str) -> String {
        format!("{host}:{}", self.path.display())
    }
}

impl Drop for RemoteProject {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn uuid_like() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{}-{nanos}", std::process::id())
}

/// A real sshd on 127.0.0.1 that lets [`USER`] in with a key of its own, and the client
/// configuration that reaches it as host `warden-test` (`ssh -F`).
pub struct Sshd {
    child: std::process::Child,
    pub dir: TempDir,
    /// The remote user's runtime folder in the sessions this sshd starts.
    pub run: RunDir,
    pub port: u16,
    log: PathBuf,
}

fn keygen(path: &Path) {
    run("ssh-keygen", &["-q", "-t", "ed25519", "-N", "", "-f", path.to_str().unwrap()]);
}

impl Sshd {
    pub fn start() -> Self {
        let run = RunDir::new(remote_user());
        assert!(
            Path::new("/usr/sbin/sshd").exists(),
            "openssh-server is missing: scripts/setup.sh installs it"
        );
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        keygen(&d.join("host_key"));
        keygen(&d.join("client_key"));
        std::fs::copy(d.join("client_key.pub"), d.join("authorized_keys")).unwrap();
        std::fs::set_permissions(d.join("authorized_keys"), std::fs::Permissions::from_mode(0o644)).unwrap();
        // sshd's privilege separation folder (the system's sshd is never started).
        std::fs::create_dir_all("/run/sshd").unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let config = format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host_key\nAuthorizedKeysFile {d}/authorized_keys\n\
             StrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n\
             PermitRootLogin no\nAllowUsers {USER} {FRESH_USER}\nPidFile {d}/sshd.pid\nLogLevel VERBOSE\n\
             SetEnv XDG_RUNTIME_DIR={run} WARDEN_ENGINE_IDLE_SECS=5\n",
            d = d.display(),
            run = run.dir.path().display()
        );
        std::fs::write(d.join("sshd_config"), config).unwrap();
        let log = d.join("sshd.log");
        let child = std::process::Command::new("/usr/sbin/sshd")
            .args(["-D", "-e", "-f"])
            .arg(d.join("sshd_config"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let sshd = Self { child, dir, run, port, log };
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "sshd did not start: {}", sshd.log());
            std::thread::sleep(Duration::from_millis(50));
        }
        let host_key = std::fs::read_to_string(sshd.dir.path().join("host_key.pub")).unwrap();
        sshd.write_known_hosts(&host_key);
        let client = format!(
            "Host warden-test\n  HostName 127.0.0.1\n  Port {port}\n  User {USER}\n  IdentityFile {d}/client_key\n  \
             IdentitiesOnly yes\n  UserKnownHostsFile {d}/known_hosts\n  GlobalKnownHostsFile /dev/null\n  \
             StrictHostKeyChecking yes\n\
             Host warden-fresh\n  HostName 127.0.0.1\n  Port {port}\n  User {FRESH_USER}\n  IdentityFile {d}/client_key\n  \
             IdentitiesOnly yes\n  UserKnownHostsFile {d}/known_hosts\n  GlobalKnownHostsFile /dev/null\n  \
             StrictHostKeyChecking yes\n",
            d = sshd.dir.path().display()
        );
        std::fs::write(sshd.dir.path().join("ssh_config"), client).unwrap();
        sshd
    }

    /// `known_hosts` saying the server's key is `key` (a public key line).
    pub fn write_known_hosts(&self, key: &str) {
        let mut parts = key.split_whitespace();
        let (kind, body) = (parts.next().unwrap(), parts.next().unwrap());
        let line = format!("[127.0.0.1]:{} {kind} {body}\n", self.port);
        std::fs::write(self.dir.path().join("known_hosts"), line).unwrap();
    }

    /// Another key than the server's, as `known_hosts` would hold after the server changed.
    pub fn a_different_host_key(&self) -> String {
        let other = self.dir.path().join("other_key");
        keygen(&other);
        std::fs::read_to_string(other.with_extension("pub")).unwrap()
    }

    /// An ssh command to this server as host `warden-ask` that knows no host key yet (its
    /// `known_hosts` is empty and ssh asks about one it does not know) and logs in with a key
    /// behind `passphrase` (no agent): (the command, its `known_hosts`).
    pub fn ssh_that_asks(&self, passphrase: &str) -> (String, PathBuf) {
        let d = self.dir.path();
        let key = d.join("ask_key");
        run("ssh-keygen", &["-q", "-t", "ed25519", "-N", passphrase, "-f", key.to_str().unwrap()]);
        let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
        let mut authorized =
            std::fs::OpenOptions::new().append(true).open(d.join("authorized_keys")).unwrap();
        std::io::Write::write_all(&mut authorized, public.as_bytes()).unwrap();
        let known_hosts = d.join("ask_known_hosts");
        std::fs::write(&known_hosts, "").unwrap();
        let config = format!(
            "Host warden-ask\n  HostName 127.0.0.1\n  Port {port}\n  User {USER}\n  IdentityFile {key}\n  \
             IdentitiesOnly yes\n  IdentityAgent none\n  UserKnownHostsFile {known}\n  GlobalKnownHostsFile /dev/null\n  \
             StrictHostKeyChecking ask\n  HashKnownHosts no\n",
            port = self.port,
            key = key.display(),
            known = known_hosts.display()
        );
        std::fs::write(d.join("ask_config"), config).unwrap();
        (format!("ssh -F {}", d.join("ask_config").display()), known_hosts)
    }

    /// What `WARDEN_SSH_COMMAND` is set to: the user's ssh with this configuration.
    pub fn ssh_command(&self) -> String {
        format!("ssh -F {}", self.dir.path().join("ssh_config").display())
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every process of `uid` (pid, command line, environment), as `/proc` shows them.
pub fn processes_of(uid: u32) -> Vec<(u32, Vec<u8>, Vec<u8>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else { continue };
        let owner =
            status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|l| l.split_whitespace().next());
        if owner != Some(uid.to_string().as_str()) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        found.push((pid, cmdline, environ));
    }
    found
}

/// Every file under `dir` whose bytes contain `needle`.
pub fn files_containing(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                let bytes = std::fs::read(entry.path()).unwrap_or_default();
                if bytes.windows(needle.len()).any(|w| w == needle) {
                    found.push(entry.path());
                }
            }
        }
    }
    found
}
