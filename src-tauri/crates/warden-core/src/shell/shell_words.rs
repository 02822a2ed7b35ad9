//! A small POSIX-shell lexer for judging commands: shell words split into simple commands at `;`,
//! `&&`, `||`, `|`, `&`, newlines and parentheses, with redirections set aside, heredoc bodies kept
//! as data, and the text of `$(…)`, `` `…` `` and `<(…)` parsed as commands of their own. Each word
//! keeps what was quoted, what is a parameter expansion and what only running could tell
//! ([`Piece`]); [`super::expand`] evaluates what can be evaluated. Nothing is run.

/// Deeper nesting of substitutions than this is refused rather than parsed.
pub(crate) const MAX_DEPTH: usize = 16;

/// One piece of a shell word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Text as written; `quoted` when quotes or a backslash made it literal (no tilde, braces, globs).
    Text { text: String, quoted: bool },
    /// `$NAME`, `$0`, `$@` or `${…}` (the text between the braces); `quoted` inside double quotes.
    Param { expr: String, quoted: bool },
    /// A value only running could tell: `$(…)`, `` `…` ``, `<(…)`. `shown` is how it was written.
    Opaque { shown: String },
}

/// A shell word: its pieces in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Word(pub Vec<Piece>);

impl Word {
    /// The word with quotes removed and expansions as written (`$HOME`, `${X}`, `$(…)`).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for piece in &self.0 {
            match piece {
                Piece::Text { text, .. } => out.push_str(text),
                Piece::Param { expr, .. } if is_plain_name(expr) => {
                    out.push('$');
                    out.push_str(expr);
                }
                Piece::Param { expr, .. } => {
                    out.push_str("${");
                    out.push_str(expr);
                    out.push('}');
                }
                Piece::Opaque { shown } => out.push_str(shown),
            }
        }
        out
    }

    fn push_text(&mut self, c: char, quoted: bool) {
        if let Some(Piece::Text { text, quoted: q }) = self.0.last_mut() {
            if *q == quoted {
                text.push(c);
                return;
            }
        }
        self.0.push(Piece::Text { text: c.to_string(), quoted });
    }
}

fn is_plain_name(expr: &str) -> bool {
    expr.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || matches!(expr, "@" | "*" | "#" | "?" | "$" | "!" | "-")
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Redirect {
    /// `>`, `>>`, `2>`, `&>`, `>&`, `<`, `<<`, `<<-`, `<<<`, …
    pub op: String,
    pub target: Word,
    /// The body of a heredoc (`<<`, `<<-`): data, never lexed as commands. (When its delimiter
    /// is unquoted the shell still expands `$(…)` and `` `…` `` in it: those are in `scripts`.)
    pub body: Option<String>,
}

/// One simple command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Segment {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// The previous command's output is piped into this one (`a | b`: `b`).
    pub piped_in: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// Every simple command, those inside substitutions included.
    pub segments: Vec<Segment>,
    /// The text of every `$(…)`, `` `…` `` and `<(…)`, nested ones included: scripts of their own.
    pub scripts: Vec<String>,
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
    let mut lexer = Lexer {
        chars: input.chars().collect(),
        pos: 0,
        depth,
        out: Parsed::default(),
        pending_heredocs: Vec::new(),
    };
    lexer.run()?;
    let mut out = lexer.out;
    out.segments.retain(|s| !s.words.is_empty() || !s.redirects.is_empty());
    out.compound |= out.segments.len() > 1;
    Ok(out)
}

/// A heredoc whose body starts at the next newline: where its redirect is, its delimiter, `<<-`.
struct PendingHeredoc {
    delimiter: String,
    strip_tabs: bool,
    /// No part of the delimiter was quoted: the shell expands parameters and substitutions in it.
    expands: bool,
    slot: HeredocSlot,
}

/// Where to put a heredoc's body: a redirect of the segment being read, or of a finished one.
#[derive(Clone, Copy)]
enum HeredocSlot {
    Current(usize),
    Done(usize, usize),
}

struct Lexer {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    out: Parsed,
    pending_heredocs: Vec<PendingHeredoc>,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn run(&mut self) -> Result<(), TooDeep> {
        let mut segment = Segment::default();
        let mut word: Option<Word> = None;
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
                    self.finish_segment(&mut segment);
                    segment.piped_in = c == '|' && !doubled;
                    if matches!(c, '(' | ')') || (c == '&' && !doubled) {
                        self.out.compound = true;
                    }
                    if c == '\n' {
                        self.heredoc_bodies(&mut segment)?;
                    }
                }
                '>' | '<' => {
                    if self.peek(1) == Some('(') {
                        // Process substitution: a command of its own.
                        self.pos += 1;
                        let inner = self.balanced_parens();
                        self.substitution(&inner)?;
                        let shown = format!("{c}({inner})");
                        word.get_or_insert_with(Word::default).0.push(Piece::Opaque { shown });
                        continue;
                    }
                    // `2>` / `10>`: a word made only of digits right before is the descriptor.
                    let fd = match &word {
                        Some(w) if is_descriptor(w) => word.take().map(|w| w.text()),
                        _ => {
                            finish_word(&mut segment, &mut word);
                            None
                        }
                    };
                    self.redirect(&mut segment, fd.unwrap_or_default())?;
                }
                // A line continuation is removed before words are formed: it neither ends a
                // word nor starts one.
                '\\' if self.peek(1) == Some('\n') => self.pos += 2,
                '#' if word.is_none() => {
                    while let Some(ch) = self.peek(0) {
                        if ch == '\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => {
                    let w = word.get_or_insert_with(Word::default);
                    self.word_unit(w)?;
                }
            }
        }
        finish_word(&mut segment, &mut word);
        self.finish_segment(&mut segment);
        Ok(())
    }

    fn finish_segment(&mut self, segment: &mut Segment) {
        let index = self.out.segments.len();
        for pending in &mut self.pending_heredocs {
            if let HeredocSlot::Current(r) = pending.slot {
                pending.slot = HeredocSlot::Done(index, r);
            }
        }
        self.out.segments.push(std::mem::take(segment));
    }

    /// After a newline: the bodies of the heredocs opened on the line just read.
    fn heredoc_bodies(&mut self, current: &mut Segment) -> Result<(), TooDeep> {
        for pending in std::mem::take(&mut self.pending_heredocs) {
            let mut body = String::new();
            loop {
                if self.pos >= self.chars.len() {
                    break;
                }
                let start = self.pos;
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.pos += 1;
                }
                let line: String = self.chars[start..self.pos].iter().collect();
                self.pos += 1;
                let compared = if pending.strip_tabs { line.trim_start_matches('\t') } else { line.as_str() };
                if compared == pending.delimiter {
                    break;
                }
                body.push_str(&line);
                body.push('\n');
            }
            if pending.expands {
                // Quotes do not quote in a heredoc: `'$(…)'` runs.
                self.substitutions_in(&body, false)?;
            }
            let redirect = match pending.slot {
                HeredocSlot::Current(r) => current.redirects.get_mut(r),
                HeredocSlot::Done(s, r) => self.out.segments.get_mut(s).and_then(|s| s.redirects.get_mut(r)),
            };
            if let Some(redirect) = redirect {
                redirect.body = Some(body);
            }
        }
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
        let heredoc = op.ends_with("<<") && !op.ends_with("<<<");
        if heredoc && self.peek(0) == Some('-') {
            op.push('-');
            self.pos += 1;
        }
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(' ' | '\t'), _) => self.pos += 1,
                (Some('\\'), Some('\n')) => self.pos += 2,
                _ => break,
            }
        }
        let mut target = Word::default();
        while let Some(ch) = self.peek(0) {
            if matches!(ch, ' ' | '\t' | '\r' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>') {
                break;
            }
            self.word_unit(&mut target)?;
        }
        if heredoc {
            let quoted = target.0.iter().any(|p| matches!(p, Piece::Text { quoted: true, .. }));
            self.pending_heredocs.push(PendingHeredoc {
                delimiter: target.text(),
                strip_tabs: op.ends_with('-'),
                expands: !quoted,
                slot: HeredocSlot::Current(segment.redirects.len()),
            });
        }
        segment.redirects.push(Redirect { op, target, body: None });
        Ok(())
    }

    /// Consume one unit of a word (a plain char, an escape, a quoted string, an expansion).
    fn word_unit(&mut self, word: &mut Word) -> Result<(), TooDeep> {
        let Some(c) = self.peek(0) else { return Ok(()) };
        match c {
            '\\' => {
                if let Some(next) = self.peek(1).filter(|n| *n != '\n') {
                    word.push_text(next, true);
                }
                self.pos += 2;
            }
            '\'' => {
                self.pos += 1;
                word.0.push(Piece::Text { text: String::new(), quoted: true });
                while let Some(ch) = self.peek(0) {
                    self.pos += 1;
                    if ch == '\'' {
                        break;
                    }
                    word.push_text(ch, true);
                }
            }
            '"' => {
                self.pos += 1;
                self.double_quoted(word)?;
            }
            '$' if self.peek(1) == Some('\'') => {
                self.pos += 2;
                self.ansi_c(word);
            }
            '$' if self.peek(1) == Some('"') => {
                self.pos += 2;
                self.double_quoted(word)?;
            }
            '$' => self.dollar(word, false)?,
            '`' => self.backtick(word)?,
            _ => {
                word.push_text(c, false);
                self.pos += 1;
            }
        }
        Ok(())
    }

    /// After the opening `"`: up to the closing one.
    fn double_quoted(&mut self, word: &mut Word) -> Result<(), TooDeep> {
        word.0.push(Piece::Text { text: String::new(), quoted: true });
        while let Some(ch) = self.peek(0) {
            match ch {
                '"' => {
                    self.pos += 1;
                    break;
                }
                '\\' if matches!(self.peek(1), Some('"' | '\\' | '$' | '`' | '\n')) => {
                    if let Some(next) = self.peek(1).filter(|n| *n != '\n') {
                        word.push_text(next, true);
                    }
                    self.pos += 2;
                }
                '$' => self.dollar(word, true)?,
                '`' => self.backtick(word)?,
                _ => {
                    word.push_text(ch, true);
                    self.pos += 1;
                }
            }
        }
        Ok(())
    }

    /// At a `$`: a substitution, arithmetic, a parameter, or a plain dollar sign.
    fn dollar(&mut self, word: &mut Word, quoted: bool) -> Result<(), TooDeep> {
        match (self.peek(1), self.peek(2)) {
            (Some('('), Some('(')) => {
                // Arithmetic: a number. Substitutions inside are still commands of their own.
                self.pos += 1;
                let inner = self.balanced_parens();
                self.substitution(&inner)?;
                word.push_text('0', true);
            }
            (Some('('), _) => {
                self.pos += 1;
                let inner = self.balanced_parens();
                self.substitution(&inner)?;
                word.0.push(Piece::Opaque { shown: format!("$({inner})") });
            }
            (Some('{'), _) => {
                self.pos += 2;
                let expr = self.braced();
                // `${x:-$(…)}` runs its substitution; single quotes protect only outside `"…"`.
                self.substitutions_in(&expr, !quoted)?;
                word.0.push(Piece::Param { expr, quoted });
            }
            (Some(c), _) if c.is_ascii_alphabetic() || c == '_' => {
                self.pos += 1;
                let mut expr = String::new();
                while let Some(ch) = self.peek(0).filter(|ch| ch.is_ascii_alphanumeric() || *ch == '_') {
                    expr.push(ch);
                    self.pos += 1;
                }
                word.0.push(Piece::Param { expr, quoted });
            }
            (Some(c), _) if c.is_ascii_digit() || "@*#?$!-".contains(c) => {
                self.pos += 2;
                word.0.push(Piece::Param { expr: c.to_string(), quoted });
            }
            _ => {
                word.push_text('$', quoted);
                self.pos += 1;
            }
        }
        Ok(())
    }

    /// After `${`: the text up to the matching `}` (nested braces and quotes respected).
    fn braced(&mut self) -> String {
        let mut level = 1usize;
        let mut expr = String::new();
        let mut quote: Option<char> = None;
        while let Some(ch) = self.peek(0) {
            self.pos += 1;
            match (quote, ch) {
                (Some(q), _) if ch == q => quote = None,
                (None, '\'' | '"') => quote = Some(ch),
                (None, '{') => level += 1,
                (None, '}') => {
                    level -= 1;
                    if level == 0 {
                        return expr;
                    }
                }
                _ => {}
            }
            expr.push(ch);
        }
        expr
    }

    /// After `$'`: ANSI-C quoting with its escapes decoded; one it does not know is opaque.
    fn ansi_c(&mut self, word: &mut Word) {
        let mut text = String::new();
        let mut known = true;
        while let Some(ch) = self.peek(0) {
            self.pos += 1;
            match ch {
                '\'' => break,
                '\\' => {
                    let Some(esc) = self.peek(0) else { break };
                    self.pos += 1;
                    match esc {
                        'n' => text.push('\n'),
                        't' => text.push('\t'),
                        '\\' | '\'' | '"' | '?' => text.push(esc),
                        'x' | '0'..='7' => {
                            let (radix, max) = if esc == 'x' { (16, 2) } else { (8, 3) };
                            let mut digits = if esc == 'x' { String::new() } else { esc.to_string() };
                            while digits.len() < max && self.peek(0).is_some_and(|d| d.is_digit(radix)) {
                                digits.extend(self.peek(0));
                                self.pos += 1;
                            }
                            match u32::from_str_radix(&digits, radix).ok().and_then(char::from_u32) {
                                Some(decoded) => text.push(decoded),
                                None => known = false,
                            }
                        }
                        _ => known = false,
                    }
                }
                _ => text.push(ch),
            }
        }
        if known {
            word.0.push(Piece::Text { text, quoted: true });
        } else {
            word.0.push(Piece::Opaque { shown: format!("$'{text}'") });
        }
    }

    fn backtick(&mut self, word: &mut Word) -> Result<(), TooDeep> {
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
        self.substitution(&inner)?;
        word.0.push(Piece::Opaque { shown: format!("`{inner}`") });
        Ok(())
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
                (Some('"') | None, '\\') => {
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

    /// Finds the substitutions the shell runs while expanding `text` (a heredoc body, the word of
    /// `${x:-word}`), where everything else is data: each becomes a script and commands of its own.
    /// `single_quotes` says whether `'…'` protects what it holds there.
    fn substitutions_in(&mut self, text: &str, single_quotes: bool) -> Result<(), TooDeep> {
        if !text.contains(['$', '`']) {
            return Ok(());
        }
        if self.depth + 1 > MAX_DEPTH {
            return Err(TooDeep);
        }
        let mut inner = Lexer {
            chars: text.chars().collect(),
            pos: 0,
            depth: self.depth + 1,
            out: Parsed::default(),
            pending_heredocs: Vec::new(),
        };
        let mut ignored = Word::default();
        while let Some(ch) = inner.peek(0) {
            match ch {
                '\\' => inner.pos += 2,
                '\'' if single_quotes => {
                    inner.pos += 1;
                    while inner.peek(0).is_some_and(|c| c != '\'') {
                        inner.pos += 1;
                    }
                    inner.pos += 1;
                }
                '$' => inner.dollar(&mut ignored, true)?,
                '`' => inner.backtick(&mut ignored)?,
                _ => inner.pos += 1,
            }
        }
        self.out.compound |= !inner.out.scripts.is_empty();
        self.out.scripts.extend(inner.out.scripts);
        self.out.segments.extend(inner.out.segments);
        Ok(())
    }

    fn substitution(&mut self, inner: &str) -> Result<(), TooDeep> {
        let nested = parse_at(inner, self.depth + 1)?;
        self.out.compound = true;
        self.out.scripts.push(inner.to_owned());
        self.out.scripts.extend(nested.scripts);
        self.out.segments.extend(nested.segments);
        Ok(())
    }
}

fn is_descriptor(word: &Word) -> bool {
    matches!(word.0.as_slice(), [Piece::Text { text, quoted: false }]
        if !text.is_empty() && text.chars().all(|d| d.is_ascii_digit()))
}

fn finish_word(segment: &mut Segment, word: &mut Option<Word>) {
    if let Some(w) = word.take() {
        segment.words.push(w);
    }
}

#[cfg(test)]
#[path = "shell_words_tests.rs"]
mod tests;
