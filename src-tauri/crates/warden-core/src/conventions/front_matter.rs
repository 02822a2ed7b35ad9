//! The front matter of a `SKILL.md` or a command's markdown file: the block between a first line
//! `---` and the next `---`, in the small part of YAML these files use.
//!
//! Only top-level keys are read. A value is plain text (`name: pdf`), quoted (`"…"` with `\`
//! escapes, `'…'` with `''`), a block (`|` keeps the lines, `>` folds them into one), a flow list
//! (`[a, b]`) or a block list (lines `- a` under the key). Plain text may go on over indented lines
//! (folded, as YAML does). A nested mapping (`metadata:` with indented `key: value` lines) is kept as
//! its raw lines. Nothing here fails: a line that is not understood is left out, and a file whose
//! first line is not `---` has no front matter and is all body.

use std::collections::BTreeMap;

/// One value of the front matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    /// A list, and the text it was written as (`[message]` is an argument hint to show as it is).
    List {
        items: Vec<String>,
        written: String,
    },
}

impl Value {
    /// The value as one line of text: a list as it was written.
    pub fn text(&self) -> &str {
        match self {
            Self::Text(text) => text,
            Self::List { written, .. } => written,
        }
    }

    /// The value as a list: a list's items, or a text's comma-separated parts
    /// (`allowed-tools: Bash(git add:*), Read`), commas inside parentheses kept.
    pub fn items(&self) -> Vec<String> {
        match self {
            Self::List { items, .. } => items.clone(),
            Self::Text(text) => split_top_level(text, ','),
        }
    }
}

/// A markdown file split into its front matter and its body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Document {
    pub fields: BTreeMap<String, Value>,
    pub body: String,
}

impl Document {
    /// A field's text, trimmed; `None` when it is missing or empty.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(|v| v.text().trim()).filter(|t| !t.is_empty())
    }
}

/// Split `text` into its front matter and body.
pub fn parse(text: &str) -> Document {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let Some(first) = lines.next() else { return Document::default() };
    if first.trim_end() != "---" {
        return Document { fields: BTreeMap::new(), body: text.to_owned() };
    }
    let mut block = Vec::new();
    let mut consumed = first.len();
    let mut closed = false;
    for line in lines {
        consumed += line.len();
        let bare = line.trim_end();
        if bare == "---" || bare == "..." {
            closed = true;
            break;
        }
        block.push(line.trim_end_matches(['\n', '\r']));
    }
    if !closed {
        // An opening line with no end: not front matter after all.
        return Document { fields: BTreeMap::new(), body: text.to_owned() };
    }
    Document { fields: fields(&block), body: text[consumed..].to_owned() }
}

fn fields(lines: &[&str]) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.trim().is_empty() || line.trim_start().starts_with('#') || indented(line) {
            continue;
        }
        let Some((key, rest)) = line.split_once(':') else { continue };
        let key = key.trim();
        if key.is_empty() || key.contains(' ') && !key.starts_with(['"', '\'']) {
            continue;
        }
        let key = unquote_key(key);
        // The indented lines that belong to this key.
        let start = i;
        while i < lines.len() && (indented(lines[i]) || lines[i].trim().is_empty()) {
            i += 1;
        }
        let more = &lines[start..i];
        out.insert(key, value(rest.trim(), more));
    }
    out
}

fn value(rest: &str, more: &[&str]) -> Value {
    let rest = strip_comment(rest);
    if let Some(style) = rest.strip_prefix(['|', '>']).map(|_| rest.starts_with('|')) {
        return Value::Text(block_scalar(more, style));
    }
    if rest.is_empty() {
        let content: Vec<&str> = more.iter().copied().filter(|l| !l.trim().is_empty()).collect();
        if !content.is_empty() && content.iter().all(|l| l.trim_start().starts_with("- ") || l.trim() == "-")
        {
            let items: Vec<String> =
                content.iter().map(|l| scalar(l.trim_start().trim_start_matches('-').trim())).collect();
            let written = items.join(", ");
            return Value::List { items, written };
        }
        // A nested mapping, kept as written.
        return Value::Text(content.iter().map(|l| l.trim()).collect::<Vec<_>>().join("\n"));
    }
    if rest.starts_with('[') && rest.ends_with(']') {
        let inner = &rest[1..rest.len() - 1];
        let items = split_top_level(inner, ',').iter().map(|item| scalar(item)).collect();
        return Value::List { items, written: rest.to_owned() };
    }
    if rest.starts_with(['"', '\'']) {
        return Value::Text(scalar(rest));
    }
    // Plain text folds over its indented continuation lines.
    let mut text = rest.to_owned();
    for line in more.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        text.push(' ');
        text.push_str(line);
    }
    Value::Text(text)
}

/// A `|` (literal) or `>` (folded) block: its lines with their common indentation removed.
fn block_scalar(lines: &[&str], literal: bool) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines.iter().map(|l| l.get(indent..).unwrap_or("").trim_end()).collect();
    let text = if literal {
        body.join("\n")
    } else {
        // Folded: lines join with a space; an empty line is a line break.
        let mut out = String::new();
        for line in body {
            if line.is_empty() {
                out.push('\n');
            } else {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push(' ');
                }
                out.push_str(line);
            }
        }
        out
    };
    text.trim_end().to_owned()
}

/// One scalar: quoted (unescaped) or plain (trimmed).
fn scalar(text: &str) -> String {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        }
        return out;
    }
    if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return inner.replace("''", "'");
    }
    text.to_owned()
}

fn unquote_key(key: &str) -> String {
    scalar(key)
}

fn indented(line: &str) -> bool {
    line.starts_with([' ', '\t'])
}

/// A plain value without its trailing ` # comment` (a `#` inside quotes stays).
fn strip_comment(text: &str) -> &str {
    if text.starts_with(['"', '\'']) {
        return text;
    }
    match text.find(" #") {
        Some(at) => text[..at].trim_end(),
        None => text,
    }
}

/// `text` split at `separator` outside parentheses, brackets and quotes; parts trimmed, empty
/// parts left out.
fn split_top_level(text: &str, separator: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0_i32;
    let mut quote: Option<char> = None;
    let mut current = String::new();
    for c in text.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, _) if c == separator && depth <= 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts.into_iter().map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect()
}

#[cfg(test)]
#[path = "front_matter_tests.rs"]
mod tests;
