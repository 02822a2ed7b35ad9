//! Applying the hunks of one file to its text. Hunks are placed by their context, searched outward
//! from the line their header names (so wrong line numbers are tolerated), first exactly, then
//! ignoring trailing whitespace. Every hunk must apply, or the file is rejected with a reason per hunk.

use super::parse::{Hunk, HunkLine};

struct Lines<'a> {
    lines: Vec<&'a str>,
    ends_with_newline: bool,
    crlf: bool,
}

fn split(text: &str) -> Lines<'_> {
    if text.is_empty() {
        return Lines { lines: Vec::new(), ends_with_newline: true, crlf: false };
    }
    let ends_with_newline = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<&str> = body.split('\n').collect();
    let crlf = lines.iter().filter(|l| l.ends_with('\r')).count() * 2 > lines.len();
    Lines { lines, ends_with_newline, crlf }
}

fn same(file_line: &str, patch_line: &str, loose: bool) -> bool {
    let file_line = file_line.strip_suffix('\r').unwrap_or(file_line);
    if loose {
        file_line.trim_end() == patch_line.trim_end()
    } else {
        file_line == patch_line
    }
}

/// How many line comparisons placing the hunks of one patch may make. The search is outward from
/// the hinted line and stops at the first match, so a patch made from the file costs a handful per
/// hunk, and one whose line numbers are off by the whole of a million-line file about two million;
/// a hunk built to almost match everywhere (its lines repeated through the file, one line
/// different) would cost lines × hunk length, on a blocking thread that a timed-out call cannot
/// stop.
const PLACING_BUDGET: u64 = 32_000_000;

/// The comparisons one patch has left for placing its hunks (shared by all its files).
pub(crate) struct Budget {
    left: u64,
}

impl Budget {
    pub(crate) fn new() -> Self {
        Self { left: PLACING_BUDGET }
    }

    /// Takes one comparison; `false` once there are none left.
    fn take(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        true
    }
}

/// The budget ran out before the hunk was placed.
struct Spent;

fn matches_at(
    lines: &[&str],
    old: &[&str],
    pos: usize,
    loose: bool,
    budget: &mut Budget,
) -> Result<bool, Spent> {
    if pos + old.len() > lines.len() {
        return Ok(false);
    }
    for (i, o) in old.iter().enumerate() {
        if !budget.take() {
            return Err(Spent);
        }
        if !same(lines[pos + i], o, loose) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Where `old` occurs, nearest to `hint`, not before `min`.
fn locate(
    lines: &[&str],
    old: &[&str],
    hint: usize,
    min: usize,
    budget: &mut Budget,
) -> Result<Option<usize>, Spent> {
    let Some(last) = lines.len().checked_sub(old.len()) else {
        return Ok(None);
    };
    if min > last {
        return Ok(None);
    }
    let hint = hint.clamp(min, last);
    for loose in [false, true] {
        for distance in 0..=(last - min) {
            let candidates = [hint.checked_add(distance), hint.checked_sub(distance)];
            for pos in candidates.into_iter().flatten() {
                if pos >= min && pos <= last && matches_at(lines, old, pos, loose, budget)? {
                    return Ok(Some(pos));
                }
            }
        }
    }
    Ok(None)
}

/// The new text of a file after all `hunks`, or one reason per hunk that does not apply.
pub(crate) fn apply_hunks(
    old_text: &str,
    hunks: &[Hunk],
    budget: &mut Budget,
) -> Result<String, Vec<String>> {
    let Lines { lines, ends_with_newline, crlf } = split(old_text);
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + 16);
    let mut cursor = 0usize;
    let mut delta: isize = 0;
    let mut errors = Vec::new();
    let mut eol = ends_with_newline;
    for (n, hunk) in hunks.iter().enumerate() {
        let old = hunk.old_lines();
        let expected = if old.is_empty() { hunk.old_start } else { hunk.old_start.saturating_sub(1) };
        let hint = (expected as isize + delta).max(0) as usize;
        let pos = if old.is_empty() {
            Some(hint.clamp(cursor, lines.len()))
        } else {
            match locate(&lines, &old, hint, cursor, budget) {
                Ok(pos) => pos,
                Err(Spent) => {
                    errors.push(format!(
                        "hunk {} `{}`: its lines are alike in too many places to search them all \
                         (over {PLACING_BUDGET} line comparisons for this patch); give the hunk \
                         lines that occur in fewer places, or the right line numbers",
                        n + 1,
                        hunk.header
                    ));
                    continue;
                }
            }
        };
        let Some(pos) = pos else {
            let shown: Vec<String> = old.iter().take(3).map(|l| format!("    {l}")).collect();
            let more =
                if old.len() > 3 { format!("\n    … ({} lines in all)", old.len()) } else { String::new() };
            errors.push(format!(
                "hunk {} `{}`: the lines it expects (context and removed lines) were not found at or after line {}; \
                 expected:\n{}{more}",
                n + 1,
                hunk.header,
                cursor + 1,
                shown.join("\n")
            ));
            continue;
        };
        delta = pos as isize - expected as isize;
        out.extend(lines[cursor..pos].iter().map(|l| (*l).to_owned()));
        let mut file_index = pos;
        for line in &hunk.lines {
            match line {
                HunkLine::Context(_) => {
                    out.push(lines[file_index].to_owned());
                    file_index += 1;
                }
                HunkLine::Remove(_) => file_index += 1,
                HunkLine::Add(text) => out.push(if crlf { format!("{text}\r") } else { text.clone() }),
            }
        }
        cursor = file_index;
        if cursor == lines.len() {
            eol = if hunk.new_no_newline {
                false
            } else if hunk.old_no_newline {
                true
            } else {
                ends_with_newline
            };
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    out.extend(lines[cursor..].iter().map(|l| (*l).to_owned()));
    let mut text = out.join("\n");
    if eol && !out.is_empty() {
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_patch;
    use super::*;

    fn apply(old: &str, patch: &str) -> Result<String, Vec<String>> {
        let files = parse_patch(patch).map_err(|e| vec![e])?;
        apply_hunks(old, &files[0].hunks, &mut Budget::new())
    }

    #[test]
    fn wrong_line_numbers_are_tolerated_when_the_context_matches() {
        let old = "a\nb\nc\nd\ne\n";
        let patch = "--- a/f\n+++ b/f\n@@ -40,3 +40,3 @@\n c\n-d\n+D\n e\n";
        assert_eq!(apply(old, patch), Ok("a\nb\nc\nD\ne\n".to_owned()));
    }

    #[test]
    fn trailing_whitespace_differences_are_forgiven_but_other_mismatches_are_not() {
        assert_eq!(
            apply("x  \ny\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n"),
            Ok("x  \nz\n".to_owned())
        );
        let err =
            apply("x\ny\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n q\n-y\n+z\n").err().unwrap_or_default();
        assert!(err[0].contains("hunk 1") && err[0].contains("not found"), "{err:?}");
    }

    #[test]
    fn newline_at_end_of_file_is_honoured() {
        let patch = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n";
        assert_eq!(apply("a\n", patch), Ok("b".to_owned()));
    }

    /// A hunk that almost matches everywhere (the model's input is untrusted): the search stops at
    /// its budget with a reason instead of comparing lines for minutes on a blocking thread that a
    /// timeout cannot stop.
    #[test]
    fn a_hunk_that_almost_matches_everywhere_stops_at_the_budget_with_a_reason() {
        let old = "a\n".repeat(60_000);
        let mut patch = String::from("--- a/f\n+++ b/f\n@@ -1,1501 +1,1501 @@\n");
        patch.push_str(&" a\n".repeat(1_500));
        patch.push_str("-b\n+c\n");
        let err = apply(&old, &patch).err().unwrap_or_default();
        assert_eq!(err.len(), 1, "{err:?}");
        assert!(err[0].contains("hunk 1") && err[0].contains("too many places"), "{err:?}");
    }

    /// The budget leaves room for honest patches: line numbers off by half a million lines.
    #[test]
    fn a_hunk_far_from_its_line_number_in_a_large_file_is_still_found() {
        let old: String = (0..500_000).map(|i| format!("line {i}\n")).collect();
        let patch = "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n line 499997\n-line 499998\n+changed\n line 499999\n";
        let new = apply(&old, patch).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(new.ends_with("line 499997\nchanged\nline 499999\n"));
    }

    /// The budget is the patch's, not each hunk's: many hunks that each cost a little stop too.
    #[test]
    fn many_costly_hunks_share_one_budget() {
        let old = "a\n".repeat(20_000);
        let mut patch = String::from("--- a/f\n+++ b/f\n");
        for _ in 0..200 {
            patch.push_str("@@ -1,201 +1,201 @@\n");
            patch.push_str(&" a\n".repeat(200));
            patch.push_str("-b\n+c\n");
        }
        let err = apply(&old, &patch).err().unwrap_or_default();
        assert!(err.iter().any(|e| e.contains("too many places")), "{:?}", err.first());
        assert!(err.len() <= 200, "one reason per hunk at most");
    }

    #[test]
    fn crlf_files_stay_crlf() {
        assert_eq!(
            apply("a\r\nb\r\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"),
            Ok("a\r\nc\r\n".to_owned())
        );
    }
}
