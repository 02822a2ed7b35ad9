//! Warden's SSE decoder (`provider::sse`) against an independent one, the `eventsource-stream`
//! crate, as the oracle: random event streams — every field, comments, all three line endings,
//! missing and doubled spaces after the colon, fields without a colon, multi-line data, events
//! without data, a BOM, multi-byte characters — cut into reads at random byte positions (inside a
//! CRLF, inside a UTF-8 sequence, one byte at a time), both fed the same reads, and the
//! `(event, data)` sequences compared.
//!
//! What is compared, and why not more:
//! - Only `event` and `data`: Warden never reconnects a stream, so it ignores `id` and `retry`
//!   (they are still generated, to check they change nothing else).
//! - Only valid UTF-8 bodies: `eventsource-stream` ends the stream with an error on invalid UTF-8,
//!   while Warden decodes lossily (U+FFFD) and lets the JSON parser judge. Split points still fall
//!   inside multi-byte sequences.
//!
//! Two quirks of the oracle are worked around (on the oracle's side only), not copied:
//! - A leading BOM: `eventsource-stream` 0.2.3 strips it with `&string[1..]`, a byte slice inside
//!   the 3-byte U+FEFF, and panics. Its input has the BOM removed; Warden's keeps it (and must skip
//!   it, as WHATWG says). A body starting with two (a BOM, then a line starting with U+FEFF) is not
//!   generated: the oracle would panic on the second, which WHATWG keeps as part of the line.
//! - A body ending in a lone CR: `eventsource-stream` waits for a possible LF that never comes, so
//!   a blank line written as the final `\r` never dispatches its event. WHATWG counts a lone CR as
//!   a line end, and so does Warden; the oracle is given a trailing LF (CR LF is still one line
//!   end, so this adds no line).
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::convert::Infallible;

use futures::StreamExt;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use warden_core::provider::sse::{SseDecoder, SseEvent};

const SEED: u64 = 0x5EE_D1FF;
const CASES: usize = 4000;

/// Characters of values and names: ASCII, the colon and space that matter to the syntax, NUL and
/// tab, multi-byte characters of 2, 3 and 4 bytes, and the Unicode line separators and a BOM
/// (which must *not* end a line or be skipped in the middle of a stream).
const ALPHABET: &[&str] = &[
    "a", "b", "z", "0", "7", "{", "}", "\"", " ", ":", ": ", "\t", "\0", "é", "✓", "🌧", "\u{2028}", "\u{85}",
    "\u{FEFF}", "data", "event",
];

fn text(rng: &mut StdRng, max: usize) -> String {
    let len = rng.random_range(0..=max);
    (0..len).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())]).collect()
}

fn line_end(rng: &mut StdRng) -> &'static str {
    ["\n", "\r\n", "\r"][rng.random_range(0..3)]
}

/// One line (without its end).
fn line(rng: &mut StdRng) -> String {
    let field = match rng.random_range(0..100) {
        0..=39 => "data".to_owned(),
        40..=54 => "event".to_owned(),
        55..=59 => "id".to_owned(),
        60..=64 => "retry".to_owned(),
        65..=74 => return format!(":{}", text(rng, 8)), // a comment
        75..=89 => return String::new(),                // a blank line: dispatch
        90..=94 => {
            ["Data", " data", "data ", "dat", "eventx", "\u{FEFF}data"][rng.random_range(0..6)].to_owned()
        }
        _ => text(rng, 4).replace(':', ""),
    };
    let value = if field == "retry" && rng.random_bool(0.5) {
        rng.random_range(0..100_000u32).to_string()
    } else {
        text(rng, 12)
    };
    match rng.random_range(0..10) {
        0 => field,                          // no colon: the field with an empty value
        1 => format!("{field}:"),            // colon, nothing after it
        2..=4 => format!("{field}:{value}"), // no space
        5 => format!("{field}:  {value}"),   // two spaces: only one is stripped
        _ => format!("{field}: {value}"),
    }
}

fn body(rng: &mut StdRng) -> Vec<u8> {
    let mut body = String::new();
    for _ in 0..rng.random_range(0..40) {
        body.push_str(&line(rng));
        body.push_str(line_end(rng));
    }
    if rng.random_bool(0.2) {
        body.push_str(&line(rng)); // an unfinished last line
    }
    // A BOM, unless the first line already starts with U+FEFF (then that is the BOM): two would
    // make the oracle panic (quirk 1 on the BOM it does not strip).
    if rng.random_bool(0.1) && !body.starts_with('\u{FEFF}') {
        body.insert(0, '\u{FEFF}');
    }
    body.into_bytes()
}

/// Cut points: random ones, plus some right after a CR and inside multi-byte characters.
fn chunks(rng: &mut StdRng, body: &[u8]) -> Vec<Vec<u8>> {
    if body.is_empty() {
        return vec![Vec::new()];
    }
    if rng.random_bool(0.05) {
        return body.chunks(1).map(<[u8]>::to_vec).collect();
    }
    let mut cuts: Vec<usize> =
        (0..rng.random_range(0..8)).map(|_| rng.random_range(0..=body.len())).collect();
    for (i, &b) in body.iter().enumerate() {
        let inside_crlf = b == b'\r' && body.get(i + 1) == Some(&b'\n');
        let inside_utf8 = i > 0 && (b & 0xC0) == 0x80;
        if (inside_crlf && rng.random_bool(0.5)) || (inside_utf8 && rng.random_bool(0.2)) {
            cuts.push(if inside_crlf { i + 1 } else { i });
        }
    }
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut from = 0;
    for cut in cuts {
        out.push(body[from..cut].to_vec()); // empty reads too
        from = cut;
    }
    out.push(body[from..].to_vec());
    out
}

fn warden(chunks: &[Vec<u8>]) -> Vec<(String, String)> {
    let mut decoder = SseDecoder::new();
    let mut events: Vec<SseEvent> = Vec::new();
    for chunk in chunks {
        decoder.feed(chunk, &mut events).unwrap_or_else(|e| panic!("{e}"));
    }
    events.into_iter().map(|e| (e.event, e.data)).collect()
}

fn oracle(chunks: &[Vec<u8>]) -> Result<Vec<(String, String)>, String> {
    let mut chunks = chunks.to_vec();
    // Quirk 1 (see the module docs): the oracle panics on a BOM, so it gets the body without.
    let mut bom = 0;
    if chunks.concat().starts_with("\u{FEFF}".as_bytes()) {
        for chunk in &mut chunks {
            let n = chunk.len().min(3 - bom);
            chunk.drain(..n);
            bom += n;
        }
    }
    // Quirk 2: a final lone CR is a line end; tell the oracle so.
    if chunks.concat().ends_with(b"\r") {
        chunks.push(b"\n".to_vec());
    }
    let stream = eventsource_stream::EventStream::new(futures::stream::iter(
        chunks.into_iter().map(Ok::<_, Infallible>),
    ));
    let events: Vec<_> = futures::executor::block_on(stream.collect());
    events.into_iter().map(|e| e.map(|e| (e.event, e.data)).map_err(|e| e.to_string())).collect()
}

#[test]
fn warden_decodes_like_eventsource_stream() {
    let mut rng = StdRng::seed_from_u64(SEED);
    let (mut events, mut reads) = (0, 0);
    for case in 0..CASES {
        let body = body(&mut rng);
        let chunks = chunks(&mut rng, &body);
        let expected = oracle(&chunks).unwrap_or_else(|e| panic!("case {case}: the oracle failed: {e}"));
        let got = warden(&chunks);
        assert_eq!(
            got,
            expected,
            "case {case}: body {:?} in reads of {:?}",
            String::from_utf8_lossy(&body),
            chunks.iter().map(Vec::len).collect::<Vec<_>>()
        );
        events += got.len();
        reads += chunks.len();
    }
    eprintln!("{CASES} streams, {reads} reads, {events} events: the same");
    assert!(events > CASES, "the generator makes too few events to mean anything: {events}");
}

/// The oracle's quirks worked around above are real (if a later `eventsource-stream` fixes them,
/// the workarounds can go), and Warden follows WHATWG in both.
#[test]
fn the_oracles_quirks_are_what_the_docs_say() {
    let bom = "\u{FEFF}data: x\n\n".as_bytes().to_vec();
    let panicked = std::panic::catch_unwind(|| {
        let stream =
            eventsource_stream::EventStream::new(futures::stream::iter([Ok::<_, Infallible>(bom.clone())]));
        futures::executor::block_on(stream.collect::<Vec<_>>())
    });
    assert!(panicked.is_err(), "eventsource-stream no longer panics on a BOM");
    assert_eq!(warden(&[bom]), [("message".to_owned(), "x".to_owned())]);

    let lone_cr = b"data: x\r\r".to_vec();
    let stream =
        eventsource_stream::EventStream::new(futures::stream::iter([Ok::<_, Infallible>(lone_cr.clone())]));
    assert!(futures::executor::block_on(stream.collect::<Vec<_>>()).is_empty());
    assert_eq!(warden(&[lone_cr]), [("message".to_owned(), "x".to_owned())]);
}
