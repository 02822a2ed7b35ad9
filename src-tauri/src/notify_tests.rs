//! The notifier against a notification daemon on the test's own session bus: a real `dbus-daemon`,
//! and a daemon stand-in that owns `org.freedesktop.Notifications`, records the calls it gets and
//! reports a click the way daemons do (an `ActionInvoked` signal to the connection that showed
//! it). The real daemon (dunst) is driven by the e2e `window_notify`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use dbus::blocking::Connection;
use dbus::channel::{Channel, MatchingReceiver};
use dbus::message::MatchRule;
use dbus::Message;

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

    fn connector(&self) -> impl FnOnce() -> Result<Connection, dbus::Error> + Send + 'static {
        let address = self.address.clone();
        move || {
            let mut channel = Channel::open_private(&address)?;
            channel.register()?;
            Ok(Connection::from(channel))
        }
    }
}

impl Drop for Bus {
    fn drop(&mut self) {
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

/// What the stand-in daemon was asked.
#[derive(Debug, Clone, PartialEq)]
enum Call {
    /// app name, summary, body, actions, urgency; answered with the id `id`.
    Notify {
        id: u32,
        app: String,
        summary: String,
        body: String,
        actions: Vec<String>,
        urgency: u8,
    },
    Close(u32),
}

/// The stand-in daemon, serving on its own thread until dropped.
struct Daemon {
    calls: Arc<Mutex<Vec<Call>>>,
    /// Ids to report clicked, sent to whoever showed them.
    clicks: Arc<Mutex<Vec<u32>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Daemon {
    fn start(bus: &Bus) -> Self {
        let connection = (bus.connector())().unwrap_or_else(|e| panic!("{e}"));
        connection
            .request_name("org.freedesktop.Notifications", false, true, false)
            .unwrap_or_else(|e| panic!("{e}"));
        let calls: Arc<Mutex<Vec<Call>>> = Arc::default();
        let clicks: Arc<Mutex<Vec<u32>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (seen, to_click, stopping) = (calls.clone(), clicks.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let senders: Arc<Mutex<std::collections::HashMap<u32, String>>> = Arc::default();
            let record = (seen.clone(), senders.clone());
            connection.start_receive(
                MatchRule::new_method_call(),
                Box::new(move |call, connection| {
                    answer(&call, connection, &record.0, &record.1);
                    true
                }),
            );
            while !stopping.load(Ordering::SeqCst) {
                connection.process(Duration::from_millis(20)).unwrap_or_else(|e| panic!("{e}"));
                for id in std::mem::take(&mut *to_click.lock().unwrap_or_else(PoisonError::into_inner)) {
                    let sender = senders.lock().unwrap_or_else(PoisonError::into_inner).get(&id).cloned();
                    let mut signal = Message::new_signal(
                        "/org/freedesktop/Notifications",
                        "org.freedesktop.Notifications",
                        "ActionInvoked",
                    )
                    .unwrap_or_else(|e| panic!("{e}"))
                    .append2(id, "default");
                    signal.set_destination(sender.map(|s| s.into()));
                    let _ = connection.channel().send(signal);
                }
            }
        });
        Self { calls, clicks, stop, thread: Some(thread) }
    }

    fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Waits until the calls satisfy `done` (or panics after 10 s), and returns them.
    fn wait_for(&self, what: &str, done: impl Fn(&[Call]) -> bool) -> Vec<Call> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let calls = self.calls();
            if done(&calls) {
                return calls;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}: {calls:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn click(&self, id: u32) {
        self.clicks.lock().unwrap_or_else(PoisonError::into_inner).push(id);
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Answers `Notify` with the next id (from 7) and `CloseNotification`, recording both.
fn answer(
    call: &Message,
    connection: &Connection,
    calls: &Mutex<Vec<Call>>,
    senders: &Mutex<std::collections::HashMap<u32, String>>,
) {
    let mut calls = calls.lock().unwrap_or_else(PoisonError::into_inner);
    match call.member().as_deref() {
        Some("Notify") => {
            let mut args = call.iter_init();
            let app: String = args.read().unwrap_or_default();
            let _replaces: u32 = args.read().unwrap_or_default();
            let _icon: String = args.read().unwrap_or_default();
            let summary: String = args.read().unwrap_or_default();
            let body: String = args.read().unwrap_or_default();
            let actions: Vec<String> = args.read().unwrap_or_default();
            let hints: dbus::arg::PropMap = args.read().unwrap_or_default();
            let urgency = hints.get("urgency").and_then(|v| dbus::arg::RefArg::as_u64(&v.0)).unwrap_or(0);
            let id = 7 + u32::try_from(calls.len()).unwrap_or(0);
            if let Some(sender) = call.sender() {
                senders.lock().unwrap_or_else(PoisonError::into_inner).insert(id, sender.to_string());
            }
            let urgency = u8::try_from(urgency).unwrap_or(0);
            calls.push(Call::Notify { id, app, summary, body, actions, urgency });
            let _ = connection.channel().send(call.method_return().append1(id));
        }
        Some("CloseNotification") => {
            let id: u32 = call.read1().unwrap_or_default();
            calls.push(Call::Close(id));
            let _ = connection.channel().send(call.method_return());
        }
        _ => {}
    }
}

fn notice(key: &str, lasts: Duration) -> Notice {
    Notice {
        key: key.to_owned(),
        summary: "Warden is waiting for your approval".to_owned(),
        body: format!("Run: cargo test {key}"),
        lasts,
    }
}

fn no_clicks() -> OnClick {
    Box::new(|key| panic!("nobody clicked {key}"))
}

const LONG: Duration = Duration::from_secs(600);

#[test]
fn a_notification_is_shown_critical_with_a_default_action_and_withdrawn_by_its_key() {
    let bus = Bus::start();
    let daemon = Daemon::start(&bus);
    let notifier = Notifier::start(bus.connector(), no_clicks());

    notifier.show(notice("q1", LONG));
    let calls = daemon.wait_for("the Notify call", |c| !c.is_empty());
    assert_eq!(
        calls,
        [Call::Notify {
            id: 7,
            app: "Warden".into(),
            summary: "Warden is waiting for your approval".into(),
            body: "Run: cargo test q1".into(),
            actions: vec!["default".into(), "Show in Warden".into()],
            urgency: 2,
        }]
    );
    notifier.withdraw("unknown");
    notifier.withdraw("q1");
    let calls = daemon.wait_for("the close", |c| c.len() == 2);
    assert_eq!(calls[1], Call::Close(7), "withdrawn by the daemon's id; an unknown key closes nothing");
}

#[test]
fn a_notification_nobody_settles_is_closed_when_its_question_times_out() {
    let bus = Bus::start();
    let daemon = Daemon::start(&bus);
    let notifier = Notifier::start(bus.connector(), no_clicks());
    notifier.show(notice("q1", Duration::from_millis(300)));
    let calls = daemon.wait_for("the close at the timeout", |c| c.len() == 2);
    assert_eq!(calls[1], Call::Close(7));
}

#[test]
fn a_click_reports_the_key_and_closes_the_notification() {
    let bus = Bus::start();
    let daemon = Daemon::start(&bus);
    let (tx, rx) = std::sync::mpsc::channel();
    let notifier = Notifier::start(
        bus.connector(),
        Box::new(move |key| {
            let _ = tx.send(key);
        }),
    );
    notifier.show(notice("first", LONG));
    notifier.show(notice("second", LONG));
    daemon.wait_for("two notifications", |c| c.len() == 2);
    daemon.click(8);
    let clicked = rx.recv_timeout(Duration::from_secs(10)).unwrap_or_else(|e| panic!("no click heard: {e}"));
    assert_eq!(clicked, "second");
    let calls = daemon.wait_for("the clicked one closed", |c| c.len() == 3);
    assert_eq!(calls[2], Call::Close(8));
    // A click on a notification Warden does not know is ignored.
    daemon.click(99);
    assert!(rx.recv_timeout(Duration::from_millis(500)).is_err());
}

#[test]
fn without_a_notification_daemon_showing_fails_quietly_and_soon() {
    let bus = Bus::start();
    let notifier = Notifier::start(bus.connector(), no_clicks());
    let started = Instant::now();
    notifier.show(notice("q1", LONG));
    notifier.withdraw("q1");
    assert!(started.elapsed() < Duration::from_secs(1), "show and withdraw never wait on the bus");
    // And a bus that cannot be reached at all: the thread ends, the notifier still answers.
    let gone = Notifier::start(|| Err(dbus::Error::new_failed("no bus")), no_clicks());
    gone.show(notice("q2", LONG));
    gone.withdraw("q2");
}
