//! The part every SSE provider decoder shares: decode the bytes into events and hand each event's
//! data to the provider's own handler, stopping at the first error or at the terminator.

use std::collections::VecDeque;

use super::sse::SseDecoder;
use super::transport::{ChunkResult, WireDecoder};
use super::ProviderError;

/// The SSE side of a decoder: the byte-level decoder and how the stream stands.
#[derive(Debug, Default)]
pub(crate) struct SseFeed {
    decoder: SseDecoder,
    /// The provider's terminator was seen.
    pub finished: bool,
    /// An error was reported; nothing more is read.
    pub failed: bool,
}

impl SseFeed {
    pub fn is_done(&self) -> bool {
        self.finished || self.failed
    }
}

/// A decoder whose wire format is SSE events carrying JSON data. Every such decoder is a
/// [`WireDecoder`] through the impl below.
pub(crate) trait SseEvents: Send + 'static {
    fn feed_state(&mut self) -> &mut SseFeed;

    fn feed_state_ref(&self) -> &SseFeed;

    /// What went missing when the body ends before the terminator, in words for the user.
    fn ended_early(&self) -> String;

    /// Handle one event's data. Set `feed_state().finished` at the terminator.
    fn handle_data(&mut self, data: &str, out: &mut VecDeque<ChunkResult>) -> Result<(), ProviderError>;

    /// Feed the next read: decode its events and handle them in order.
    fn feed_sse(&mut self, bytes: &[u8], out: &mut VecDeque<ChunkResult>) {
        if self.feed_state().is_done() {
            return;
        }
        // Taken out so the handler may borrow `self` while the decoder lends it each event; put
        // back afterwards to keep its buffers.
        let mut decoder = std::mem::take(&mut self.feed_state().decoder);
        let decoded = decoder.feed_with(bytes, |_event, data| {
            if data.is_empty() || self.feed_state().is_done() {
                return;
            }
            if let Err(error) = self.handle_data(data, out) {
                out.push_back(Err(error));
                self.feed_state().failed = true;
            }
        });
        self.feed_state().decoder = decoder;
        if let Err(too_large) = decoded {
            if !self.feed_state().is_done() {
                out.push_back(Err(ProviderError::invalid_response(format!(
                    "The answer could not be read: {too_large}."
                ))));
                self.feed_state().failed = true;
            }
        }
    }
}

impl<T: SseEvents> WireDecoder for T {
    fn feed(&mut self, bytes: &[u8], out: &mut VecDeque<ChunkResult>) {
        self.feed_sse(bytes, out);
    }

    fn is_finished(&self) -> bool {
        self.feed_state_ref().is_done()
    }

    fn finish(&mut self, out: &mut VecDeque<ChunkResult>) {
        if !self.is_finished() {
            out.push_back(Err(ProviderError::invalid_response(self.ended_early())));
        }
    }
}
