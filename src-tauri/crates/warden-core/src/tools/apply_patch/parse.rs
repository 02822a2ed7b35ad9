//! Parsing a unified diff (plain or `git diff`) into file patches and hunks. Hunk line counts are not
//! trusted: a hunk runs until the next hunk or file header, so a model's miscounted header still parses.

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HunkLine {
    Context(String),
    Remove(String),
    Add(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk {
    /// The `@@ … @@` line as written (for messages).
    pub header: String,
    /// 1-based start line in the old file (a hint: the context decides).
    pub old_start: usize,
    pub lines: Vec<HunkLine>,
    /// `\ No newline at end of file` after the last old-side line.
    pub old_no_newline: bool,
    /// `\ No newline at end of file` after the last new-side line.
    pub new_no_newline: bool,
}

impl Hunk {
    pub fn old_lines(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                HunkLine::Context(t) | HunkLine::Remove(t) => Some(t.as_str()),
                HunkLine::Add(_) => None,
            })
            .collect()
    }
}

/// The changes to one file. `None` path = `/dev/null` (created or deleted file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FilePatch {
    pub old_path: Option<String>,
    pub new_path: Option<String>,
    pub hunks: Vec<Hunk>,
}

impl FilePatch {
    /// The path the patch is about (the new one, or the old one for a deletion).
    pub fn path(&self) -> &str {
        self.new_path.as_deref().or(self.old_path.as_deref()).unwrap_or("")
    }
}

fn header_path(rest: &str) -> Option<String> {
    // `--- a/src/x.rs\t2024-01-01 …`: the path ends at a tab; quoted git paths lose their quotes.
    let path = rest.split('\t').next().unwrap_or("").trim_end();
    let path = path.strip_prefix('"').and_then(|p| p.strip_suffix('"')).unwrap_or(path);
    if path == "/dev/null" {
        return None;
    }
    let path = path.strip_prefix("a/").or_else(|| path.strip_prefix("b/")).unwrap_or(path);
    Some(path.to_owned())
}

fn parse_hunk_header(line: &str) -> Option<usize> {
    // @@ -12,7 +12,8 @@ optional section
    let rest = line.strip_prefix("@@")?.trim_start();
    let old = rest.strip_prefix('-')?;
    let start: String = old.chars().take_while(char::is_ascii_digit).collect();
    start.parse().ok()
}

/// Parse a whole patch. Errors name the line.
#[allow(clippy::too_many_lines)] // A line-by-line parser's one loop.
pub(crate) fn parse_patch(text: &str) -> Result<Vec<FilePatch>, String> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let mut files: Vec<FilePatch> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let (Some(old), Some(new)) =
            (line.strip_prefix("--- "), lines.get(i + 1).and_then(|l| l.strip_prefix("+++ ")))
        {
            files.push(FilePatch {
                old_path: header_path(old),
                new_path: header_path(new),
                hunks: Vec::new(),
            });
            i += 2;
            continue;
        }
        if line.starts_with("@@") {
            let Some(file) = files.last_mut() else {
                return Err(format!("line {}: a hunk before any `--- old` / `+++ new` file header", i + 1));
            };
            let old_start = parse_hunk_header(line)
                .ok_or_else(|| format!("line {}: malformed hunk header `{line}`", i + 1))?;
            let mut hunk = Hunk {
                header: line.to_owned(),
                old_start,
                lines: Vec::new(),
                old_no_newline: false,
                new_no_newline: false,
            };
            i += 1;
            let mut raw_blank_tail = 0usize;
            while i < lines.len() {
                let body = lines[i];
                let is_file_header =
                    body.starts_with("--- ") && lines.get(i + 1).is_some_and(|l| l.starts_with("+++ "));
                if body.starts_with("@@") || is_file_header || body.starts_with("diff --git ") {
                    break;
                }
                match body.chars().next() {
                    Some(' ') => hunk.lines.push(HunkLine::Context(body[1..].to_owned())),
                    Some('-') => hunk.lines.push(HunkLine::Remove(body[1..].to_owned())),
                    Some('+') => hunk.lines.push(HunkLine::Add(body[1..].to_owned())),
                    Some('\\') => match hunk.lines.last() {
                        Some(HunkLine::Add(_)) => hunk.new_no_newline = true,
                        Some(HunkLine::Remove(_)) => hunk.old_no_newline = true,
                        _ => {
                            hunk.old_no_newline = true;
                            hunk.new_no_newline = true;
                        }
                    },
                    // An empty line is a context line whose leading space was lost.
                    None => {
                        hunk.lines.push(HunkLine::Context(String::new()));
                        raw_blank_tail += 1;
                        i += 1;
                        continue;
                    }
                    Some(_) => break,
                }
                raw_blank_tail = 0;
                i += 1;
            }
            // Blank lines that only separate this hunk from what follows are not context.
            for _ in 0..raw_blank_tail {
                hunk.lines.pop();
            }
            if hunk.lines.is_empty() {
                return Err(format!("hunk `{}` of {} has no lines", hunk.header, file.path()));
            }
            file.hunks.push(hunk);
            continue;
        }
        // `diff --git`, `index …`, `new file mode`, commentary: ignored.
        i += 1;
    }
    if files.is_empty() {
        return Err(
            "no file headers (`--- a/path` then `+++ b/path`) found; is this a unified diff?".to_owned()
        );
    }
    if let Some(empty) = files.iter().find(|f| f.hunks.is_empty() && f.new_path.is_some()) {
        return Err(format!("the patch for {} has no hunks", empty.path()));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_git_style_multi_file_patch() {
        let patch = "diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n\\ No newline at end of file\n";
        let files = parse_patch(patch).unwrap_or_default();
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].path(), "a.txt");
        assert_eq!(files[0].hunks[0].lines.len(), 3);
        assert_eq!(files[1].old_path, None);
        assert!(files[1].hunks[0].new_no_newline);
    }

    #[test]
    fn rejects_garbage_with_reasons() {
        assert!(parse_patch("hello").is_err_and(|e| e.contains("no file headers")));
        assert!(parse_patch("@@ -1 +1 @@\n-a\n+b\n").is_err_and(|e| e.contains("before any")));
    }
}
