//! Telling the faces how far a long look at the project's files has come: what a first
//! checkpoint waits for (`chat:snapshot`).

use std::future::Future;
use std::time::Duration;

use warden_protocol::{Event, SnapshotProgress};

use super::events::EventEmitter;
use crate::checkpoint::CheckpointStore;

/// How often progress is sent, and how long a look runs before the first report.
const EVERY: Duration = Duration::from_millis(500);

/// Wait for `work` (which takes a snapshot, or makes one wait for the store), sending
/// `chat:snapshot` while the store's full scan runs; `waiting_tool_id` names the call that waits.
/// A look shorter than half a second is not reported at all.
pub(crate) async fn reported<T>(
    store: &CheckpointStore,
    events: &EventEmitter,
    waiting_tool_id: Option<&str>,
    work: impl Future<Output = T>,
) -> T {
    reported_every(EVERY, store, events, waiting_tool_id, work).await
}

async fn reported_every<T>(
    every: Duration,
    store: &CheckpointStore,
    events: &EventEmitter,
    waiting_tool_id: Option<&str>,
    work: impl Future<Output = T>,
) -> T {
    let report = |files: u32, done: bool| {
        events.emit(Event::Snapshot(SnapshotProgress {
            conversation_id: events.conv(),
            files,
            done,
            stopped: store.scanning_stopped(),
            waiting_tool_id: waiting_tool_id.map(str::to_owned),
        }));
    };
    let mut work = std::pin::pin!(work);
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let mut last = None;
    let out = loop {
        tokio::select! {
            out = &mut work => break out,
            _ = ticks.tick() => {
                if let Some(files) = store.scanning() {
                    report(files, false);
                    last = Some(files);
                }
            }
        }
    };
    if let Some(files) = last {
        report(files, true);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::checkpoint::Origin;
    use crate::sandbox::Workspace;
    use crate::scope::Scope;

    /// A store over a project of `files` small files.
    fn store(files: usize) -> (tempfile::TempDir, tempfile::TempDir, Arc<CheckpointStore>) {
        let project = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        for n in 0..files {
            let dir = project.path().join(format!("d{}", n % 50));
            std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
            std::fs::write(dir.join(format!("f{n}")), format!("{n}\n")).unwrap_or_else(|e| panic!("{e}"));
        }
        let home = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let workspace = Workspace::new(project.path(), home.path().join("storage"), Scope::read_only())
            .unwrap_or_else(|e| panic!("{e}"));
        let store = CheckpointStore::open(&home.path().join("store"), Arc::new(workspace))
            .unwrap_or_else(|e| panic!("{e}"));
        (project, home, Arc::new(store))
    }

    /// A first checkpoint of a project of `files` files, reported every `every` (as `waiting`
    /// waits for it): whether it was taken, and every `chat:snapshot` sent.
    async fn first_checkpoint(
        files: usize,
        every: Duration,
        waiting: Option<&str>,
    ) -> (bool, Vec<SnapshotProgress>) {
        let (_project, _home, store) = store(files);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let events = EventEmitter::new("conv".into(), tx);
        let taking = {
            let store = store.clone();
            tokio::task::spawn_blocking(move || store.checkpoint(&Origin::default()))
        };
        let taken = reported_every(every, &store, &events, waiting, taking).await;
        let mut said = Vec::new();
        while let Ok(Event::Snapshot(progress)) = rx.try_recv() {
            said.push(progress);
        }
        (matches!(taken, Ok(Ok(_))), said)
    }

    #[tokio::test]
    async fn a_long_look_is_reported_with_the_call_that_waits_then_done() {
        let (taken, said) = first_checkpoint(3000, Duration::from_micros(200), Some("call-1")).await;
        assert!(taken);
        let (last, running) = said.split_last().unwrap_or_else(|| panic!("nothing was reported"));
        assert!(!running.is_empty(), "no progress while it ran: {said:?}");
        assert!(running.iter().all(|p| !p.done && p.waiting_tool_id.as_deref() == Some("call-1")));
        assert!(running.windows(2).all(|w| w[0].files <= w[1].files), "the count went back: {said:?}");
        assert!(last.done && !last.stopped && last.files > 0, "{last:?}");
    }

    #[tokio::test]
    async fn a_short_look_is_not_reported() {
        let (taken, said) = first_checkpoint(3, EVERY, None).await;
        assert!(taken);
        assert!(said.is_empty(), "a look under half a second was reported: {said:?}");
    }
}
