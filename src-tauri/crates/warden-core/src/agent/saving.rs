//! Saving a session's conversation in the store as each message completes, and telling the face
//! when that fails (`chat:saving`) rather than only a log: the user must know the conversation is
//! not being kept.
//!
//! A message that cannot be saved (the disk full, the store busy past its wait) is kept in memory,
//! and every later save starts from the first message not saved, in order: the store never gets a
//! message after a gap, and once it takes messages again the conversation is whole in it (another
//! `chat:saving` says so). A compaction that could not be saved is saved after them. The store
//! itself refuses a message that does not follow what it holds ([`StoreError::Diverged`]), so a
//! session never writes over messages it did not read.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use warden_protocol::{Message, Role};

use super::events::{Counted, EventEmitter};
use crate::conversations::{Compaction, ConversationStore, StoreError};

/// Where a session's messages go.
pub(crate) struct Saver {
    store: Arc<ConversationStore>,
    conversation_id: String,
    project_root: Option<PathBuf>,
    /// The model the session's answers are written by.
    model: String,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The first message of the history not known to be saved: every one before it is.
    unsaved_from: usize,
    /// A compaction still to be saved (after the messages it covers).
    compaction: Option<Compaction>,
    /// Why saving fails, while it does (the face has been told).
    failing: Option<String>,
    /// What answers cost, by their place in the history, until noted in the store with them.
    counted: std::collections::BTreeMap<usize, Counted>,
}

impl Saver {
    pub fn new(
        store: Arc<ConversationStore>,
        conversation_id: String,
        project_root: Option<PathBuf>,
        model: String,
    ) -> Self {
        Self { store, conversation_id, project_root, model, state: Mutex::default() }
    }

    /// The history's first `saved` messages are those the store holds (a conversation continued
    /// from it).
    pub fn saved_up_to(&self, saved: usize) {
        self.lock().unsaved_from = saved;
    }

    /// The history changed from message `changed` on (a message added, or the last one grown):
    /// saves every message from the first one not saved to the end of `history`.
    pub fn save(&self, history: &Mutex<Vec<Message>>, changed: usize, events: &EventEmitter) {
        let mut state = self.lock();
        state.unsaved_from = state.unsaved_from.min(changed);
        let (from, pending) = {
            let history = history.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let from = state.unsaved_from.min(history.len());
            (from, history[from..].to_vec())
        };
        let result = self.put_all(from, &pending, &mut state);
        self.report(&mut state, result, events);
    }

    /// What the answer at `seq` of the history cost; noted in the store with it (now, when it is
    /// saved already, or when it is).
    pub fn count(&self, seq: usize, counted: Counted, events: &EventEmitter) {
        let mut state = self.lock();
        state.counted.insert(seq, counted);
        if seq < state.unsaved_from {
            let result = self.put_counts(&mut state);
            self.report(&mut state, result, events);
        }
    }

    /// Notes every count whose message is saved.
    fn put_counts(&self, state: &mut State) -> Result<(), StoreError> {
        let saved: Vec<usize> = state.counted.range(..state.unsaved_from).map(|(seq, _)| *seq).collect();
        for seq in saved {
            if let Some(counted) = state.counted.get(&seq) {
                self.store.put_usage(
                    &self.conversation_id,
                    seq,
                    counted.reported,
                    counted.estimated_context,
                )?;
            }
            state.counted.remove(&seq);
        }
        Ok(())
    }

    /// Records a compaction, after the messages before it are saved.
    pub fn save_compaction(&self, compaction: Compaction, events: &EventEmitter) {
        let mut state = self.lock();
        state.compaction = Some(compaction);
        // Only once the messages are all saved: the compaction stands for some of them.
        if state.failing.is_none() {
            let result = self.put_compaction(&mut state);
            self.report(&mut state, result, events);
        }
    }

    fn put_all(&self, from: usize, pending: &[Message], state: &mut State) -> Result<(), StoreError> {
        for (offset, message) in pending.iter().enumerate() {
            let seq = from + offset;
            let model = (message.role == Role::Assistant).then_some(self.model.as_str());
            let root = self.project_root.as_deref();
            if let Err(error) = self.store.put_message_by(&self.conversation_id, root, seq, message, model) {
                state.unsaved_from = seq;
                return Err(error);
            }
            state.unsaved_from = seq + 1;
        }
        self.put_counts(state)?;
        self.put_compaction(state)
    }

    fn put_compaction(&self, state: &mut State) -> Result<(), StoreError> {
        if let Some(compaction) = &state.compaction {
            self.store.add_compaction(&self.conversation_id, compaction)?;
            state.compaction = None;
        }
        Ok(())
    }

    /// Tells the face when saving starts failing, and when it works again.
    fn report(&self, state: &mut State, result: Result<(), StoreError>, events: &EventEmitter) {
        match (result, state.failing.is_some()) {
            (Ok(()), false) => {}
            (Ok(()), true) => {
                state.failing = None;
                tracing::info!("the conversation is saved again");
                events.saving(true, None);
            }
            (Err(error), was_failing) => {
                tracing::warn!(%error, "could not save the conversation");
                let reason = error.to_string();
                if !was_failing {
                    events.saving(false, Some(reason.clone()));
                }
                state.failing = Some(reason);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
