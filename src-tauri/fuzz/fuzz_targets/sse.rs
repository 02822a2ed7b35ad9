//! The SSE decoder, fed the input in pieces cut where the input says, against a plain reading of
//! the WHATWG algorithm over the whole body (the oracle below): the same events, always.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warden_core::provider::sse::{SseDecoder, SseEvent};

/// The WHATWG event-stream interpretation, written for clarity, not speed.
fn oracle(body: &[u8]) -> Vec<SseEvent> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let mut events = Vec::new();
    let (mut event, mut data, mut has_data) = (String::new(), String::new(), false);
    let mut i = 0;
    let mut line_start = 0;
    while i < body.len() {
        let end = match body[i] {
            b'\n' => i + 1,
            b'\r' if body.get(i + 1) == Some(&b'\n') => i + 2,
            b'\r' => i + 1,
            _ => {
                i += 1;
                continue;
            }
        };
        let line = &body[line_start..i];
        i = end;
        line_start = end;
        if line.is_empty() {
            if has_data {
                let name = if event.is_empty() { "message".to_owned() } else { std::mem::take(&mut event) };
                events.push(SseEvent { event: name, data: std::mem::take(&mut data) });
                has_data = false;
            }
            event.clear();
            continue;
        }
        if line[0] == b':' {
            continue;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(c) => (&line[..c], line[c + 1..].strip_prefix(b" ").unwrap_or(&line[c + 1..])),
            None => (line, &b""[..]),
        };
        let value = String::from_utf8_lossy(value);
        match field {
            b"data" => {
                if has_data {
                    data.push('\n');
                }
                data.push_str(&value);
                has_data = true;
            }
            b"event" => event = value.into_owned(),
            _ => {}
        }
    }
    events
}

fuzz_target!(|input: &[u8]| {
    // The first byte picks how the body is cut into reads.
    let Some((&cut, body)) = input.split_first() else { return };
    let step = usize::from(cut % 17) + 1;
    let mut decoder = SseDecoder::new();
    let mut got = Vec::new();
    for piece in body.chunks(step) {
        // Far below the decoder's limit: every piece is taken.
        assert!(decoder.feed(piece, &mut got).is_ok());
    }
    assert_eq!(got, oracle(body));
});
