//! Desktop notifications that can be withdrawn and clicked.
//!
//! On Linux: the freedesktop notification daemon on the session bus (every Linux desktop's daemon
//! answers it). One thread owns the bus connection: it shows notifications with a critical urgency
//! (the daemon keeps them up) and a default action, closes them by id when their question is
//! settled or expires, and hears `ActionInvoked` — which the daemon sends only to the connection
//! that showed the notification, so showing and listening must share it.
//!
//! Elsewhere: Tauri's notification plugin (the system's notification centre), which can neither
//! withdraw nor report a click; that path is built and run only on those systems.

use std::time::Duration;

/// One notification to show, under a key its owner settles it by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub key: String,
    pub summary: String,
    pub body: String,
    /// Closed after this long even if nobody settles it (the question timed out).
    pub lasts: Duration,
}

/// What to do with the key of a notification the user clicked.
pub type OnClick = Box<dyn Fn(String) + Send + 'static>;

/// The app with what [`Notifier`] needs on this platform: nothing on Linux.
#[cfg(target_os = "linux")]
pub fn with_plugin<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder
}

/// The app with what [`Notifier`] needs on this platform: Tauri's notification plugin.
#[cfg(not(target_os = "linux"))]
pub fn with_plugin<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder.plugin(tauri_plugin_notification::init())
}

#[cfg(target_os = "linux")]
pub use linux::Notifier;

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::HashMap;
    use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
    use std::sync::{Arc, Mutex, PoisonError};
    use std::time::{Duration, Instant};

    use dbus::arg::{PropMap, Variant};
    use dbus::blocking::Connection;
    use dbus::message::MatchRule;

    use super::{Notice, OnClick};

    const IFACE: &str = "org.freedesktop.Notifications";
    const PATH: &str = "/org/freedesktop/Notifications";
    /// How long to wait for the notification daemon's answer to one call.
    const CALL_TIMEOUT: Duration = Duration::from_secs(2);
    /// How often the thread looks for requests between bus messages.
    const TICK: Duration = Duration::from_millis(100);

    enum Request {
        Show(Notice),
        Withdraw(String),
    }

    /// What the daemon reported about one of its notifications.
    enum Report {
        Clicked(u32),
        Closed(u32),
    }

    /// Shows, withdraws and hears clicks on desktop notifications (see the module's words).
    pub struct Notifier {
        requests: Sender<Request>,
    }

    impl Notifier {
        /// Starts the thread that owns a connection made by `connect` (the session bus in the
        /// app, a test's own bus in tests). It ends when the notifier is dropped or the bus fails.
        pub fn start(
            connect: impl FnOnce() -> Result<Connection, dbus::Error> + Send + 'static,
            on_click: OnClick,
        ) -> Self {
            let (requests, rx) = mpsc::channel();
            let started =
                std::thread::Builder::new().name("notifications".into()).spawn(move || match connect() {
                    Ok(connection) => serve(&connection, &rx, &on_click),
                    Err(error) => tracing::debug!(%error, "no session bus: no desktop notifications"),
                });
            if let Err(error) = started {
                tracing::warn!(%error, "could not start the notification thread");
            }
            Self { requests }
        }

        pub fn show(&self, notice: Notice) {
            let _ = self.requests.send(Request::Show(notice));
        }

        /// Closes the notification shown under `key`, if it is still up.
        pub fn withdraw(&self, key: &str) {
            let _ = self.requests.send(Request::Withdraw(key.to_owned()));
        }
    }

    /// The notifications up now: key → (daemon's id, when it is closed regardless).
    type Shown = HashMap<String, (u32, Instant)>;

    fn serve(connection: &Connection, requests: &Receiver<Request>, on_click: &OnClick) {
        let reports: Arc<Mutex<Vec<Report>>> = Arc::default();
        if let Err(error) = listen(connection, &reports) {
            tracing::debug!(%error, "notification clicks will not be heard");
        }
        let mut shown = Shown::new();
        loop {
            if let Err(error) = connection.process(TICK) {
                tracing::debug!(%error, "the session bus failed: no more desktop notifications");
                return;
            }
            let heard = std::mem::take(&mut *reports.lock().unwrap_or_else(PoisonError::into_inner));
            for report in heard {
                settle_report(connection, &mut shown, report, on_click);
            }
            loop {
                match requests.try_recv() {
                    Ok(Request::Show(notice)) => {
                        if let Some((old, _)) = shown.remove(&notice.key) {
                            close(connection, old);
                        }
                        match notify(connection, &notice) {
                            Ok(id) => {
                                shown.insert(notice.key, (id, Instant::now() + notice.lasts));
                            }
                            Err(error) => tracing::debug!(%error, "no desktop notification"),
                        }
                    }
                    Ok(Request::Withdraw(key)) => {
                        if let Some((id, _)) = shown.remove(&key) {
                            close(connection, id);
                        }
                    }
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return,
                }
            }
            let now = Instant::now();
            shown.retain(|_, (id, until)| {
                let keep = *until > now;
                if !keep {
                    close(connection, *id);
                }
                keep
            });
        }
    }

    /// A click runs `on_click` and closes the notification (not every daemon does on its own);
    /// a notification the daemon closed is forgotten.
    fn settle_report(connection: &Connection, shown: &mut Shown, report: Report, on_click: &OnClick) {
        let (id, clicked) = match report {
            Report::Clicked(id) => (id, true),
            Report::Closed(id) => (id, false),
        };
        let Some(key) = shown.iter().find(|(_, (shown_id, _))| *shown_id == id).map(|(k, _)| k.clone())
        else {
            return;
        };
        shown.remove(&key);
        if clicked {
            close(connection, id);
            on_click(key);
        }
    }

    fn listen(connection: &Connection, reports: &Arc<Mutex<Vec<Report>>>) -> Result<(), dbus::Error> {
        let clicks = reports.clone();
        connection.add_match(
            MatchRule::new_signal(IFACE, "ActionInvoked"),
            move |(id, _action): (u32, String), _, _| {
                clicks.lock().unwrap_or_else(PoisonError::into_inner).push(Report::Clicked(id));
                true
            },
        )?;
        let closes = reports.clone();
        connection.add_match(
            MatchRule::new_signal(IFACE, "NotificationClosed"),
            move |(id, _reason): (u32, u32), _, _| {
                closes.lock().unwrap_or_else(PoisonError::into_inner).push(Report::Closed(id));
                true
            },
        )?;
        Ok(())
    }

    /// The freedesktop `Notify` call: critical (kept up until seen), with a default action (a
    /// click on the bubble), never expiring by the daemon's clock (this thread closes it).
    fn notify(connection: &Connection, notice: &Notice) -> Result<u32, dbus::Error> {
        let proxy = connection.with_proxy(IFACE, PATH, CALL_TIMEOUT);
        let mut hints = PropMap::new();
        hints.insert("urgency".to_owned(), Variant(Box::new(2u8)));
        let actions = vec!["default".to_owned(), "Show in Warden".to_owned()];
        let body = (
            "Warden",
            0u32,
            "dialog-question",
            notice.summary.as_str(),
            notice.body.as_str(),
            actions,
            hints,
            -1i32,
        );
        let (id,): (u32,) = proxy.method_call(IFACE, "Notify", body)?;
        Ok(id)
    }

    fn close(connection: &Connection, id: u32) {
        let proxy = connection.with_proxy(IFACE, PATH, CALL_TIMEOUT);
        if let Err(error) = proxy.method_call::<(), _, _, _>(IFACE, "CloseNotification", (id,)) {
            tracing::debug!(%error, id, "could not close a desktop notification");
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub use elsewhere::Notifier;

#[cfg(not(target_os = "linux"))]
mod elsewhere {
    use super::{Notice, OnClick};

    /// Tauri's notification plugin: shows; cannot withdraw or hear a click.
    pub struct Notifier {
        show: Box<dyn Fn(&Notice) + Send + Sync>,
    }

    impl Notifier {
        pub fn for_app<R: tauri::Runtime>(app: tauri::AppHandle<R>, _on_click: OnClick) -> Self {
            use tauri_plugin_notification::NotificationExt;
            Self {
                show: Box::new(move |notice| {
                    let shown = app.notification().builder().title(&notice.summary).body(&notice.body).show();
                    if let Err(error) = shown {
                        tracing::debug!(%error, "no desktop notification");
                    }
                }),
            }
        }

        pub fn show(&self, notice: Notice) {
            (self.show)(&notice);
        }

        pub fn withdraw(&self, _key: &str) {}
    }
}

#[cfg(all(test, target_os = "linux"))]
#[path = "notify_tests.rs"]
mod tests;
