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
    /// Whether the body held anything but comment lines (`: ping`) and blank lines.
    pub fields_seen: bool,
    /// Whether an event with data was handed to the provider's handler: the body is the
    /// provider's stream (and one that ends early was cut off), not some other page.
    pub events_seen: bool,
    /// Whether the next byte starts a line (lines are split across reads).
    mid_line: bool,
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

    /// The error of a body that ends before the terminator: [`ProviderError::cut_off`] once the
    /// provider's events came (see [`not_a_stream`] for a body that held none).
    fn ended_early(&self) -> ProviderError;

    /// Handle one event's data. Set `feed_state().finished` at the terminator.
    fn handle_data(&mut self, data: &str, out: &mut VecDeque<ChunkResult>) -> Result<(), ProviderError>;

    /// Feed the next read: decode its events and handle them in order.
    fn feed_sse(&mut self, bytes: &[u8], out: &mut VecDeque<ChunkResult>) {
        if self.feed_state().is_done() {
            return;
        }
        note_fields(self.feed_state(), bytes);
        // Taken out so the handler may borrow `self` while the decoder lends it each event; put
        // back afterwards to keep its buffers.
        let mut decoder = std::mem::take(&mut self.feed_state().decoder);
        let decoded = decoder.feed_with(bytes, |_event, data| {
            if data.is_empty() || self.feed_state().is_done() {
                return;
            }
            self.feed_state().events_seen = true;
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

/// The error of a body that held lines but no event: not the provider's stream at all (an HTML
/// page, a proxy's message), so not an answer that was cut off and not sent again.
pub(crate) fn not_a_stream(who: &str, feed: &SseFeed) -> Option<ProviderError> {
    (feed.fields_seen && !feed.events_seen).then(|| {
        ProviderError::invalid_response(format!(
            "{who} answered with something that is not a stream of its answer. Check the base URL in Settings."
        ))
        .with_detail("the body ended without one event that has data")
    })
}

/// Whether `bytes` start a line that is neither a comment nor blank (see [`SseFeed::fields_seen`]).
fn note_fields(feed: &mut SseFeed, bytes: &[u8]) {
    for &byte in bytes {
        if feed.fields_seen {
            return;
        }
        match (feed.mid_line, byte) {
            (_, b'\n' | b'\r') => feed.mid_line = false,
            (false, b':') => feed.mid_line = true,
            (false, _) => feed.fields_seen = true,
            (true, _) => {}
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
            out.push_back(Err(self.ended_early()));
        }
    }
}
