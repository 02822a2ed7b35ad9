//! apply_patch round trip: the unified diff `similar` makes from any two texts, parsed and applied
//! to the first, gives exactly the second.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else { return };
    let Some((old, new)) = text.split_once('\u{0}') else { return };
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
});

/// Whether every hunk header's old and new line counts match the lines the hunk holds.
fn headers_agree(patch: &str) -> bool {
    let mut expected: Option<(usize, usize)> = None;
    let (mut old, mut new) = (0usize, 0usize);
    let check = |e: Option<(usize, usize)>, old: usize, new: usize| e.is_none_or(|e| e == (old, new));
    for line in patch.lines() {
        if let Some(header) = line.strip_prefix("@@ ") {
            if !check(expected, old, new) {
                return false;
            }
            let count = |range: &str| range.split_once(',').map_or(Some(1), |(_, n)| n.parse().ok());
            let mut parts = header.split_whitespace();
            let o = parts.next().and_then(|r| count(r.trim_start_matches('-')));
            let n = parts.next().and_then(|r| count(r.trim_start_matches('+')));
            let (Some(o), Some(n)) = (o, n) else { return false };
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
