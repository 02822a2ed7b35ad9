//! Desktop notifications. On Linux: the freedesktop `org.freedesktop.Notifications.Notify` call on
//! the session bus (every Linux desktop's notification daemon answers it), with a critical urgency
//! so the daemon keeps it up. On macOS and Windows: Tauri's notification plugin (the system's
//! notification centre); that path is built and run only on those systems, not on these machines.

#[cfg(target_os = "linux")]
use std::time::Duration;

/// How long to wait for the notification daemon.
#[cfg(target_os = "linux")]
const TIMEOUT: Duration = Duration::from_secs(2);

/// The app with what [`send`] needs on this platform: nothing on Linux.
#[cfg(target_os = "linux")]
pub fn with_plugin<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder
}

/// The app with what [`send`] needs on this platform: Tauri's notification plugin.
#[cfg(not(target_os = "linux"))]
pub fn with_plugin<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder.plugin(tauri_plugin_notification::init())
}

/// Show `summary` / `body` as a desktop notification.
#[cfg(target_os = "linux")]
pub fn send<R: tauri::Runtime>(_app: &tauri::AppHandle<R>, summary: &str, body: &str) -> Result<(), String> {
    let connection = dbus::blocking::Connection::new_session().map_err(|e| e.to_string())?;
    send_on(&connection, summary, body)
}

/// Show `summary` / `body` as a desktop notification.
#[cfg(not(target_os = "linux"))]
pub fn send<R: tauri::Runtime>(app: &tauri::AppHandle<R>, summary: &str, body: &str) -> Result<(), String> {
    use tauri_plugin_notification::NotificationExt;
    app.notification().builder().title(summary).body(body).show().map_err(|e| e.to_string())
}

/// [`send`] on a given bus connection.
#[cfg(target_os = "linux")]
pub fn send_on(connection: &dbus::blocking::Connection, summary: &str, body: &str) -> Result<(), String> {
    use dbus::arg::{PropMap, Variant};

    let proxy =
        connection.with_proxy("org.freedesktop.Notifications", "/org/freedesktop/Notifications", TIMEOUT);
    let mut hints = PropMap::new();
    // Critical: the daemon keeps it up until the user sees it (an approval is waiting on them).
    hints.insert("urgency".to_owned(), Variant(Box::new(2u8)));
    let actions: Vec<String> = Vec::new();
    let (_id,): (u32,) = proxy
        .method_call(
            "org.freedesktop.Notifications",
            "Notify",
            ("Warden", 0u32, "dialog-question", summary, body, actions, hints, -1i32),
        )
        .map_err(|e| e.to_string())?;
    Ok(())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::io::{BufRead, BufReader};
    use std::process::{Child, Command, Stdio};
    use std::sync::{Arc, Mutex};
    use std::time::Instant;

    use dbus::blocking::Connection;
    use dbus::channel::{Channel, MatchingReceiver};
    use dbus::message::MatchRule;

    use super::*;

    /// A session bus of the test's own: a real `dbus-daemon`, gone when dropped.
    struct Bus {
        daemon: Child,
        address: String,
    }

    impl Bus {
        fn start() -> Self {
            let mut daemon = Command::new("dbus-daemon")
                .args(["--session", "--nofork", "--print-address=1"])
                .stdout(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("dbus-daemon (Debian: dbus) does not start: {e}"));
            let mut line = String::new();
            let stdout = daemon.stdout.take().unwrap_or_else(|| panic!("no stdout"));
            BufReader::new(stdout).read_line(&mut line).unwrap_or_else(|e| panic!("{e}"));
            Self { daemon, address: line.trim().to_owned() }
        }

        fn connect(&self) -> Connection {
            let mut channel = Channel::open_private(&self.address).unwrap_or_else(|e| panic!("{e}"));
            channel.register().unwrap_or_else(|e| panic!("{e}"));
            Connection::from(channel)
        }
    }

    impl Drop for Bus {
        fn drop(&mut self) {
            let _ = self.daemon.kill();
            let _ = self.daemon.wait();
        }
    }

    /// App name, summary, body and urgency of a notification as the daemon received it.
    type Notified = (String, String, String, u8);

    /// What a notification daemon on the bus receives: the freedesktop call, with Warden's
    /// summary and body and a critical urgency.
    #[test]
    fn an_approval_notification_reaches_the_notification_daemon() {
        let bus = Bus::start();
        let daemon = bus.connect();
        daemon
            .request_name("org.freedesktop.Notifications", false, true, false)
            .unwrap_or_else(|e| panic!("{e}"));
        let received: Arc<Mutex<Option<Notified>>> = Arc::default();
        let seen = received.clone();
        daemon.start_receive(
            MatchRule::new_method_call(),
            Box::new(move |call, connection| {
                if call.member().as_deref() == Some("Notify") {
                    let mut args = call.iter_init();
                    let app: String = args.read().unwrap_or_default();
                    let _replaces: u32 = args.read().unwrap_or_default();
                    let _icon: String = args.read().unwrap_or_default();
                    let summary: String = args.read().unwrap_or_default();
                    let body: String = args.read().unwrap_or_default();
                    let _actions: Vec<String> = args.read().unwrap_or_default();
                    let hints: dbus::arg::PropMap = args.read().unwrap_or_default();
                    let urgency =
                        hints.get("urgency").and_then(|v| dbus::arg::RefArg::as_u64(&v.0)).unwrap_or(0);
                    *seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
                        Some((app, summary, body, u8::try_from(urgency).unwrap_or(0)));
                    let _ = connection.channel().send(call.method_return().append1(7u32));
                }
                true
            }),
        );

        let client = bus.connect();
        let sender = std::thread::spawn(move || {
            send_on(&client, "Warden is waiting for your approval", "Run: cargo test")
        });
        let deadline = Instant::now() + Duration::from_secs(10);
        while received.lock().unwrap_or_else(std::sync::PoisonError::into_inner).is_none()
            && Instant::now() < deadline
        {
            daemon.process(Duration::from_millis(50)).unwrap_or_else(|e| panic!("{e}"));
        }
        // Answer anything still queued, then the sender has its reply.
        daemon.process(Duration::from_millis(50)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sender.join().unwrap_or_else(|_| panic!("sender panicked")), Ok(()));
        let got = received.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        assert_eq!(
            got,
            Some((
                "Warden".to_owned(),
                "Warden is waiting for your approval".to_owned(),
                "Run: cargo test".to_owned(),
                2
            ))
        );
    }

    #[test]
    fn without_a_notification_daemon_sending_fails_quietly_and_soon() {
        let bus = Bus::start();
        let client = bus.connect();
        let started = Instant::now();
        assert!(send_on(&client, "s", "b").is_err(), "nobody owns the name");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
