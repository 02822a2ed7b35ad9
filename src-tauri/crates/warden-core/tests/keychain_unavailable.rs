//! The keychain when it cannot answer: no D-Bus session bus, a bus with no Secret Service on it,
//! and a locked collection — once with no prompter (the prompt fails at once), once with a real
//! unlock prompt on a display that nobody answers (keyring would wait a year for it). Each must
//! end in bounded time in `SecretError::Unavailable` with a message that says why, never a panic
//! or a hang, and the layers above (`resolve_key`, `Engine::new`, `Engine::provider`) must turn
//! it into a clear error or their documented fallback.
//!
//! `keyring` reads `DBUS_SESSION_BUS_ADDRESS` when it connects, and the environment is global to
//! the process: so every keychain call here runs in a child process — this test binary again,
//! running only [`probe_child`] — with the bus address set for it alone. Each scenario has a
//! D-Bus daemon (and gnome-keyring, Xvfb) of its own, started and ended by the test, so nothing
//! touches the user's keychain or the session `scripts/test.sh` runs the other keychain tests in.
//!
//! The two tests that start gnome-keyring are `#[ignore]`d with `keychain` in their names, like
//! every real-keychain test (`cargo test -- --ignored keychain`); the two that need only
//! `dbus-daemon` run in the normal suite.
// Test code: a failed unwrap is a failed test.
// The probe child reports to its parent on stdout.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tempfile::TempDir;
use warden_core::config::WardenHome;
use warden_core::engine::{Engine, SetupError};
use warden_core::secrets::{resolve_key, KeychainStore, SecretError, SecretStore};
use warden_protocol::{KeyName, ProviderId};

/// A child still running after this is hung: the test fails (and the child is killed).
const PROBE_DEADLINE: Duration = Duration::from_secs(20);
/// The per-call deadline the probes give [`KeychainStore`] where a call is expected to be given up.
const SHORT_TIMEOUT_SECS: u64 = 1;
const PROBE_ENV: &str = "WARDEN_KEYCHAIN_PROBE";
const PROBE_TIMEOUT_ENV: &str = "WARDEN_KEYCHAIN_PROBE_TIMEOUT_SECS";
const PROBE_SERVICE_ENV: &str = "WARDEN_KEYCHAIN_PROBE_SERVICE";

// ---------------------------------------------------------------------------------------------
// The child: the keychain calls, in a process whose session bus is the one the test chose.

/// Runs only as a child of the tests below (it does nothing without `WARDEN_KEYCHAIN_PROBE`).
#[test]
#[ignore = "the child process of the keychain-unavailable tests; does nothing on its own"]
fn probe_child() {
    let Ok(case) = std::env::var(PROBE_ENV) else { return };
    let timeout = std::env::var(PROBE_TIMEOUT_ENV).ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let service = std::env::var(PROBE_SERVICE_ENV)
        .unwrap_or_else(|_| format!("dev.warden.test.{}", uuid::Uuid::new_v4()));
    let store = KeychainStore::new(service).with_timeout(Duration::from_secs(timeout));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        match case.as_str() {
            "store" => {
                store.set(KeyName::Anthropic, "sk-ant-before-the-lock").await.unwrap();
                let got = store.get(KeyName::Anthropic).await.unwrap().unwrap();
                assert_eq!(got.expose(), "sk-ant-before-the-lock");
            }
            "unavailable" => every_call_is_unavailable(store).await,
            other => panic!("unknown probe {other}"),
        }
    });
    println!("PROBE DONE");
}

/// Every way the keychain is reached fails cleanly; the engine still starts and says why there is
/// no key.
async fn every_call_is_unavailable(store: KeychainStore) {
    report("get", store.get(KeyName::Anthropic).await);
    report("set", store.set(KeyName::Anthropic, "sk-ant-never-stored").await);
    // All on the key the "store" probe saved: on a locked collection, looking up an entry that is
    // not there needs no unlock (the Secret Service searches locked items' attributes), so a missing
    // key is rightly `Ok(None)` there; reading, replacing or deleting one that is there is not.
    report("delete", store.delete(KeyName::Anthropic).await);
    report("is_set", store.is_set(KeyName::Anthropic).await);
    let seal_store = store.clone();
    let seal = tokio::task::spawn_blocking(move || seal_store.settings_seal_key()).await.unwrap();
    report("settings_seal_key", seal);
    // The layer above: no key in the environment (the parent removed them), so the store's error.
    report("resolve_key", resolve_key(&store, KeyName::Anthropic).await);

    // The engine starts anyway (the seal key falls back to a file) and says why there is no key.
    let dirs = tempfile::tempdir().unwrap();
    let home = WardenHome::at(dirs.path().join("home"));
    let engine = tokio::task::spawn_blocking(move || Engine::new(home, Arc::new(store)))
        .await
        .unwrap()
        .expect("the engine starts without a keychain");
    println!("engine: integrity {:?}", engine.settings_integrity());
    let statuses = engine.key_status().await;
    assert!(statuses.iter().all(|s| !s.is_set), "{statuses:?}");
    report("set_key", engine.set_key(KeyName::Anthropic, "sk-ant-x").await);
    match engine.provider(ProviderId::Anthropic, None, None).await {
        Err(error @ SetupError::MissingKey { keychain: Some(_), .. }) => {
            let text = error.to_string();
            assert!(text.contains("ANTHROPIC_API_KEY"), "{text}");
            assert!(text.contains("the system keychain is unavailable"), "{text}");
            println!("provider: {text}");
        }
        Err(other) => panic!("provider: expected a missing key with the keychain's error, got {other}"),
        Ok(_) => panic!("provider: built without a key"),
    }
}

/// The call failed with `Unavailable` and a message; printed for the parent to check.
fn report<T: std::fmt::Debug>(call: &str, result: Result<T, SecretError>) {
    match result {
        Err(SecretError::Unavailable(why)) => {
            assert!(!why.trim().is_empty(), "{call}: an empty reason");
            println!("{call}: unavailable: {why}");
        }
        other => panic!("{call}: expected SecretError::Unavailable, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The parent side: buses, daemons, and running the child against them.

/// What a probe printed, and how long it took.
struct Probe {
    stdout: String,
    elapsed: Duration,
}

/// Runs [`probe_child`] for `case` with `DBUS_SESSION_BUS_ADDRESS=bus`; fails the test if the child
/// fails or is still running after [`PROBE_DEADLINE`].
fn probe(case: &str, bus: &str, extra_env: &[(&str, String)]) -> Probe {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--exact", "probe_child", "--ignored", "--nocapture", "--test-threads=1"])
        .env(PROBE_ENV, case)
        .env("DBUS_SESSION_BUS_ADDRESS", bus)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for name in KeyName::ALL {
        command.env_remove(name.env_var());
    }
    for (name, value) in extra_env {
        command.env(name, value);
    }
    let started = Instant::now();
    let mut child = command.spawn().unwrap();
    let (out, err) = (drain(child.stdout.take().unwrap()), drain(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > PROBE_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let elapsed = started.elapsed();
    let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
    let Some(status) = status else {
        panic!("probe {case} hung: still running after {PROBE_DEADLINE:?}\n{stdout}\n{stderr}")
    };
    assert!(status.success(), "probe {case} failed ({status}):\n{stdout}\n{stderr}");
    assert!(stdout.contains("PROBE DONE"), "probe {case} did not run:\n{stdout}\n{stderr}");
    eprintln!("probe {case} ({elapsed:?}):\n{stdout}");
    Probe { stdout, elapsed }
}

fn drain(mut stream: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// A child process ended when dropped.
struct Daemon(Child);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A private D-Bus session daemon: only the services in `services` can be started on it.
struct Bus {
    address: String,
    _daemon: Daemon,
}

impl Bus {
    fn start(dir: &Path, services: Option<&Path>, env: &[(&str, &str)]) -> Self {
        let servicedir =
            services.map(|d| format!("<servicedir>{}</servicedir>", d.display())).unwrap_or_default();
        let config = dir.join("bus.conf");
        std::fs::write(
            &config,
            format!(
                r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={}</listen>
  <auth>EXTERNAL</auth>
  {servicedir}
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
                dir.join("bus").display()
            ),
        )
        .unwrap();
        let mut command = Command::new("dbus-daemon");
        command
            .arg(format!("--config-file={}", config.display()))
            .args(["--nofork", "--print-address"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command.spawn().expect("dbus-daemon (package dbus) is needed");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let address = line.trim().to_owned();
        assert!(address.starts_with("unix:"), "dbus-daemon printed {line:?}");
        Self { address, _daemon: Daemon(child) }
    }

    fn busctl(&self, args: &[&str]) -> String {
        let out =
            Command::new("busctl").arg(format!("--address={}", self.address)).args(args).output().unwrap();
        assert!(out.status.success(), "busctl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn has_owner(&self, name: &str) -> bool {
        let reply = self.busctl(&[
            "call",
            "org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus",
            "NameHasOwner",
            "s",
            name,
        ]);
        reply == "b true"
    }
}

/// gnome-keyring's Secret Service on `bus`, its login keyring created and unlocked.
fn start_gnome_keyring(bus: &Bus, data: &Path) -> Daemon {
    let mut child = Command::new("gnome-keyring-daemon")
        .args(["--foreground", "--unlock", "--components=secrets"])
        .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
        .env("XDG_DATA_HOME", data)
        .env("XDG_RUNTIME_DIR", data)
        .env_remove("DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("gnome-keyring-daemon (package gnome-keyring) is needed");
    child.stdin.take().unwrap().write_all(b"warden-test").unwrap();
    let daemon = Daemon(child);
    let started = Instant::now();
    while !bus.has_owner("org.freedesktop.secrets") {
        assert!(started.elapsed() < Duration::from_secs(10), "gnome-keyring never took its bus name");
        std::thread::sleep(Duration::from_millis(50));
    }
    daemon
}

const DEFAULT_COLLECTION: &str = "/org/freedesktop/secrets/aliases/default";

/// Locks the collection keyring writes to (the `default` alias: the login keyring).
fn lock_default_collection(bus: &Bus) {
    bus.busctl(&[
        "call",
        "org.freedesktop.secrets",
        "/org/freedesktop/secrets",
        "org.freedesktop.Secret.Service",
        "Lock",
        "ao",
        "1",
        DEFAULT_COLLECTION,
    ]);
    let locked = bus.busctl(&[
        "get-property",
        "org.freedesktop.secrets",
        DEFAULT_COLLECTION,
        "org.freedesktop.Secret.Collection",
        "Locked",
    ]);
    assert_eq!(locked, "b true", "the collection did not lock");
}

/// Stores a key (proving the keychain works while unlocked), then locks the collection.
fn store_then_lock(bus: &Bus) -> String {
    let service = format!("dev.warden.test.{}", uuid::Uuid::new_v4());
    probe("store", &bus.address, &[(PROBE_SERVICE_ENV, service.clone())]);
    lock_default_collection(bus);
    service
}

/// The messages each call of the "unavailable" probe ended with.
fn reasons(probe: &Probe) -> Vec<&str> {
    probe.stdout.lines().filter(|l| l.contains(": unavailable: ")).collect()
}

// ---------------------------------------------------------------------------------------------
// The scenarios.

#[test]
fn no_session_bus_at_all_is_unavailable_in_bounded_time() {
    let dir = TempDir::new().unwrap();
    let address = format!("unix:path={}", dir.path().join("no-bus-here").display());
    let probe = probe("unavailable", &address, &[]);
    let reasons = reasons(&probe);
    assert_eq!(reasons.len(), 7, "{reasons:?}");
    for line in &reasons {
        // libdbus's own words for a socket that is not there.
        assert!(line.contains("no-bus-here") || line.contains("No such file"), "{line}");
    }
    assert!(probe.elapsed < Duration::from_secs(10), "{:?}", probe.elapsed);
}

#[test]
fn a_session_bus_without_a_secret_service_is_unavailable_in_bounded_time() {
    let dir = TempDir::new().unwrap();
    let bus = Bus::start(dir.path(), None, &[]);
    let probe = probe("unavailable", &bus.address, &[]);
    let reasons = reasons(&probe);
    assert_eq!(reasons.len(), 7, "{reasons:?}");
    for line in &reasons {
        // The bus's answer: nobody owns org.freedesktop.secrets and nothing can start it.
        assert!(line.contains("org.freedesktop.secrets"), "{line}");
    }
    assert!(probe.elapsed < Duration::from_secs(10), "{:?}", probe.elapsed);
}

#[test]
#[ignore = "needs gnome-keyring-daemon (scripts/test.sh runs it)"]
fn keychain_locked_with_no_prompter_fails_fast_with_a_clear_error() {
    let dir = TempDir::new().unwrap();
    // No service directory: the unlock prompt gnome-keyring asks for cannot be started.
    let bus = Bus::start(dir.path(), None, &[]);
    let _keyring = start_gnome_keyring(&bus, dir.path());
    let service = store_then_lock(&bus);
    let probe = probe("unavailable", &bus.address, &[(PROBE_SERVICE_ENV, service)]);
    let reasons = reasons(&probe);
    assert_eq!(reasons.len(), 7, "{reasons:?}");
    for line in &reasons {
        assert!(line.contains("locked"), "{line}");
    }
    assert!(probe.elapsed < Duration::from_secs(10), "{:?}", probe.elapsed);
}

#[test]
#[ignore = "needs gnome-keyring-daemon, gcr-prompter and Xvfb (scripts/test.sh runs it)"]
fn keychain_locked_behind_an_unanswered_unlock_prompt_is_given_up_in_time() {
    let dir = TempDir::new().unwrap();
    // The prompter gnome-keyring starts for an unlock: the real one, on a display of our own where
    // nobody will ever answer it.
    let services = dir.path().join("services");
    std::fs::create_dir(&services).unwrap();
    let prompter = "org.gnome.keyring.SystemPrompter.service";
    std::fs::copy(Path::new("/usr/share/dbus-1/services").join(prompter), services.join(prompter))
        .expect("gcr's prompter (package gcr) is needed");
    let (_xvfb, display) = start_xvfb(dir.path());
    let bus = Bus::start(dir.path(), Some(&services), &[("DISPLAY", &display), ("NO_AT_BRIDGE", "1")]);
    let _keyring = start_gnome_keyring(&bus, dir.path());
    let service = store_then_lock(&bus);

    let timeout = (PROBE_TIMEOUT_ENV, SHORT_TIMEOUT_SECS.to_string());
    let probe = probe("unavailable", &bus.address, &[(PROBE_SERVICE_ENV, service), timeout]);
    // The prompt is up: nobody answered it, the store gave up.
    assert!(bus.has_owner("org.gnome.keyring.SystemPrompter"), "no unlock prompt was shown");
    let reasons = reasons(&probe);
    assert_eq!(reasons.len(), 7, "{reasons:?}");
    let expected = format!("did not answer within {SHORT_TIMEOUT_SECS} s");
    for line in &reasons {
        assert!(line.contains(&expected) && line.contains("locked"), "{line}");
    }
    // The calls did wait for the deadline (ten of them: Engine::new's seal key, key_status and the
    // provider's lookup too), and no longer: `probe` fails past PROBE_DEADLINE.
    assert!(probe.elapsed >= Duration::from_secs(7 * SHORT_TIMEOUT_SECS), "{:?}", probe.elapsed);
}

/// An X server on a free display; returns it and `:N`.
fn start_xvfb(dir: &Path) -> (Daemon, String) {
    for n in 150..250 {
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
        if socket.exists() || Path::new(&format!("/tmp/.X{n}-lock")).exists() {
            continue;
        }
        let child = Command::new("Xvfb")
            .args([format!(":{n}"), "-nolisten".into(), "tcp".into()])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb (package xvfb) is needed");
        let mut xvfb = Daemon(child);
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(10) {
            if socket.exists() {
                return (xvfb, format!(":{n}"));
            }
            if xvfb.0.try_wait().unwrap().is_some() {
                break; // lost a race for this display: try the next
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("no free X display for Xvfb");
}
