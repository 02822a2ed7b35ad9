//! The per-user engine that outlives a link: `warden serve --stdio` finds it (or starts it) on a
//! unix socket only this user can reach, and bridges its pipe to it. The engine keeps a session
//! whose link dropped while a turn runs, and exits when it has had no link and no turn for a while
//! ([`IDLE_ENV`], ten minutes unless set).
//!
//! Being this user is not enough to use the socket: a command Warden boxes runs as this user too,
//! and where the box cannot keep it from pathname sockets (the Landlock fallback with the network)
//! it could reach it. So each link first sends the engine's secret, which the engine writes when it
//! starts to a file (mode 0600) beside the socket, in a folder no box shows; a link without it is
//! closed unread.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::{UnixListener, UnixStream};

use super::hub::Hub;
use crate::config::WardenHome;

/// Seconds the engine stays with no link and no turn running (600 unless set).
pub const IDLE_ENV: &str = "WARDEN_ENGINE_IDLE_SECS";
const IDLE_DEFAULT: u64 = 600;

/// How long a starting engine may take to listen.
const START_WAIT: Duration = Duration::from_secs(10);

/// How long a link may take to send the secret.
const SECRET_WAIT: Duration = Duration::from_secs(10);

/// `$XDG_RUNTIME_DIR/warden`, else `~/.local/state/warden/run`: made mode 0700, and refused when it
/// belongs to another user or others may enter it.
pub fn run_dir() -> Result<PathBuf, String> {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| Path::new(d).is_absolute()) {
        Some(runtime) => PathBuf::from(runtime).join("warden"),
        None => dirs::home_dir().ok_or("no home folder")?.join(".local/state/warden/run"),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let meta = std::fs::symlink_metadata(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let uid = nix::unistd::getuid().as_raw();
    if !meta.is_dir() || std::os::unix::fs::MetadataExt::uid(&meta) != uid {
        return Err(format!("{} is not a folder of this user's", dir.display()));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    Ok(dir)
}

/// The socket of this version's engine (another version's engine has its own).
pub fn socket_path(dir: &Path) -> PathBuf {
    dir.join(format!("engine-{}.sock", env!("CARGO_PKG_VERSION")))
}

/// The file that holds the secret of this version's engine.
fn secret_path(dir: &Path) -> PathBuf {
    dir.join(format!("engine-{}.secret", env!("CARGO_PKG_VERSION")))
}

/// A new secret for this engine, written (mode 0600, a new file) where the bridge reads it.
fn make_secret(dir: &Path) -> Result<String, String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let secret = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let path = secret_path(dir);
    let _ = std::fs::remove_file(&path);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all(secret.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(secret)
}

fn idle_limit() -> Duration {
    let secs = std::env::var(IDLE_ENV).ok().and_then(|s| s.parse().ok()).unwrap_or(IDLE_DEFAULT);
    Duration::from_secs(secs)
}

/// The engine itself (`warden serve --daemon`, started by the bridge): serves every link of this
/// user until idle. Returns at once when another engine of this version already serves.
pub async fn run(home: WardenHome) -> Result<(), String> {
    let dir = run_dir()?;
    let lock_path = dir.join(format!("engine-{}.lock", env!("CARGO_PKG_VERSION")));
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("{}: {e}", lock_path.display()))?;
    let Ok(_held) = nix::fcntl::Flock::lock(lock, nix::fcntl::FlockArg::LockExclusiveNonblock) else {
        tracing::info!("another engine serves this user");
        return Ok(());
    };
    let secret: Arc<str> = make_secret(&dir)?.into();
    let socket = socket_path(&dir);
    let _ = std::fs::remove_file(&socket);
    let listener = UnixListener::bind(&socket).map_err(|e| format!("{}: {e}", socket.display()))?;
    let hub = Hub::new(home);
    let idle = idle_limit();
    let me = nix::unistd::getuid().as_raw();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => accept(&hub, stream, me, secret.clone()),
                Err(error) => tracing::warn!(%error, "accepting a link"),
            },
            _ = tick.tick() => {
                if hub.idle_for().is_some_and(|for_| for_ >= idle) {
                    break;
                }
            }
        }
    }
    let _ = std::fs::remove_file(&socket);
    let _ = std::fs::remove_file(secret_path(&dir));
    let _ = tokio::task::spawn_blocking(crate::process_guard::kill_all_descendants).await;
    Ok(())
}

/// A link from this user that sends the engine's secret first is served; any other is closed
/// unread (the folder's mode keeps other users out already; their credentials are checked all
/// the same).
fn accept(hub: &Arc<Hub>, stream: UnixStream, me: u32, secret: Arc<str>) {
    match stream.peer_cred() {
        Ok(peer) if peer.uid() == me => {}
        Ok(peer) => {
            tracing::warn!(uid = peer.uid(), "refused a link from another user");
            return;
        }
        Err(error) => {
            tracing::warn!(%error, "refused a link whose peer cannot be told");
            return;
        }
    }
    let hub = hub.clone();
    tokio::spawn(async move {
        let (read, write) = stream.into_split();
        let mut read = tokio::io::BufReader::new(read);
        let sent = tokio::time::timeout(SECRET_WAIT, super::read_line(&mut read, secret.len() + 1)).await;
        match sent {
            Ok(Ok(Some(line))) if line.strip_suffix(b"\n") == Some(secret.as_bytes()) => {}
            _ => {
                tracing::warn!("refused a link without the engine's secret");
                return;
            }
        }
        if let Err(error) = super::serve::serve(&hub, read, write).await {
            tracing::info!(%error, "a link ended");
        }
    });
}

/// `warden serve --stdio`: this pipe, bridged to the user's engine (started when none runs). With
/// no folder for the socket, the link is served here, and does not outlive the pipe.
pub async fn bridge(home: WardenHome) -> Result<(), String> {
    let stdin = tokio::io::stdin();
    let stdout = tokio::io::stdout();
    let dir = match run_dir() {
        Ok(dir) => dir,
        Err(why) => {
            tracing::warn!(%why, "no folder for the engine's socket: this link is served alone");
            let hub = Hub::new(home);
            return super::serve::serve(&hub, tokio::io::BufReader::new(stdin), stdout)
                .await
                .map_err(|e| e.to_string());
        }
    };
    let socket = socket_path(&dir);
    let stream = match UnixStream::connect(&socket).await {
        Ok(stream) => stream,
        Err(_) => {
            start_engine(&dir)?;
            connect_when_ready(&socket).await?
        }
    };
    let secret =
        std::fs::read_to_string(secret_path(&dir)).map_err(|e| format!("the engine's secret: {e}"))?;
    let (mut from_engine, mut to_engine) = stream.into_split();
    to_engine
        .write_all(format!("{}\n", secret.trim()).as_bytes())
        .await
        .map_err(|e| format!("the link to the engine: {e}"))?;
    let upstream = tokio::spawn(async move {
        let mut stdin = stdin;
        let _ = tokio::io::copy(&mut stdin, &mut to_engine).await;
        // The face closed its side: the engine sees the link end.
        let _ = to_engine.shutdown().await;
    });
    let mut stdout = stdout;
    let copied = tokio::io::copy(&mut from_engine, &mut stdout).await;
    let _ = stdout.flush().await;
    upstream.abort();
    copied.map(drop).map_err(|e| format!("the link to the engine: {e}"))
}

/// Start the engine, detached from this pipe (its own process group; no terminal; its log in the
/// socket's folder). The provider keys this side's environment had (taken out of it when it
/// started) go to the engine's, which takes them out of its own in turn: a session whose user
/// said to use the remote's keys (`--remote-env-keys`) reads them there, and no other does.
fn start_engine(dir: &Path) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("engine.log"))
        .map_err(|e| format!("the engine's log: {e}"))?;
    let keys = warden_protocol::KeyName::ALL.into_iter().filter_map(|name| {
        crate::secrets::env_keys::env_key(name.env_var()).map(|key| (name.env_var(), key.expose().to_owned()))
    });
    std::process::Command::new(exe)
        .args(["serve", "--daemon"])
        .envs(keys)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .process_group(0)
        .spawn()
        .map(drop)
        .map_err(|e| format!("could not start the engine: {e}"))
}

async fn connect_when_ready(socket: &Path) -> Result<UnixStream, String> {
    let started = tokio::time::Instant::now();
    loop {
        match UnixStream::connect(socket).await {
            Ok(stream) => return Ok(stream),
            Err(error) if started.elapsed() >= START_WAIT => {
                return Err(format!("the engine did not start listening on {}: {error}", socket.display()))
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}
