//! A git config file read line by line, as far as the box needs: which section each line is in
//! and which key it sets. The git guard looks up `core.hooksPath` with it; the sweep of new
//! repositories keeps only the plain keys with it.

/// One line of a config file.
pub(super) struct Line<'a> {
    /// The line as written.
    pub raw: &'a str,
    /// The section it belongs to, lower case, without a subsection: `remote` for `[remote "o"]`.
    pub section: String,
    /// A section header (`[core]`, possibly with a setting after it on the same line).
    pub header: bool,
    /// The key it sets, lower case, and its value unquoted and without a comment (a header line
    /// with a setting after it has one too). `None` for comments, blank lines and the
    /// continuations of a value (`\` at the end of the line before).
    pub setting: Option<(String, String)>,
    /// The continuation of the value the line before it set.
    pub continuation: bool,
}

pub(super) fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut continued = false;
    for raw in text.lines() {
        let continuation = continued;
        continued = raw.ends_with('\\');
        if continuation {
            out.push(Line { raw, section: section.clone(), header: false, setting: None, continuation });
            continue;
        }
        let trimmed = raw.trim();
        let (header, body) = match trimmed.strip_prefix('[') {
            Some(rest) => {
                section = rest.split([']', ' ', '"', '.']).next().unwrap_or_default().to_ascii_lowercase();
                (true, rest.split_once(']').map(|(_, after)| after.trim()).unwrap_or_default())
            }
            None => (false, trimmed),
        };
        out.push(Line { raw, section: section.clone(), header, setting: setting(body), continuation });
    }
    out
}

/// `key = value` or a bare `key` (a boolean), lower-cased key, value unquoted and uncommented.
fn setting(body: &str) -> Option<(String, String)> {
    if body.is_empty() || body.starts_with(['#', ';']) {
        return None;
    }
    let (key, value) = body.split_once('=').unwrap_or((body, ""));
    let value = value.split([';', '#']).next().unwrap_or_default().trim().trim_matches('"');
    Some((key.trim().to_ascii_lowercase(), value.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_keys_and_continuations_are_told_apart() {
        let text =
            "# top\n[core] hooksPath = a\n\tBare\n[remote \"o\"]\n\turl = \"x\" ; c\n\tfetch = \\\n\t  +r\n";
        let read: Vec<_> =
            lines(text).into_iter().map(|l| (l.section, l.header, l.setting, l.continuation)).collect();
        let s = |k: &str, v: &str| Some((k.to_owned(), v.to_owned()));
        assert_eq!(
            read,
            [
                (String::new(), false, None, false),
                ("core".into(), true, s("hookspath", "a"), false),
                ("core".into(), false, s("bare", ""), false),
                ("remote".into(), true, None, false),
                ("remote".into(), false, s("url", "x"), false),
                ("remote".into(), false, s("fetch", "\\"), false),
                ("remote".into(), false, None, true),
            ]
        );
    }
}
