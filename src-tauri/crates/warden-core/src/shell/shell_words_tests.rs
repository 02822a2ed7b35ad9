//! The lexer, case by case (the differential against bash is `shell_words_vs_bash.rs`).

use super::*;

fn words(cmd: &str) -> Vec<Vec<String>> {
    parse(cmd)
        .map(|p| p.segments.into_iter().map(|s| s.words.iter().map(Word::text).collect()).collect())
        .unwrap_or_default()
}

#[test]
fn quotes_and_escapes_are_removed() {
    assert_eq!(words(r#"rm -rf "/" 'a b' c\ d $'\x2f'"#), [["rm", "-rf", "/", "a b", "c d", "/"]]);
}

#[test]
fn operators_split_segments() {
    assert_eq!(words("a && b || c; d | e & f\ng").len(), 7);
    assert!(parse("ls").map(|p| !p.compound).unwrap_or(false));
    assert!(parse("ls; ls").map(|p| p.compound).unwrap_or(false));
    let piped = parse("a | b || c").unwrap_or_default();
    assert_eq!(piped.segments.iter().map(|s| s.piped_in).collect::<Vec<_>>(), [false, true, false]);
}

#[test]
fn substitutions_are_commands_too() {
    let w = words("echo \"$(rm -rf /)\" `shutdown now`");
    assert!(w.contains(&vec!["rm".to_owned(), "-rf".to_owned(), "/".to_owned()]));
    assert!(w.contains(&vec!["shutdown".to_owned(), "now".to_owned()]));
    let parsed = parse("echo \"$(f(){ f|f& };f)\"").unwrap_or_default();
    assert_eq!(parsed.scripts, ["f(){ f|f& };f"]);
}

#[test]
fn expansions_are_kept_apart_from_text() {
    let parsed = parse("rm -rf \"${HOME%/}\" '$HOME' ~root").unwrap_or_default();
    let words = &parsed.segments[0].words;
    assert_eq!(
        words[2].0,
        [
            Piece::Text { text: String::new(), quoted: true },
            Piece::Param { expr: "HOME%/".into(), quoted: true }
        ]
    );
    assert_eq!(words[3].0, [Piece::Text { text: "$HOME".into(), quoted: true }]);
    assert_eq!(words[4].0, [Piece::Text { text: "~root".into(), quoted: false }]);
}

#[test]
fn redirections_are_set_aside() {
    let parsed = parse("echo hi > /dev/sda 2>&1").unwrap_or_default();
    assert_eq!(parsed.segments[0].words.len(), 2);
    assert_eq!(parsed.segments[0].redirects[0].op, ">");
    assert_eq!(parsed.segments[0].redirects[0].target.text(), "/dev/sda");
    assert_eq!(parsed.segments[0].redirects[1].op, "2>&");
    assert_eq!(parsed.segments[0].redirects[1].target.text(), "1");
}

#[test]
fn heredoc_bodies_are_data() {
    let parsed = parse("cat <<'EOF' > notes.md\nrm -rf /\nEOF\nls").unwrap_or_default();
    assert_eq!(words("cat <<'EOF' > notes.md\nrm -rf /\nEOF\nls"), [vec!["cat"], vec!["ls"]]);
    assert_eq!(parsed.segments[0].redirects[0].body.as_deref(), Some("rm -rf /\n"));
    let tabs = words("cat <<-END\n\trm -rf /\n\tEND\necho done");
    assert_eq!(tabs, [vec!["cat"], vec!["echo", "done"]]);
}

#[test]
fn nesting_is_bounded() {
    let deep = "$(".repeat(40) + &")".repeat(40);
    assert_eq!(parse(&deep), Err(TooDeep));
}
