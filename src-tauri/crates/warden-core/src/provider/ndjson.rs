//! An incremental newline-delimited JSON splitter over raw bytes (Ollama's `/api/chat`).
//!
//! Reads end anywhere, so bytes are buffered and a line is handed out only once its `\n` arrived.
//! Like the SSE decoder it keeps a scan cursor and moves only the unfinished tail: linear cost.
//! A line longer than [`MAX_LINE_BYTES`] stops the stream ([`LineTooLarge`]), so an endless line
//! cannot grow Warden's memory.

/// The most bytes of one line (the same bound as an SSE event: [`super::sse::MAX_EVENT_BYTES`]).
pub const MAX_LINE_BYTES: usize = super::sse::MAX_EVENT_BYTES;

/// A line past the splitter's limit: nothing more is split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "a line of the stream is larger than {} (Warden's limit), so the stream was stopped",
    super::http::size_in_words(*limit)
)]
pub struct LineTooLarge {
    pub limit: usize,
}

#[derive(Debug)]
pub struct NdjsonSplitter {
    buf: Vec<u8>,
    scan: usize,
    limit: usize,
    /// The limit was passed: every later read is refused.
    too_large: bool,
}

impl Default for NdjsonSplitter {
    fn default() -> Self {
        Self::with_limit(MAX_LINE_BYTES)
    }
}

impl NdjsonSplitter {
    pub fn new() -> Self {
        Self::default()
    }

    /// A splitter that holds at most `limit` bytes of a line (tests use small ones).
    pub fn with_limit(limit: usize) -> Self {
        Self { buf: Vec::new(), scan: 0, limit, too_large: false }
    }

    /// The bytes the splitter holds now (its buffer's capacity).
    pub fn held_bytes(&self) -> usize {
        self.buf.capacity()
    }

    /// Feed the next read and call `on_line` for each complete, non-blank line (without its
    /// `\n` or `\r\n` and surrounding whitespace). A line past the limit is an error, and so is
    /// every read after it (the buffer is released).
    pub fn feed(&mut self, bytes: &[u8], mut on_line: impl FnMut(&[u8])) -> Result<(), LineTooLarge> {
        if self.too_large {
            return Err(LineTooLarge { limit: self.limit });
        }
        self.buf.extend_from_slice(bytes);
        let mut start = 0;
        let mut result = Ok(());
        while let Some(rel) = memchr::memchr(b'\n', &self.buf[self.scan..]) {
            let end = self.scan + rel;
            if end - start > self.limit {
                result = Err(LineTooLarge { limit: self.limit });
                break;
            }
            let line = trim_line(&self.buf[start..end]);
            if !line.is_empty() {
                on_line(line);
            }
            start = end + 1;
            self.scan = start;
        }
        if result.is_ok() && self.buf.len() - start > self.limit {
            result = Err(LineTooLarge { limit: self.limit });
        }
        if result.is_err() {
            self.too_large = true;
            self.buf = Vec::new();
            self.scan = 0;
            return result;
        }
        // The remainder has no line end: never look at it again, and move only it.
        self.scan = self.buf.len() - start;
        if start > 0 {
            self.buf.drain(..start);
        }
        Ok(())
    }

    /// Bytes of an unfinished last line (a body must end with `\n` to be complete).
    pub fn remainder(&self) -> &[u8] {
        trim_line(&self.buf)
    }
}

fn trim_line(line: &[u8]) -> &[u8] {
    let mut line = line;
    while let [rest @ .., last] = line {
        if last.is_ascii_whitespace() {
            line = rest;
        } else {
            break;
        }
    }
    while let [first, rest @ ..] = line {
        if first.is_ascii_whitespace() {
            line = rest;
        } else {
            break;
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> (Vec<String>, String) {
        let mut s = NdjsonSplitter::new();
        let mut lines = Vec::new();
        for chunk in chunks {
            s.feed(chunk, |l| lines.push(String::from_utf8_lossy(l).into_owned()))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        (lines, String::from_utf8_lossy(s.remainder()).into_owned())
    }

    #[test]
    fn lines_split_anywhere_come_out_whole() {
        let body = "{\"a\":\"café\"}\r\n\n{\"b\":2}\n{\"c\"".as_bytes();
        let whole = split(&[body]);
        assert_eq!(whole.0, vec!["{\"a\":\"café\"}", "{\"b\":2}"]);
        assert_eq!(whole.1, "{\"c\"");
        for i in 0..=body.len() {
            assert_eq!(split(&[&body[..i], &body[i..]]), whole, "split at {i}");
        }
        let bytes: Vec<&[u8]> = body.chunks(1).collect();
        assert_eq!(split(&bytes), whole);
    }

    #[test]
    fn an_endless_line_is_refused_at_the_limit_holding_no_more_than_it_and_one_read() {
        let mut s = NdjsonSplitter::with_limit(1000);
        let mut lines = 0;
        s.feed(b"{\"a\":1}\n", |_| lines += 1).unwrap_or_else(|e| panic!("{e}"));
        let read = [b'x'; 300];
        let mut refused = None;
        for n in 0..10 {
            match s.feed(&read, |_| lines += 1) {
                Ok(()) => assert!(s.held_bytes() <= 1000 + 2 * read.len(), "{} bytes", s.held_bytes()),
                Err(e) => {
                    refused = Some((n, e));
                    break;
                }
            }
        }
        assert_eq!(lines, 1);
        let (n, error) = refused.unwrap_or_else(|| panic!("never refused"));
        assert_eq!(n, 3, "refused once past 1000 bytes");
        assert!(error.to_string().contains("larger than 1000 bytes"), "{error}");
        assert_eq!(s.held_bytes(), 0, "the buffer is let go");
        assert!(s.feed(b"\n", |_| lines += 1).is_err(), "and stays refused");
        // A long line inside one read, with its newline, is refused too.
        let mut s = NdjsonSplitter::with_limit(10);
        assert!(s.feed(b"{\"long\":\"0123456789\"}\n", |_| lines += 1).is_err());
        assert_eq!(lines, 1);
    }
}
