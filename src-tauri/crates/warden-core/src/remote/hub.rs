//! What an engine serving faces elsewhere holds across links: the live sessions (by conversation),
//! how many links are connected, and an engine for the requests that need no session (checkpoints,
//! the saved conversations).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use warden_protocol::Settings;

use super::live::Live;
use super::lock;
use crate::config::WardenHome;
use crate::engine::{Engine, KeySource};

/// How long a session whose turn ended with no link attached keeps its frames for a link to
/// collect.
const DEAD_KEPT: Duration = Duration::from_secs(600);

pub struct Hub {
    pub(super) home: WardenHome,
    live: Mutex<HashMap<String, (Arc<Live>, Instant)>>,
    links: AtomicUsize,
    next_link: AtomicU64,
    bare: tokio::sync::Mutex<Option<Arc<Engine>>>,
    /// When the hub last became idle (no link, no turn running); `None` while busy.
    idle_since: Mutex<Option<Instant>>,
    /// The sessions' questions waiting for the user's answer.
    pub(super) asks: Arc<super::asks::Waiting>,
}

impl Hub {
    pub fn new(home: WardenHome) -> Arc<Self> {
        // Once per engine there, as a local Warden does at its start: that machine's projects from
        // before the box changed say so over the link too.
        crate::engine::mark_projects_from_before(&home);
        Arc::new(Self {
            home,
            live: Mutex::default(),
            links: AtomicUsize::new(0),
            next_link: AtomicU64::new(1),
            bare: tokio::sync::Mutex::default(),
            idle_since: Mutex::new(Some(Instant::now())),
            asks: Arc::default(),
        })
    }

    /// A new link's number (the live sessions know which link they are attached to).
    pub(super) fn link_opened(&self) -> u64 {
        self.links.fetch_add(1, Ordering::SeqCst);
        *lock(&self.idle_since) = None;
        self.next_link.fetch_add(1, Ordering::SeqCst)
    }

    pub(super) fn link_closed(&self) {
        self.links.fetch_sub(1, Ordering::SeqCst);
        self.note_if_idle();
    }

    /// How long nothing has happened here: no link connected and no turn running.
    pub fn idle_for(&self) -> Option<Duration> {
        self.note_if_idle();
        lock(&self.idle_since).map(|since| since.elapsed())
    }

    fn note_if_idle(&self) {
        let busy = self.links.load(Ordering::SeqCst) > 0
            || lock(&self.live).values().any(|(live, _)| live.is_running());
        let mut idle = lock(&self.idle_since);
        match (busy, *idle) {
            (true, _) => *idle = None,
            (false, None) => *idle = Some(Instant::now()),
            (false, Some(_)) => {}
        }
    }

    /// Registers a session under its conversation; `false` when that conversation is already held.
    pub(super) fn hold(&self, conversation_id: &str, live: Arc<Live>) -> bool {
        let mut held = lock(&self.live);
        held.retain(|_, (live, since)| {
            live.session().is_some() || live.is_attached() || since.elapsed() < DEAD_KEPT
        });
        if held.get(conversation_id).is_some_and(|(live, _)| live.session().is_some()) {
            return false;
        }
        held.insert(conversation_id.to_owned(), (live, Instant::now()));
        true
    }

    pub(super) fn held(&self, conversation_id: &str) -> Option<Arc<Live>> {
        lock(&self.live).get(conversation_id).map(|(live, _)| live.clone())
    }

    pub(super) fn release(&self, conversation_id: &str) {
        lock(&self.live).remove(conversation_id);
    }

    /// The engine for requests without a session: default settings, no keys.
    pub(super) async fn bare_engine(&self) -> Arc<Engine> {
        let mut bare = self.bare.lock().await;
        bare.get_or_insert_with(|| {
            Arc::new(Engine::remote(self.home.clone(), Settings::default(), KeySource::Sent(Vec::new())))
        })
        .clone()
    }

    /// Whether any session still runs a turn (the engine must not stop what it started).
    pub fn any_running(&self) -> bool {
        lock(&self.live).values().any(|(live, _)| live.is_running())
    }
}
