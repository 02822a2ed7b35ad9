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

fn matches_at(lines: &[&str], old: &[&str], pos: usize, loose: bool) -> bool {
    pos + old.len() <= lines.len() && old.iter().enumerate().all(|(i, o)| same(lines[pos + i], o, loose))
}

/// Where `old` occurs, nearest to `hint`, not before `min`.
fn locate(lines: &[&str], old: &[&str], hint: usize, min: usize) -> Option<usize> {
    let last = lines.len().checked_sub(old.len())?;
    if min > last {
        return None;
    }
    let hint = hint.clamp(min, last);
    for loose in [false, true] {
        for distance in 0..=(last - min) {
            let candidates = [hint.checked_add(distance), hint.checked_sub(distance)];
            for pos in candidates.into_iter().flatten() {
                if pos >= min && pos <= last && matches_at(lines, old, pos, loose) {
                    return Some(pos);
                }
            }
        }
    }
    None
}

/// The new text of a file after all `hunks`, or one reason per hunk that does not apply.
pub(crate) fn apply_hunks(old_text: &str, hunks: &[Hunk]) -> Result<String, Vec<String>> {
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
            locate(&lines, &old, hint, cursor)
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
        apply_hunks(old, &files[0].hunks)
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

    #[test]
    fn crlf_files_stay_crlf() {
        assert_eq!(
            apply("a\r\nb\r\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"),
            Ok("a\r\nc\r\n".to_owned())
        );
    }
}
