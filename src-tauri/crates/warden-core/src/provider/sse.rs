//! An incremental Server-Sent Events decoder over raw bytes, following the WHATWG rules
//! (<https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>).
//!
//! Reads from the network end anywhere: mid-line, between a `\r` and its `\n`, inside a multi-byte
//! UTF-8 sequence. The decoder keeps the unconsumed bytes and a scan cursor, so each byte is looked
//! at once and only the tail of an unfinished line is ever moved: cost is linear in the body size.
//! Lines are split on bytes (`\n`, `\r\n`, lone `\r`) before any UTF-8 decoding, which is why
//! U+2028/U+2029 never end a line here.
//!
//! What it holds is bounded: an unfinished line, or the fields of one event, larger than
//! [`MAX_EVENT_BYTES`] stop the stream with [`EventTooLarge`] (a server that sends an endless line
//! would otherwise grow Warden's memory until the request's time ran out).

/// The most bytes one line, or the `data` and `event` fields of one event together, may hold. An
/// answer's events are small deltas; the largest honest one (a whole tool input some servers send
/// at once) is far below this.
pub const MAX_EVENT_BYTES: usize = 8 * 1024 * 1024;

/// A line or an event past the decoder's limit: nothing more is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "a line or event of the stream is larger than {} (Warden's limit), so the stream was stopped",
    super::http::size_in_words(*limit)
)]
pub struct EventTooLarge {
    pub limit: usize,
}

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field; `message` when the event named none.
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

#[derive(Debug)]
pub struct SseDecoder {
    buf: Vec<u8>,
    /// Bytes before `start` belong to lines already processed.
    start: usize,
    /// Where to continue looking for a line end; everything in `start..scan` has no line end.
    scan: usize,
    /// The previous line ended with `\r` as the last byte of a read: a `\n` first in the next read
    /// belongs to that line end.
    skip_lf: bool,
    /// Whether the optional byte-order mark at the very beginning has been dealt with.
    bom_checked: bool,
    event: String,
    data: String,
    has_data: bool,
    /// The most bytes of an unfinished line, or of one event's fields.
    limit: usize,
    /// The limit was passed: every later read is refused.
    too_large: bool,
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::with_limit(MAX_EVENT_BYTES)
    }
}

impl SseDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// A decoder that holds at most `limit` bytes of a line or an event (tests use small ones).
    pub fn with_limit(limit: usize) -> Self {
        Self {
            buf: Vec::new(),
            start: 0,
            scan: 0,
            skip_lf: false,
            bom_checked: false,
            event: String::new(),
            data: String::new(),
            has_data: false,
            limit,
            too_large: false,
        }
    }

    /// The bytes the decoder holds now (its buffers' capacity): at most about its limit plus
    /// one read, whatever the server sends.
    pub fn held_bytes(&self) -> usize {
        self.buf.capacity() + self.event.capacity() + self.data.capacity()
    }

    /// Feed the next read; complete events are appended to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<SseEvent>) -> Result<(), EventTooLarge> {
        self.feed_with(bytes, |event, data| {
            out.push(SseEvent { event: event.to_owned(), data: data.to_owned() });
        })
    }

    /// Feed the next read; `dispatch(event, data)` is called for each complete event, in order.
    /// The event's text is lent, not given: the decoder reuses its buffers, so a stream of many
    /// small events allocates nothing per event. A line or event past the limit is an error, and
    /// so is every read after it (the buffers are released).
    pub fn feed_with(
        &mut self,
        bytes: &[u8],
        mut dispatch: impl FnMut(&str, &str),
    ) -> Result<(), EventTooLarge> {
        if self.too_large {
            return Err(EventTooLarge { limit: self.limit });
        }
        let result = self.decode(bytes, &mut dispatch);
        if result.is_err() {
            self.too_large = true;
            self.buf = Vec::new();
            self.event = String::new();
            self.data = String::new();
        }
        result
    }

    fn decode(&mut self, bytes: &[u8], dispatch: &mut impl FnMut(&str, &str)) -> Result<(), EventTooLarge> {
        let mut bytes = bytes;
        if self.skip_lf && !bytes.is_empty() {
            self.skip_lf = false;
            if bytes[0] == b'\n' {
                bytes = &bytes[1..];
            }
        }
        self.buf.extend_from_slice(bytes);
        if !self.bom_checked {
            if self.buf.len() < 3 && b"\xEF\xBB\xBF".starts_with(&self.buf) {
                return Ok(());
            }
            self.bom_checked = true;
            if self.buf.starts_with(b"\xEF\xBB\xBF") {
                self.start = 3;
                self.scan = 3;
            }
        }
        loop {
            let Some(rel) = memchr::memchr2(b'\n', b'\r', &self.buf[self.scan..]) else {
                self.scan = self.buf.len();
                break;
            };
            let end = self.scan + rel;
            let mut next = end + 1;
            if self.buf[end] == b'\r' {
                match self.buf.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.skip_lf = true,
                }
            }
            let (start, line_end) = (self.start, end);
            self.start = next;
            self.scan = next;
            self.process_line(start, line_end, dispatch)?;
        }
        // Only the unfinished line is moved, never the bytes already consumed.
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.scan -= self.start;
            self.start = 0;
        }
        if self.buf.len() > self.limit {
            return Err(EventTooLarge { limit: self.limit });
        }
        Ok(())
    }

    fn process_line(
        &mut self,
        start: usize,
        end: usize,
        dispatch: &mut impl FnMut(&str, &str),
    ) -> Result<(), EventTooLarge> {
        let line = &self.buf[start..end];
        if line.len() > self.limit {
            return Err(EventTooLarge { limit: self.limit });
        }
        if line.is_empty() {
            self.dispatch(dispatch);
            return Ok(());
        }
        if line[0] == b':' {
            return Ok(());
        }
        let (field, value) = match memchr::memchr(b':', line) {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.has_data = true;
                push_utf8(&mut self.data, value);
            }
            b"event" => {
                self.event.clear();
                push_utf8(&mut self.event, value);
            }
            // `id` and `retry` only matter to reconnecting clients; we never reconnect a stream.
            _ => {}
        }
        // Many short `data:` lines make one long event.
        if self.data.len() + self.event.len() > self.limit {
            return Err(EventTooLarge { limit: self.limit });
        }
        Ok(())
    }

    fn dispatch(&mut self, dispatch: &mut impl FnMut(&str, &str)) {
        if self.has_data {
            let event = if self.event.is_empty() { "message" } else { self.event.as_str() };
            dispatch(event, &self.data);
        }
        self.event.clear();
        self.data.clear();
        self.has_data = false;
    }
}

/// Append bytes as text; invalid UTF-8 becomes U+FFFD (the JSON parser then rejects it if it matters).
fn push_utf8(target: &mut String, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(s) => target.push_str(s),
        Err(_) => target.push_str(&String::from_utf8_lossy(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        for chunk in chunks {
            decoder.feed(chunk, &mut out).unwrap_or_else(|e| panic!("{e}"));
        }
        out
    }

    /// Decode whole, and split at every single position, and one byte at a time: all must agree.
    fn decode_all_ways(body: &[u8]) -> Vec<SseEvent> {
        let whole = decode_in(&[body]);
        for split in 0..=body.len() {
            assert_eq!(decode_in(&[&body[..split], &body[split..]]), whole, "split at {split}");
        }
        let bytes: Vec<&[u8]> = body.chunks(1).collect();
        assert_eq!(decode_in(&bytes), whole, "one byte at a time");
        whole
    }

    fn ev(event: &str, data: &str) -> SseEvent {
        SseEvent { event: event.to_owned(), data: data.to_owned() }
    }

    #[test]
    fn all_three_line_endings_end_lines() {
        let events = decode_all_ways(b"data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\r\n\n");
        assert_eq!(
            events,
            vec![ev("message", "a"), ev("message", "b"), ev("message", "c"), ev("message", "d")]
        );
    }

    #[test]
    fn cr_at_the_end_of_a_read_followed_by_lf_is_one_line_end() {
        let events = decode_in(&[b"data: x\r", b"\n", b"\r", b"\ndata: y\n\n"]);
        assert_eq!(events, vec![ev("message", "x"), ev("message", "y")]);
    }

    #[test]
    fn unicode_line_separators_are_not_line_ends() {
        let body = "data: a\u{2028}b\u{2029}c\u{85}d\n\n".as_bytes();
        assert_eq!(decode_all_ways(body), vec![ev("message", "a\u{2028}b\u{2029}c\u{85}d")]);
    }

    #[test]
    fn multi_byte_utf8_split_anywhere_survives() {
        let body = "event: x\ndata: café ✓ 🌧\n\n".as_bytes();
        assert_eq!(decode_all_ways(body), vec![ev("x", "café ✓ 🌧")]);
    }

    #[test]
    fn multi_line_data_joins_with_newline() {
        let events = decode_all_ways(b"data: one\ndata:two\ndata:  three\n\n");
        assert_eq!(events, vec![ev("message", "one\ntwo\n three")]);
    }

    #[test]
    fn exactly_one_space_is_stripped() {
        assert_eq!(decode_all_ways(b"data:  x \n\n"), vec![ev("message", " x ")]);
        assert_eq!(decode_all_ways(b"event:  y\ndata:x\n\n"), vec![ev(" y", "x")]);
    }

    #[test]
    fn comments_and_unknown_fields_are_ignored() {
        let body = b": OPENROUTER PROCESSING\n\nfoo: bar\nid: 7\nretry: 10\ndata: x\n: mid comment\n\n";
        assert_eq!(decode_all_ways(body), vec![ev("message", "x")]);
    }

    #[test]
    fn an_event_without_data_dispatches_nothing_and_does_not_leak_its_name() {
        let events = decode_all_ways(b"event: ping\n\n\n\ndata: x\n\n");
        assert_eq!(events, vec![ev("message", "x")]);
    }

    #[test]
    fn empty_data_line_gives_an_empty_event_as_whatwg_says() {
        // Per WHATWG a `data:` line with nothing after it makes the data buffer "\n", which is not
        // empty, so an event with empty data is dispatched. Providers skip empty data themselves.
        assert_eq!(decode_all_ways(b"data:\n\n"), vec![ev("message", "")]);
    }

    #[test]
    fn nothing_is_dispatched_without_a_blank_line() {
        assert_eq!(decode_all_ways(b"data: x\n"), vec![]);
        assert_eq!(decode_all_ways(b"data: x"), vec![]);
    }

    #[test]
    fn field_without_colon_is_a_field_with_empty_value() {
        assert_eq!(decode_all_ways(b"data\ndata\n\n"), vec![ev("message", "\n")]);
    }

    #[test]
    fn leading_bom_is_skipped_even_when_split() {
        let body = b"\xEF\xBB\xBFdata: x\n\n";
        assert_eq!(decode_all_ways(body), vec![ev("message", "x")]);
    }

    #[test]
    fn invalid_utf8_does_not_panic() {
        let events = decode_all_ways(b"data: \xff\xfe\n\n");
        assert_eq!(events.len(), 1);
    }

    #[test]
    fn buffer_holds_only_the_unfinished_line() {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        for _ in 0..1000 {
            decoder.feed(b"data: 0123456789\n\n", &mut out).unwrap_or_else(|e| panic!("{e}"));
        }
        decoder.feed(b"data: par", &mut out).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.len(), 1000);
        assert_eq!(decoder.buf.len(), b"data: par".len());
    }

    #[test]
    fn an_endless_line_is_refused_at_the_limit_holding_no_more_than_it_and_one_read() {
        let mut decoder = SseDecoder::with_limit(1000);
        let mut out = Vec::new();
        decoder.feed(b"data: a\n\n", &mut out).unwrap_or_else(|e| panic!("{e}"));
        let read = [b'x'; 300];
        let mut refused = None;
        for n in 0..10 {
            match decoder.feed(&read, &mut out) {
                Ok(()) => assert!(decoder.held_bytes() <= 1000 + 2 * read.len(), "{}", decoder.held_bytes()),
                Err(e) => {
                    refused = Some((n, e));
                    break;
                }
            }
        }
        assert_eq!(out, vec![ev("message", "a")]);
        let (n, error) = refused.unwrap_or_else(|| panic!("never refused"));
        assert_eq!(n, 3, "refused once past 1000 bytes");
        assert!(error.to_string().contains("larger than 1000 bytes"), "{error}");
        assert_eq!(decoder.held_bytes(), 0, "the buffers are let go");
        assert!(decoder.feed(b"\n\n", &mut out).is_err(), "and it stays refused");
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn an_event_of_many_short_lines_is_refused_at_the_limit() {
        let mut decoder = SseDecoder::with_limit(1000);
        let mut out = Vec::new();
        let line = b"data: 0123456789\n";
        let fed = (0..200).take_while(|_| decoder.feed(line, &mut out).is_ok()).count();
        assert_eq!(fed, 91, "11 bytes of data a line: the 92nd passes 1000");
        assert!(out.is_empty());
        // Within the limit, one read holding a long line whole is fine.
        let mut decoder = SseDecoder::with_limit(1000);
        let body = format!("data: {}\n\n", "y".repeat(990));
        decoder.feed(body.as_bytes(), &mut out).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.len(), 1);
    }
}
