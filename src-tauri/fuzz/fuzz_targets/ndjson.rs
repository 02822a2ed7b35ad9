//! The NDJSON splitter, fed in pieces, against splitting the whole body on `\n`: the same lines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warden_core::provider::ndjson::NdjsonSplitter;

fn trim(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &line[start..end.max(start)]
}

fuzz_target!(|input: &[u8]| {
    let Some((&cut, body)) = input.split_first() else { return };
    let step = usize::from(cut % 13) + 1;
    let mut splitter = NdjsonSplitter::new();
    let mut got: Vec<Vec<u8>> = Vec::new();
    for piece in body.chunks(step) {
        assert!(splitter.feed(piece, |line| got.push(line.to_vec())).is_ok());
    }
    let complete = match body.iter().rposition(|&b| b == b'\n') {
        Some(last) => &body[..last],
        None => &body[..0],
    };
    let want: Vec<Vec<u8>> = if body.contains(&b'\n') {
        complete.split(|&b| b == b'\n').map(trim).filter(|l| !l.is_empty()).map(<[u8]>::to_vec).collect()
    } else {
        Vec::new()
    };
    assert_eq!(got, want);
    let tail = body.iter().rposition(|&b| b == b'\n').map_or(body, |last| &body[last + 1..]);
    assert_eq!(splitter.remainder(), trim(tail));
});
