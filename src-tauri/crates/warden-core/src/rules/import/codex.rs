//! codex's prefix rules (`~/.codex/rules/*.rules`, Starlark):
//! `prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt")` — tokens in order, a
//! list for alternatives (one Warden rule each), `decision` allow (the default), prompt or
//! forbidden. The rule is a prefix: `git push *`. Only `prefix_rule` calls with literal arguments
//! are read; anything else is listed as not converted.

use warden_protocol::{PermissionRule, RuleEffect, COMMAND_RULE_TOOL};

use super::Entry;
use crate::shell::command_rule::CommandPattern;

/// More alternatives than this in one rule is not a rule anyone wrote by hand.
const MAX_EXPANDED: usize = 64;

pub(super) fn convert(text: &str) -> Result<Vec<Entry>, String> {
    let tokens = lex(text)?;
    let mut out = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let Token::Name(name) = &tokens[at] else {
            at += 1;
            continue;
        };
        at += 1;
        if tokens.get(at) != Some(&Token::Open('(')) {
            continue;
        }
        let (args, next) = call_args(&tokens, at + 1)?;
        at = next;
        let shown = format!("{name}(…) at call {}", out.len() + 1);
        if name != "prefix_rule" {
            out.push(Entry::new(shown, Err(format!("`{name}` has no Warden equivalent"))));
            continue;
        }
        out.extend(prefix_rule(&args));
    }
    Ok(out)
}

fn prefix_rule(args: &[(String, Value)]) -> Vec<Entry> {
    let get = |key: &str| args.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let shown = |pattern: &str| format!("prefix_rule(pattern = {pattern})");
    let Some(pattern) = get("pattern") else {
        return vec![Entry::new("prefix_rule(…)", Err("it has no pattern".to_owned()))];
    };
    let effect = match get("decision") {
        None => Ok(RuleEffect::Allow),
        Some(Value::Str(d)) if d == "allow" => Ok(RuleEffect::Allow),
        Some(Value::Str(d)) if d == "prompt" => Ok(RuleEffect::Ask),
        Some(Value::Str(d)) if d == "forbidden" => Ok(RuleEffect::Deny),
        Some(other) => Err(format!("decision {other:?} is not allow, prompt or forbidden")),
    };
    let Value::List(tokens) = pattern else {
        return vec![Entry::new(shown(&format!("{pattern:?}")), Err("the pattern is not a list".to_owned()))];
    };
    let mut prefixes: Vec<Vec<String>> = vec![Vec::new()];
    for token in tokens {
        let choices: Vec<&String> = match token {
            Value::Str(s) => vec![s],
            Value::List(alternatives) => alternatives
                .iter()
                .filter_map(|a| if let Value::Str(s) = a { Some(s) } else { None })
                .collect(),
        };
        if choices.is_empty() || prefixes.len() * choices.len() > MAX_EXPANDED {
            return vec![Entry::new(
                shown("[…]"),
                Err("the pattern's alternatives cannot be read".to_owned()),
            )];
        }
        prefixes = prefixes
            .iter()
            .flat_map(|p| choices.iter().map(move |c| [p.clone(), vec![(*c).clone()]].concat()))
            .collect();
    }
    prefixes
        .into_iter()
        .map(|words| {
            let shown = shown(&format!("{words:?}"));
            let rule = effect.clone().and_then(|effect| {
                if words.is_empty() {
                    return Err("the pattern is empty".to_owned());
                }
                let pattern = CommandPattern::prefix(&words).to_string();
                CommandPattern::parse(&pattern)?;
                Ok(PermissionRule::new(effect, COMMAND_RULE_TOOL, Some(pattern)))
            });
            Entry::new(shown, rule)
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Name(String),
    Str(String),
    Open(char),
    Close(char),
    Comma,
    Equals,
    Other(char),
}

/// A value of a call's argument: a string or a (nested) list of them; anything else is read as
/// an empty list, which no pattern accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    Str(String),
    List(Vec<Value>),
}

/// The arguments of a call whose `(` is just before `at`, and where the call ends.
fn call_args(tokens: &[Token], mut at: usize) -> Result<(Vec<(String, Value)>, usize), String> {
    let mut args = Vec::new();
    loop {
        match tokens.get(at) {
            None => return Err("a call is not closed".to_owned()),
            Some(Token::Close(')')) => return Ok((args, at + 1)),
            Some(Token::Comma) => at += 1,
            Some(Token::Name(key)) if tokens.get(at + 1) == Some(&Token::Equals) => {
                let (value, next) = value(tokens, at + 2, 0)?;
                args.push((key.clone(), value));
                at = next;
            }
            Some(_) => {
                let (_, next) = value(tokens, at, 0)?;
                at = next.max(at + 1);
            }
        }
    }
}

fn value(tokens: &[Token], at: usize, depth: usize) -> Result<(Value, usize), String> {
    if depth > 8 {
        return Err("values nest too deeply".to_owned());
    }
    match tokens.get(at) {
        Some(Token::Str(s)) => Ok((Value::Str(s.clone()), at + 1)),
        Some(Token::Open('[')) => {
            let mut items = Vec::new();
            let mut at = at + 1;
            loop {
                match tokens.get(at) {
                    None => return Err("a list is not closed".to_owned()),
                    Some(Token::Close(']')) => return Ok((Value::List(items), at + 1)),
                    Some(Token::Comma) => at += 1,
                    Some(_) => {
                        let (item, next) = value(tokens, at, depth + 1)?;
                        items.push(item);
                        at = next;
                    }
                }
            }
        }
        // A name, a number, a call: skipped to the end of this argument.
        Some(_) => {
            let mut at = at;
            let mut open = 0usize;
            while let Some(token) = tokens.get(at) {
                match token {
                    Token::Open(_) => open += 1,
                    Token::Close(_) if open == 0 => break,
                    Token::Close(_) => open -= 1,
                    Token::Comma if open == 0 => break,
                    _ => {}
                }
                at += 1;
            }
            Ok((Value::List(Vec::new()), at))
        }
        None => Err("a value is missing".to_owned()),
    }
}

fn lex(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '#' => {
                while chars.get(i).is_some_and(|c| *c != '\n') {
                    i += 1;
                }
            }
            c if c.is_whitespace() => i += 1,
            '"' | '\'' => {
                let mut s = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None | Some('\n') => return Err("a string is not closed".to_owned()),
                        Some(&q) if q == c => break,
                        Some('\\') => {
                            let escaped = chars.get(i + 1).copied().ok_or("a string is not closed")?;
                            s.push(match escaped {
                                'n' => '\n',
                                't' => '\t',
                                other => other,
                            });
                            i += 2;
                            continue;
                        }
                        Some(&other) => s.push(other),
                    }
                    i += 1;
                }
                i += 1;
                out.push(Token::Str(s));
            }
            '(' | '[' | '{' => {
                out.push(Token::Open(c));
                i += 1;
            }
            ')' | ']' | '}' => {
                out.push(Token::Close(c));
                i += 1;
            }
            ',' => {
                out.push(Token::Comma);
                i += 1;
            }
            '=' => {
                out.push(Token::Equals);
                i += 1;
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut name = String::new();
                while let Some(&c) = chars.get(i).filter(|c| c.is_alphanumeric() || **c == '_' || **c == '.')
                {
                    name.push(c);
                    i += 1;
                }
                out.push(Token::Name(name));
            }
            other => {
                out.push(Token::Other(other));
                i += 1;
            }
        }
    }
    Ok(out)
}
