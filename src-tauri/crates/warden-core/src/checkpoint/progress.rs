//! How far a full scan has come, for the faces, and the user's stop.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

#[derive(Debug, Default)]
pub(super) struct ScanProgress {
    running: AtomicBool,
    files: AtomicU32,
    /// The user stopped a scan: no scan runs in this store again.
    stopped: AtomicBool,
}

impl ScanProgress {
    /// A full scan begins; it ends when the guard is dropped.
    pub fn begin(&self) -> Running<'_> {
        self.files.store(0, Ordering::Relaxed);
        self.running.store(true, Ordering::Release);
        Running(self)
    }

    /// One more file looked at.
    pub fn file(&self) {
        self.files.fetch_add(1, Ordering::Relaxed);
    }

    /// Files looked at by the scan running now; `None` when none runs.
    pub fn running(&self) -> Option<u32> {
        self.running.load(Ordering::Acquire).then(|| self.files.load(Ordering::Relaxed))
    }

    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
    }

    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

/// A full scan running.
pub(super) struct Running<'a>(&'a ScanProgress);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.running.store(false, Ordering::Release);
    }
}
