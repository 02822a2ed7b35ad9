//! An incremental newline-delimited JSON splitter over raw bytes (Ollama's `/api/chat`).
//!
//! Reads end anywhere, so bytes are buffered and a line is handed out only once its `\n` arrived.
//! Like the SSE decoder it keeps a scan cursor and moves only the unfinished tail: linear cost.

#[derive(Debug, Default)]
pub struct NdjsonSplitter {
    buf: Vec<u8>,
    scan: usize,
}

impl NdjsonSplitter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed the next read and call `on_line` for each complete, non-blank line (without its
    /// `\n` or `\r\n` and surrounding whitespace).
    pub fn feed(&mut self, bytes: &[u8], mut on_line: impl FnMut(&[u8])) {
        self.buf.extend_from_slice(bytes);
        let mut start = 0;
        while let Some(rel) = memchr::memchr(b'\n', &self.buf[self.scan..]) {
            let end = self.scan + rel;
            let line = trim_line(&self.buf[start..end]);
            if !line.is_empty() {
                on_line(line);
            }
            start = end + 1;
            self.scan = start;
        }
        // The remainder has no line end: never look at it again, and move only it.
        self.scan = self.buf.len() - start;
        if start > 0 {
            self.buf.drain(..start);
        }
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
            s.feed(chunk, |l| lines.push(String::from_utf8_lossy(l).into_owned()));
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
}
