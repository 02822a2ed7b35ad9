//! apply_patch round trip: the unified diff `similar` makes from any two texts, parsed and applied
//! to the first, gives exactly the second — and so does the same diff with its hunk headers'
//! line counts rewritten to disagree with the hunks' bodies (a model miscounts them often; the
//! parser must place a hunk by its body and never trust the counts). Whatever the input, a patch
//! text given raw never panics.
//!
//! Input: `old \0 new`, optionally followed by `\0` and bytes that choose the counts written into
//! each hunk header (without them every count is off by one).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let mut parts = input.splitn(3, |&byte| byte == 0);
    let (Some(old), Some(new)) = (parts.next(), parts.next()) else { return };
    let counts = parts.next().unwrap_or_default();
    let (Ok(old), Ok(new)) = (std::str::from_utf8(old), std::str::from_utf8(new)) else { return };
    // Any text as a patch: refused or applied, never a panic.
    let _ = warden_core::fuzzing::apply_patch_text(old, new);
    if old == new || old.contains('\r') || new.contains('\r') {
        return;
    }
    let patch = similar::TextDiff::from_lines(old, new).unified_diff().header("a/f.txt", "b/f.txt").to_string();
    // On texts of identical lines `similar` can write a header whose counts disagree with the
    // hunk's own lines (`@@ -13,0 …` over three context lines); apply_patch places a hunk by its
    // context, searching outward from the header's line, so such a header may land it on another
    // run of identical lines. That is the oracle's fault, not the applier's: skip those.
    if !headers_agree(&patch) {
        return;
    }
    match warden_core::fuzzing::apply_patch_text(old, &patch) {
        Ok(applied) => assert_eq!(applied, new, "patch:\n{patch}"),
        Err(e) => panic!("a patch made by `similar` was refused: {e}\npatch:\n{patch}"),
    }
    let miscounted = miscount(&patch, counts);
    assert!(!headers_agree(&miscounted), "the counts were not changed:\n{miscounted}");
    match warden_core::fuzzing::apply_patch_text(old, &miscounted) {
        Ok(applied) => assert_eq!(applied, new, "miscounted patch:\n{miscounted}"),
        Err(e) => panic!("a patch whose hunk headers miscount their lines was refused: {e}\npatch:\n{miscounted}"),
    }
});

/// `patch` with each hunk header's old and new line counts replaced by the next bytes of `counts`
/// (255 drops the count, which then means 1), or by the true count plus one when `counts` is
/// empty. The start lines stay. The first hunk's old count always ends up wrong.
fn miscount(patch: &str, counts: &[u8]) -> String {
    let mut knobs = counts.iter().copied().cycle();
    let mut out = String::with_capacity(patch.len() + 64);
    let mut first = true;
    for line in patch.split_inclusive('\n') {
        let Some(((old_start, old_count), (new_start, new_count))) = header_ranges(line) else {
            out.push_str(line);
            continue;
        };
        let mut range = |sign: char, start: usize, true_count: usize, must_differ: bool| {
            let written = match knobs.next() {
                None => Some(true_count + 1),
                Some(255) => None,
                Some(byte) => Some(usize::from(byte)),
            };
            let written = if must_differ && written.unwrap_or(1) == true_count { Some(true_count + 1) } else { written };
            match written {
                Some(count) => format!("{sign}{start},{count}"),
                None => format!("{sign}{start}"),
            }
        };
        let old_range = range('-', old_start, old_count, first);
        let new_range = range('+', new_start, new_count, false);
        out.push_str(&format!("@@ {old_range} {new_range} @@\n"));
        first = false;
    }
    out
}

/// The `(start, count)` of the old and the new side of a hunk header line.
fn header_ranges(line: &str) -> Option<((usize, usize), (usize, usize))> {
    let header = line.strip_prefix("@@ ")?;
    let mut parts = header.split_whitespace();
    let range = |part: Option<&str>, sign: char| -> Option<(usize, usize)> {
        let range = part?.strip_prefix(sign)?;
        match range.split_once(',') {
            Some((start, count)) => Some((start.parse().ok()?, count.parse().ok()?)),
            None => Some((range.parse().ok()?, 1)),
        }
    };
    Some((range(parts.next(), '-')?, range(parts.next(), '+')?))
}

/// Whether every hunk header's old and new line counts match the lines the hunk holds.
fn headers_agree(patch: &str) -> bool {
    let mut expected: Option<(usize, usize)> = None;
    let (mut old, mut new) = (0usize, 0usize);
    let check = |e: Option<(usize, usize)>, old: usize, new: usize| e.is_none_or(|e| e == (old, new));
    for line in patch.lines() {
        if line.starts_with("@@ ") {
            if !check(expected, old, new) {
                return false;
            }
            let Some(((_, o), (_, n))) = header_ranges(line) else { return false };
            expected = Some((o, n));
            (old, new) = (0, 0);
        } else if expected.is_some() {
            match line.as_bytes().first() {
                Some(b' ') => {
                    old += 1;
                    new += 1;
                }
                Some(b'-') => old += 1,
                Some(b'+') => new += 1,
                _ => {}
            }
        }
    }
    check(expected, old, new)
}
