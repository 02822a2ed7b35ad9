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
    match warden_core::fuzzing::apply_patch_text(old, &patch) {
        Ok(applied) => assert_eq!(applied, new, "patch:\n{patch}"),
        Err(e) => panic!("a patch made by `similar` was refused: {e}\npatch:\n{patch}"),
    }
});
