use std::path::Path;

use warden_protocol::{RuleEffect, RuleImport, RuleOrigin, RuleScope};

use super::*;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap_or(path)).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
}

/// `(effect, tool, pattern, scope, ticked)` of each candidate, in order.
fn shown(import: &RuleImport) -> Vec<(RuleEffect, String, Option<String>, RuleScope, bool)> {
    import
        .candidates
        .iter()
        .map(|c| (c.rule.effect, c.rule.tool.clone(), c.rule.pattern.clone(), c.scope, c.ticked))
        .collect()
}

/// A Claude Code settings file as users write them: allow, ask and deny entries of every kind.
const CLAUDE_PROJECT: &str = r#"{
  "permissions": {
    "allow": [
      "Bash(npm run test:*)",
      "Bash(git status)",
      "Bash(git diff:*)",
      "Bash(sh:*)",
      "Bash",
      "Read(src/**)",
      "Edit(./docs/*.md)",
      "Write",
      "WebFetch(domain:docs.rs)",
      "WebSearch",
      "mcp__github",
      "mcp__db__query",
      "Bash(npm * build)",
      "Read(~/.zshrc)",
      "TodoWrite",
      "Bash(@read-only)"
    ],
    "ask": ["Bash(git push:*)", "Edit(/package.json)"],
    "deny": ["Read(.env)", "Bash(curl:*)", "WebFetch"]
  },
  "model": "sonnet"
}"#;

#[test]
fn a_claude_code_settings_file_is_converted_and_what_cannot_be_is_listed() {
    let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (home, project) = (root.path().join("home"), root.path().join("project"));
    write(&project.join(".claude/settings.json"), CLAUDE_PROJECT);
    write(
        &home.join(".claude/settings.json"),
        r#"{"permissions": {"allow": ["Bash(cargo test:*)"], "deny": ["Edit(/x)"]}}"#,
    );
    let found = sources(&project, &home);
    assert_eq!(found.len(), 2, "{found:?}");
    let import = import(&found, &project);
    let s = |t: &str| Some(t.to_owned());
    use RuleEffect::{Allow, Ask, Deny};
    use RuleScope::{Project, User};
    assert_eq!(
        shown(&import),
        [
            (Allow, "bash".to_owned(), s("cargo test *"), User, true),
            (Allow, "bash".to_owned(), s("npm run test *"), Project, true),
            (Allow, "bash".to_owned(), s("git status"), Project, true),
            (Allow, "bash".to_owned(), s("git diff *"), Project, true),
            (Allow, "bash".to_owned(), s("sh *"), Project, false),
            (Allow, "bash".to_owned(), None, Project, false),
            (Allow, "read".to_owned(), s("src/**"), Project, true),
            (Allow, "write".to_owned(), s("docs/*.md"), Project, true),
            (Allow, "write".to_owned(), None, Project, false),
            (Allow, "network".to_owned(), s("docs.rs"), Project, true),
            (Allow, "web_search".to_owned(), None, Project, true),
            (Allow, "mcp__github__*".to_owned(), None, Project, true),
            (Allow, "mcp__db__query".to_owned(), None, Project, true),
            (Ask, "bash".to_owned(), s("git push *"), Project, true),
            (Ask, "write".to_owned(), s("package.json"), Project, true),
            (Deny, "read".to_owned(), s("**/.env"), Project, true),
            (Deny, "bash".to_owned(), s("curl *"), Project, true),
            (Deny, "network".to_owned(), None, Project, true),
        ]
    );
    // Each is labelled with its file; the wide allows say why they are unticked.
    let sh = &import.candidates[4];
    assert_eq!(
        sh.rule.origin,
        Some(RuleOrigin::Imported { from: project.join(".claude/settings.json").display().to_string() })
    );
    assert!(sh.warning.as_deref().unwrap_or_default().contains("runs whatever it is given"), "{sh:?}");
    // Listed, never guessed: a `*` inside a command, a path in the home, a tool Warden does not
    // have, `/x` in the user's file.
    let skipped: Vec<&str> = import.skipped.iter().map(|s| s.entry.as_str()).collect();
    assert_eq!(
        skipped,
        ["Edit(/x)", "Bash(npm * build)", "Read(~/.zshrc)", "TodoWrite", "Bash(@read-only)"],
        "{:?}",
        import.skipped
    );
    assert!(import.skipped.iter().all(|s| !s.why.is_empty()));
}

#[test]
fn codex_prefix_rules_are_converted_with_their_alternatives() {
    let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (home, project) = (root.path().join("home"), root.path().join("project"));
    write(
        &home.join(".codex/rules/default.rules"),
        r#"
# Allowed without asking.
prefix_rule(pattern = ["cargo", "test"])
prefix_rule(
    pattern = ["git", ["push", "fetch"]],
    decision = "prompt",            # ask
    justification = "talks to the remote",
    match = [["git", "push", "origin", "main"]],
    not_match = ["git status"],
)
prefix_rule(pattern = ["rm", "-rf"], decision = "forbidden")
prefix_rule(pattern = ["bash"], decision = "allow")
prefix_rule(pattern = ["x"], decision = "maybe")
host_executable(name = "git", paths = ["/usr/bin/git"])
"#,
    );
    let import = import(&sources(&project, &home), &project);
    let s = |t: &str| Some(t.to_owned());
    use RuleEffect::{Allow, Ask, Deny};
    assert_eq!(
        shown(&import),
        [
            (Allow, "bash".to_owned(), s("cargo test *"), RuleScope::User, true),
            (Ask, "bash".to_owned(), s("git push *"), RuleScope::User, true),
            (Ask, "bash".to_owned(), s("git fetch *"), RuleScope::User, true),
            (Deny, "bash".to_owned(), s("rm -rf *"), RuleScope::User, true),
            (Allow, "bash".to_owned(), s("bash *"), RuleScope::User, false),
        ]
    );
    let why: Vec<&str> = import.skipped.iter().map(|s| s.why.as_str()).collect();
    assert_eq!(why.len(), 2, "{why:?}");
    assert!(
        why[0].contains("not allow, prompt or forbidden") && why[1].contains("host_executable"),
        "{why:?}"
    );
}

#[test]
fn a_file_that_cannot_be_read_is_named_and_the_others_still_convert() {
    let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (home, project) = (root.path().join("home"), root.path().join("project"));
    write(&home.join(".claude/settings.json"), "{ not json");
    write(&project.join(".claude/settings.local.json"), r#"{"permissions": {"allow": ["Bash(ls:*)"]}}"#);
    write(&project.join(".codex/rules/broken.rules"), "prefix_rule(pattern = [\"a\"");
    let import = import(&sources(&project, &home), &project);
    assert_eq!(import.files.len(), 3);
    assert_eq!(import.candidates.len(), 1);
    assert_eq!(import.skipped.len(), 2, "{:?}", import.skipped);
    assert!(import.skipped[0].why.contains("not JSON"));
}
