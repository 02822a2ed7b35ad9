//! The lexer against the real shell: thousands of seeded random command lines — plain text,
//! backslash escapes and line continuations, single and double quotes with their escapes, ANSI-C
//! quoting, comments, `;`/`&&`/newline separators and quoted-delimiter heredocs — are split by
//! [`super::shell_words::parse`] and by `bash` itself, which runs every line with a function
//! that prints the words it was given. The two must agree word for word. Parameters, globs,
//! tildes and braces are left out: the lexer keeps them as written and `expand` evaluates them.

use std::io::Write;
use std::process::{Command, Stdio};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::shell_words::{parse, Word};

/// Lines per run; `WARDEN_SHELL_DIFF_CASES` and `WARDEN_SHELL_DIFF_SEED` change the run
/// (`scripts/fuzz.sh` runs many more).
const CASES: usize = 3_000;
const SEED: u64 = 0x5eed_ba54;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}
/// Separates one line's output from the next (an ASCII control character no case contains).
const RECORD: char = '\u{1d}';
/// Ends the words of one call of the printing function.
const CALL: char = '\u{1e}';
/// Ends one word.
const WORD: char = '\u{1f}';

/// Characters plain words are made of: no quoting, no expansion, no operator, no glob.
const PLAIN: &[char] =
    &['a', 'b', 'z', 'K', '0', '7', '.', '_', '/', '=', ':', ',', '+', '@', '%', '-', 'é', '中'];
/// Characters that may stand inside quotes or after a backslash: the shell's special ones too.
const ANY: &[char] = &[
    'a', 'Z', '1', ' ', '\t', ';', '&', '|', '(', ')', '<', '>', '$', '`', '"', '\'', '\\', '#', '*', '?',
    '[', '~', '{', '}', '!', '\n', 'é',
];

fn pick<T: Copy>(rng: &mut StdRng, from: &[T]) -> T {
    from[rng.random_range(0..from.len())]
}

fn plain(rng: &mut StdRng) -> String {
    (0..rng.random_range(1..5)).map(|_| pick(rng, PLAIN)).collect()
}

/// One piece of a word, as written.
fn unit(rng: &mut StdRng) -> String {
    match rng.random_range(0..7) {
        0 | 1 => plain(rng),
        2 => format!("\\{}", pick(rng, ANY)),
        3 => {
            let inner: String =
                (0..rng.random_range(0..6)).map(|_| pick(rng, ANY)).filter(|c| *c != '\'').collect();
            format!("'{inner}'")
        }
        4 => {
            let mut inner = String::new();
            for _ in 0..rng.random_range(0..6) {
                match rng.random_range(0..4) {
                    0 => inner.push_str(pick(rng, &["\\\"", "\\\\", "\\$", "\\`", "\\a", "\\\n", "\\'"])),
                    _ => inner.extend(Some(pick(rng, ANY)).filter(|c| !matches!(c, '"' | '\\' | '$' | '`'))),
                }
            }
            format!("\"{inner}\"")
        }
        5 => {
            let mut inner = String::new();
            for _ in 0..rng.random_range(0..5) {
                match rng.random_range(0..3) {
                    0 => inner.push_str(pick(rng, &["\\n", "\\t", "\\x41", "\\101", "\\\\", "\\'", "\\\""])),
                    _ => inner.extend(Some(pick(rng, ANY)).filter(|c| !matches!(c, '\'' | '\\'))),
                }
            }
            format!("$'{inner}'")
        }
        _ => format!("${}", pick(rng, &['%', '.', ',', '/', ':', '=', '+'])),
    }
}

fn word(rng: &mut StdRng) -> String {
    let word: String = (0..rng.random_range(1..4)).map(|_| unit(rng)).collect();
    // Inside a word `#` is plain text.
    if rng.random_range(0..25) == 0 {
        return format!("{word}#x");
    }
    word
}

/// One call of the printing function `p`, sometimes fed by a heredoc whose body must stay data.
fn segment(rng: &mut StdRng) -> String {
    let words: Vec<String> = (0..rng.random_range(0..4)).map(|_| word(rng)).collect();
    let mut segment = format!("p {}", words.join(" "));
    if rng.random_range(0..6) == 0 {
        let body: Vec<String> = (0..rng.random_range(0..3))
            .map(|_| (0..rng.random_range(0..8)).map(|_| pick(rng, ANY)).filter(|c| *c != '\n').collect())
            .map(|line: String| if line == "END" { format!("{line} ") } else { line })
            .collect();
        let mut text = format!(" <<'END'\n{}", body.iter().map(|l| format!("{l}\n")).collect::<String>());
        text.push_str("END");
        // The separator comes after the body, so the next command starts on a new line.
        return segment + &text;
    }
    segment.push(' ');
    segment
}

fn line(rng: &mut StdRng) -> String {
    let mut line = segment(rng);
    for _ in 0..rng.random_range(0..3) {
        let heredoc = line.ends_with("END");
        let separator = if heredoc { "\n" } else { pick(rng, &["; ", " && ", "\n"]) };
        line.push_str(separator);
        line.push_str(&segment(rng));
    }
    if rng.random_range(0..8) == 0 {
        // A comment runs to the end of its line, whatever it holds.
        let comment: String =
            (0..rng.random_range(0..8)).map(|_| pick(rng, ANY)).filter(|c| *c != '\n').collect();
        line.push_str(if line.ends_with("END") { "\n#" } else { " #" });
        line.push_str(&comment);
    }
    line
}

/// What the lexer makes of a line: the words of every call of `p`, in order.
fn lexed(line: &str) -> Vec<Vec<String>> {
    match parse(line) {
        Ok(parsed) => parsed
            .segments
            .iter()
            .map(|s| s.words.iter().map(Word::text).collect::<Vec<_>>())
            .filter(|words| words.first().is_some_and(|w| w == "p"))
            .map(|words| words[1..].to_vec())
            .collect(),
        Err(_) => vec![vec!["<too deep>".to_owned()]],
    }
}

/// What bash makes of every line, run one after another in a single shell.
fn bashed(lines: &[String]) -> Vec<Vec<Vec<String>>> {
    let (word, call, record) = (WORD as u32, CALL as u32, RECORD as u32);
    let mut script =
        format!("p() {{ for w in \"$@\"; do printf '%s\\x{word:x}' \"$w\"; done; printf '\\x{call:x}'; }}\n");
    for line in lines {
        script.push_str(&format!("printf '\\x{record:x}'\n{line}\n"));
    }
    let mut child = match Command::new("bash")
        .arg("--norc")
        .arg("--noprofile")
        .arg("-s")
        .env_clear()
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => panic!("bash could not start: {error}"),
    };
    if let Some(mut stdin) = child.stdin.take() {
        assert!(stdin.write_all(script.as_bytes()).is_ok(), "bash did not take the script");
    }
    let output = match child.wait_with_output() {
        Ok(output) => output,
        Err(error) => panic!("bash did not finish: {error}"),
    };
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.split(RECORD)
        .skip(1)
        .map(|record| {
            record
                .split_terminator(CALL)
                .map(|call| call.split_terminator(WORD).map(str::to_owned).collect())
                .collect()
        })
        .collect()
}

#[test]
fn the_lexer_splits_words_as_bash_does() {
    let mut rng = StdRng::seed_from_u64(setting("WARDEN_SHELL_DIFF_SEED", SEED));
    let cases = setting("WARDEN_SHELL_DIFF_CASES", CASES as u64);
    let lines: Vec<String> = (0..cases).map(|_| line(&mut rng)).collect();
    let shell = bashed(&lines);
    assert_eq!(shell.len(), lines.len(), "bash printed {} records for {} lines", shell.len(), lines.len());
    let differing: Vec<String> = lines
        .iter()
        .zip(&shell)
        .filter(|(line, shell)| lexed(line) != **shell)
        .take(5)
        .map(|(line, shell)| format!("{line:?}\n  bash:  {shell:?}\n  lexer: {:?}", lexed(line)))
        .collect();
    assert!(differing.is_empty(), "the lexer and bash disagree:\n{}", differing.join("\n"));
}

/// The comparison can fail: bash's answer is read back exactly, and a reading that honoured a
/// backslash inside single quotes (which bash does not) differs from it.
#[test]
fn a_difference_from_bash_is_seen() {
    let line = r#"p 'a\'b "c\d" '' ; p"#.to_owned();
    let shell = bashed(std::slice::from_ref(&line));
    let words = |w: &[&str]| w.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
    assert_eq!(shell, [vec![words(&["a\\b", "c\\d", ""]), words(&[])]]);
    assert_ne!(vec![words(&["ab", "cd", ""]), words(&[])], shell[0]);
    assert_eq!(lexed(&line), shell[0]);
}
