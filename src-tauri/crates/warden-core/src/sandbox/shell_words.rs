//! A small POSIX-shell lexer for judging commands: shell words with quotes removed, split into simple
//! commands at `;`, `&&`, `||`, `|`, `&`, newlines and parentheses, with redirections set aside and the
//! text of `$(…)`, `` `…` `` and `<(…)` parsed as commands of their own. It does not run or expand
//! anything; it exists so the blocklist matches commands, not substrings.

/// Deeper nesting of substitutions than this is refused rather than parsed.
pub(crate) const MAX_DEPTH: usize = 16;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Redirect {
    /// `>`, `>>`, `2>`, `&>`, `>&`, `<`, …
    pub op: String,
    pub target: String,
}

/// One simple command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Segment {
    pub words: Vec<String>,
    pub redirects: Vec<Redirect>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// Every simple command, those inside substitutions included.
    pub segments: Vec<Segment>,
    /// Whether the command had operators, subshells, background jobs or substitutions.
    pub compound: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TooDeep;

pub(crate) fn parse(input: &str) -> Result<Parsed, TooDeep> {
    parse_at(input, 0)
}

fn parse_at(input: &str, depth: usize) -> Result<Parsed, TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep);
    }
    let mut lexer = Lexer { chars: input.chars().collect(), pos: 0, depth, out: Parsed::default() };
    lexer.run()?;
    let mut out = lexer.out;
    out.segments.retain(|s| !s.words.is_empty() || !s.redirects.is_empty());
    out.compound |= out.segments.len() > 1;
    Ok(out)
}

struct Lexer {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    out: Parsed,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn run(&mut self) -> Result<(), TooDeep> {
        let mut segment = Segment::default();
        let mut word: Option<String> = None;
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' | '\r' => {
                    finish_word(&mut segment, &mut word);
                    self.pos += 1;
                }
                '\n' | ';' | '&' | '|' | '(' | ')' => {
                    if c == '&' && self.peek(1) == Some('>') {
                        finish_word(&mut segment, &mut word);
                        self.pos += 1;
                        self.redirect(&mut segment, "&".to_owned())?;
                        continue;
                    }
                    finish_word(&mut segment, &mut word);
                    let doubled =
                        matches!((c, self.peek(1)), ('&', Some('&')) | ('|', Some('|')) | (';', Some(';')));
                    self.pos += if doubled { 2 } else { 1 };
                    if c == '|' && self.peek(0) == Some('&') {
                        self.pos += 1;
                    }
                    self.out.segments.push(std::mem::take(&mut segment));
                    if matches!(c, '(' | ')') || (c == '&' && !doubled) {
                        self.out.compound = true;
                    }
                }
                '>' | '<' => {
                    if c == '<' && self.peek(1) == Some('(') || c == '>' && self.peek(1) == Some('(') {
                        // Process substitution: a command of its own.
                        self.pos += 1;
                        let inner = self.balanced_parens();
                        self.substitution(&inner)?;
                        word.get_or_insert_with(String::new).push_str("/dev/fd/63");
                        continue;
                    }
                    // `2>` / `10>`: a word made only of digits right before is the descriptor.
                    let fd = match &word {
                        Some(w) if !w.is_empty() && w.chars().all(|d| d.is_ascii_digit()) => word.take(),
                        _ => {
                            finish_word(&mut segment, &mut word);
                            None
                        }
                    };
                    self.redirect(&mut segment, fd.unwrap_or_default())?;
                }
                '#' if word.is_none() => {
                    while let Some(ch) = self.peek(0) {
                        if ch == '\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => {
                    let w = word.get_or_insert_with(String::new);
                    self.word_char(w)?;
                }
            }
        }
        finish_word(&mut segment, &mut word);
        self.out.segments.push(segment);
        Ok(())
    }

    /// Read one redirection operator (the descriptor, if any, already taken) and its target word.
    fn redirect(&mut self, segment: &mut Segment, mut op: String) -> Result<(), TooDeep> {
        while let Some(ch) = self.peek(0) {
            if matches!(ch, '>' | '<' | '&' | '|') && op.len() < 5 {
                op.push(ch);
                self.pos += 1;
            } else {
                break;
            }
        }
        while matches!(self.peek(0), Some(' ' | '\t')) {
            self.pos += 1;
        }
        let mut target = String::new();
        while let Some(ch) = self.peek(0) {
            if matches!(ch, ' ' | '\t' | '\r' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>') {
                break;
            }
            self.word_char(&mut target)?;
        }
        segment.redirects.push(Redirect { op, target });
        Ok(())
    }

    /// Consume one unit of a word (a plain char, an escape, a quoted string, a substitution).
    fn word_char(&mut self, word: &mut String) -> Result<(), TooDeep> {
        let Some(c) = self.peek(0) else { return Ok(()) };
        match c {
            '\\' => {
                match self.peek(1) {
                    Some('\n') => {}
                    Some(next) => word.push(next),
                    None => {}
                }
                self.pos += 2;
            }
            '\'' => {
                self.pos += 1;
                while let Some(ch) = self.peek(0) {
                    self.pos += 1;
                    if ch == '\'' {
                        break;
                    }
                    word.push(ch);
                }
            }
            '"' => {
                self.pos += 1;
                while let Some(ch) = self.peek(0) {
                    match ch {
                        '"' => {
                            self.pos += 1;
                            break;
                        }
                        '\\' if matches!(self.peek(1), Some('"' | '\\' | '$' | '`' | '\n')) => {
                            if let Some(next) = self.peek(1).filter(|n| *n != '\n') {
                                word.push(next);
                            }
                            self.pos += 2;
                        }
                        '$' if self.peek(1) == Some('(') => self.dollar_paren(word)?,
                        '`' => self.backtick(word)?,
                        _ => {
                            word.push(ch);
                            self.pos += 1;
                        }
                    }
                }
            }
            '$' if self.peek(1) == Some('(') => self.dollar_paren(word)?,
            '`' => self.backtick(word)?,
            _ => {
                word.push(c);
                self.pos += 1;
            }
        }
        Ok(())
    }

    fn dollar_paren(&mut self, word: &mut String) -> Result<(), TooDeep> {
        self.pos += 1;
        let inner = self.balanced_parens();
        word.push_str("$(");
        word.push_str(&inner);
        word.push(')');
        self.substitution(&inner)
    }

    fn backtick(&mut self, word: &mut String) -> Result<(), TooDeep> {
        self.pos += 1;
        let mut inner = String::new();
        while let Some(ch) = self.peek(0) {
            self.pos += 1;
            match ch {
                '`' => break,
                '\\' => {
                    if let Some(next) = self.peek(0) {
                        inner.push(next);
                        self.pos += 1;
                    }
                }
                _ => inner.push(ch),
            }
        }
        word.push('`');
        word.push_str(&inner);
        word.push('`');
        self.substitution(&inner)
    }

    /// At a `(`: the text up to the matching `)` (quotes respected), the parentheses consumed.
    fn balanced_parens(&mut self) -> String {
        self.pos += 1;
        let mut level = 1usize;
        let mut inner = String::new();
        let mut quote: Option<char> = None;
        while let Some(ch) = self.peek(0) {
            self.pos += 1;
            match (quote, ch) {
                (Some(q), _) if ch == q => quote = None,
                (Some(_), '\\') | (None, '\\') => {
                    inner.push(ch);
                    if let Some(next) = self.peek(0) {
                        inner.push(next);
                        self.pos += 1;
                    }
                    continue;
                }
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(ch),
                (None, '(') => level += 1,
                (None, ')') => {
                    level -= 1;
                    if level == 0 {
                        return inner;
                    }
                }
                (None, _) => {}
            }
            inner.push(ch);
        }
        inner
    }

    fn substitution(&mut self, inner: &str) -> Result<(), TooDeep> {
        let nested = parse_at(inner, self.depth + 1)?;
        self.out.compound = true;
        self.out.segments.extend(nested.segments);
        Ok(())
    }
}

fn finish_word(segment: &mut Segment, word: &mut Option<String>) {
    if let Some(w) = word.take() {
        segment.words.push(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(cmd: &str) -> Vec<Vec<String>> {
        parse(cmd).map(|p| p.segments.into_iter().map(|s| s.words).collect()).unwrap_or_default()
    }

    #[test]
    fn quotes_and_escapes_are_removed() {
        assert_eq!(words(r#"rm -rf "/" 'a b' c\ d"#), [["rm", "-rf", "/", "a b", "c d"]]);
    }

    #[test]
    fn operators_split_segments() {
        assert_eq!(words("a && b || c; d | e & f\ng").len(), 7);
        assert!(parse("ls").map(|p| !p.compound).unwrap_or(false));
        assert!(parse("ls; ls").map(|p| p.compound).unwrap_or(false));
    }

    #[test]
    fn substitutions_are_commands_too() {
        let w = words("echo \"$(rm -rf /)\" `shutdown now`");
        assert!(w.contains(&vec!["rm".to_owned(), "-rf".to_owned(), "/".to_owned()]));
        assert!(w.contains(&vec!["shutdown".to_owned(), "now".to_owned()]));
    }

    #[test]
    fn redirections_are_set_aside() {
        let parsed = parse("echo hi > /dev/sda 2>&1").unwrap_or_default();
        assert_eq!(parsed.segments[0].words, ["echo", "hi"]);
        assert_eq!(parsed.segments[0].redirects[0], Redirect { op: ">".into(), target: "/dev/sda".into() });
        assert_eq!(parsed.segments[0].redirects[1], Redirect { op: "2>&".into(), target: "1".into() });
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "$(".repeat(40) + &")".repeat(40);
        assert_eq!(parse(&deep), Err(TooDeep));
    }
}
