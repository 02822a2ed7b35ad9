//! How one search runs: the walk (by handle, see `walk.rs`) and the search share the threads the way
//! ripgrep's do. The walking thread gathers the files it meets in batches and queues them for the
//! helper threads; when the queue is full it searches the next batch itself, and once the walk is
//! over it helps empty the queue. So on two cores two threads search, none waits on another per
//! file, and a thread takes a lock once per batch, never per file.
//!
//! Every file is opened from its folder's verified handle by its single name, refusing a symlink and
//! anything but a regular file ([`Entry::open`]): no path string is followed.

use std::fs::File;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, TrySendError};
use std::sync::Mutex;

use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use ignore::overrides::Override;
use tokio_util::sync::CancellationToken;

use super::{Found, SearchOutputMode, MAX_LINE_BYTES};
use crate::sandbox::{ResolvedPath, SandboxError, Workspace};
use crate::tool::walk::{walk, Entry, WalkOptions};

/// Files handed from the walk to a search thread at once: one hand-off, and one look at the
/// cancellation token, per batch rather than per file.
const BATCH: usize = 32;
/// Batches waiting for a helper thread: 256 files, enough to keep a helper busy while the walking
/// thread is off the CPU for a while, and (each queued file holds its folder's handle) no more
/// folder handles held open than one queued file each had before.
const QUEUED_BATCHES: usize = 8;
/// Most threads a search uses, the walking one included (ripgrep's default cap).
const MAX_THREADS: usize = 12;

/// One search: what is searched for, how much is reported, and the totals every thread adds to.
pub(super) struct Search<'a> {
    matcher: RegexMatcher,
    mode: SearchOutputMode,
    max: u64,
    cancel: &'a CancellationToken,
    found: Mutex<Vec<Found>>,
    reported: AtomicU64,
    matches: AtomicU64,
    files_matched: AtomicU64,
    files_searched: AtomicU64,
    capped: AtomicBool,
}

/// What a search found, once every thread is done.
pub(super) struct Totals {
    pub found: Vec<Found>,
    pub matches: u64,
    pub files_matched: u64,
    pub files_searched: u64,
    pub capped: bool,
}

impl<'a> Search<'a> {
    pub fn new(
        matcher: RegexMatcher,
        mode: SearchOutputMode,
        max: u64,
        cancel: &'a CancellationToken,
    ) -> Self {
        Self {
            matcher,
            mode,
            max,
            cancel,
            found: Mutex::new(Vec::new()),
            reported: AtomicU64::new(0),
            matches: AtomicU64::new(0),
            files_matched: AtomicU64::new(0),
            files_searched: AtomicU64::new(0),
            capped: AtomicBool::new(false),
        }
    }

    /// Search one file the caller opened, shown as `shown`.
    pub fn file(&self, file: &File, shown: &str) {
        let mut worker = Worker::new(self);
        worker.search_file(file, || shown.to_owned());
        worker.finish();
    }

    /// Search every file under the directory `start`: walked on this thread, searched by it and the
    /// helper threads.
    pub fn tree(
        &self,
        workspace: &Workspace,
        start: &ResolvedPath,
        overrides: Option<Override>,
    ) -> Result<(), SandboxError> {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(MAX_THREADS);
        let helpers = threads.saturating_sub(1).max(1);
        let (queue, batches) = sync_channel::<Vec<Entry>>(QUEUED_BATCHES);
        let batches = Mutex::new(batches);
        std::thread::scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|| Worker::new(self).drain(&batches));
            }
            let mut own = Worker::new(self);
            let walked = self.walk_files(workspace, start, overrides, |batch| {
                if let Err(TrySendError::Full(batch) | TrySendError::Disconnected(batch)) =
                    queue.try_send(batch)
                {
                    own.search_batch(batch);
                }
            });
            drop(queue);
            own.drain(&batches);
            walked
        })
    }

    /// Walk `start` and hand its regular files to `hand_off` in batches, until the walk ends or the
    /// result cap makes the rest pointless.
    fn walk_files(
        &self,
        workspace: &Workspace,
        start: &ResolvedPath,
        overrides: Option<Override>,
        mut hand_off: impl FnMut(Vec<Entry>),
    ) -> Result<(), SandboxError> {
        let options = WalkOptions { include_hidden: false, max_depth: None, overrides, skip_git: false };
        let mut batch = Vec::with_capacity(BATCH);
        let walked = walk(workspace, start, &options, self.cancel, |entry| {
            if self.is_capped() {
                return ControlFlow::Break(());
            }
            if entry.file_type.is_file() {
                batch.push(entry);
                if batch.len() == BATCH {
                    hand_off(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)));
                }
            }
            ControlFlow::Continue(())
        });
        if !batch.is_empty() {
            hand_off(batch);
        }
        walked
    }

    /// Whether enough was found that searching on cannot change what is reported (counting always
    /// goes on: its totals are exact).
    fn is_capped(&self) -> bool {
        self.mode != SearchOutputMode::Count && self.capped.load(Ordering::Relaxed)
    }

    /// The totals, once the threads that added to them are done.
    pub fn finish(self) -> Totals {
        Totals {
            found: self.found.into_inner().unwrap_or_default(),
            matches: self.matches.into_inner(),
            files_matched: self.files_matched.into_inner(),
            files_searched: self.files_searched.into_inner(),
            capped: self.capped.into_inner(),
        }
    }
}

/// One search thread's own state: its reusable searcher and the hits it found, added to the
/// search's list once, when the thread is done.
struct Worker<'s, 'a> {
    search: &'s Search<'a>,
    searcher: Searcher,
    found: Vec<Found>,
}

impl<'s, 'a> Worker<'s, 'a> {
    fn new(search: &'s Search<'a>) -> Self {
        let searcher = SearcherBuilder::new()
            .binary_detection(BinaryDetection::quit(b'\x00'))
            .line_number(search.mode == SearchOutputMode::Content)
            .build();
        Self { search, searcher, found: Vec::new() }
    }

    /// Search queued batches until the walk is over and the queue is empty, then hand the hits over.
    fn drain(mut self, batches: &Mutex<Receiver<Vec<Entry>>>) {
        loop {
            let next = match batches.lock() {
                Ok(batches) => batches.recv(),
                Err(_) => break,
            };
            let Ok(batch) = next else { break };
            self.search_batch(batch);
        }
        self.finish();
    }

    fn search_batch(&mut self, batch: Vec<Entry>) {
        if self.search.cancel.is_cancelled() {
            return;
        }
        for entry in batch {
            if self.search.is_capped() {
                return;
            }
            // From the folder's handle, by its one name; a regular file or nothing.
            let Ok(file) = entry.open() else { continue };
            self.search_file(&file, || entry.display());
        }
    }

    /// Search one open file; `shown` names it, asked only when it has a match.
    fn search_file(&mut self, file: &File, shown: impl FnOnce() -> String) {
        let search = self.search;
        search.files_searched.fetch_add(1, Ordering::Relaxed);
        let room = search.max.saturating_sub(search.reported.load(Ordering::Relaxed));
        let mut sink = FileSink { mode: search.mode, count: 0, lines: Vec::new(), binary: false, room };
        let searched = self.searcher.search_file(&search.matcher, file, &mut sink);
        if searched.is_ok() && !sink.binary && sink.count > 0 {
            self.record(sink, shown());
        }
    }

    /// Add what one file contributed, within the result cap.
    fn record(&mut self, sink: FileSink, path: String) {
        let search = self.search;
        search.matches.fetch_add(sink.count, Ordering::Relaxed);
        search.files_matched.fetch_add(1, Ordering::Relaxed);
        let listed = match search.mode {
            SearchOutputMode::Content => sink.lines.len() as u64,
            SearchOutputMode::Files | SearchOutputMode::Count => 1,
        };
        let before = search.reported.fetch_add(listed, Ordering::Relaxed);
        let keep = search.max.saturating_sub(before).min(listed);
        let unlisted = search.mode == SearchOutputMode::Content && sink.count > sink.lines.len() as u64;
        if unlisted || keep < listed {
            search.capped.store(true, Ordering::Relaxed);
        }
        if keep == 0 {
            return;
        }
        match search.mode {
            SearchOutputMode::Content => {
                let lines = sink.lines.into_iter().take(usize::try_from(keep).unwrap_or(usize::MAX));
                self.found.extend(lines.map(|(line, text)| Found::Line { path: path.clone(), line, text }));
            }
            SearchOutputMode::Files => self.found.push(Found::File { path }),
            SearchOutputMode::Count => self.found.push(Found::Count { path, count: sink.count }),
        }
    }

    fn finish(self) {
        if let Ok(mut found) = self.search.found.lock() {
            found.extend(self.found);
        }
    }
}

/// Collects one file's matches.
struct FileSink {
    mode: SearchOutputMode,
    count: u64,
    /// Content mode: the line number and text of each match, at most `room` of them.
    lines: Vec<(u64, String)>,
    binary: bool,
    room: u64,
}

impl Sink for FileSink {
    type Error = std::io::Error;

    fn matched(&mut self, _searcher: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        self.count += 1;
        match self.mode {
            SearchOutputMode::Files => Ok(false),
            SearchOutputMode::Count => Ok(true),
            SearchOutputMode::Content => {
                if (self.lines.len() as u64) < self.room {
                    self.lines.push((mat.line_number().unwrap_or(0), shown_line(mat.bytes())));
                }
                Ok(true)
            }
        }
    }

    fn binary_data(&mut self, _searcher: &Searcher, _offset: u64) -> Result<bool, std::io::Error> {
        // Like ripgrep: a file found to be binary while walking counts as having no matches.
        self.binary = true;
        Ok(false)
    }
}

/// A matching line as reported: without its line ending, cut to [`MAX_LINE_BYTES`].
fn shown_line(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let cut = &bytes[..bytes.len().min(MAX_LINE_BYTES)];
    let mut text = String::from_utf8_lossy(cut).into_owned();
    if cut.len() < bytes.len() {
        text.push_str(" […]");
    }
    text
}
