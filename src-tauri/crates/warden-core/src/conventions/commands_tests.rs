use std::path::Path;

use super::*;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn arguments_replace_their_placeholders() {
    assert_eq!(expand("Fix issue #$ARGUMENTS now.", " 123 ").text, "Fix issue #123 now.");
    assert_eq!(expand("Review $1 by $2 ($3).", "\"pr 456\" alice").text, "Review pr 456 by alice ().");
    assert_eq!(expand("Costs $5 and $0 and $", "x").text, "Costs  and $0 and $");
}

#[test]
fn arguments_a_body_does_not_use_are_said_after_it() {
    assert_eq!(
        expand("Write the tests.", "for src/lib.rs").text,
        "Write the tests.\n\nARGUMENTS: for src/lib.rs"
    );
    assert_eq!(expand("Write the tests.", "  ").text, "Write the tests.");
}

#[test]
fn shell_lines_and_file_references_are_collected_in_order() {
    let body = "Status: !`git status`\nDiff: !`git diff HEAD`\nEmpty: !``\nSplit: !`no\nend`\n\
See @src/main.rs, and @docs/a.md. Mail me@example.com or `@notme`. Again @src/main.rs";
    let e = expand(body, "");
    assert_eq!(e.shell, ["git status", "git diff HEAD"]);
    assert_eq!(e.files, ["src/main.rs", "docs/a.md"]);
}

#[test]
fn arguments_reach_the_shell_lines_they_are_placed_in() {
    let e = expand("Log: !`git log --oneline -n $1`", "5");
    assert_eq!(e.shell, ["git log --oneline -n 5"]);
}

#[test]
fn commands_come_from_warden_then_the_project_with_their_front_matter() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let (warden, project) = (base.join("w"), base.join("p"));
    write(&warden.join("commands/commit.md"), "---\ndescription: Commit the work\nargument-hint: [message]\nallowed-tools: Bash(git add:*), Bash(git commit:*)\nmodel: claude-haiku-4-5\n---\nCommit with $ARGUMENTS.");
    write(&project.join(".claude/commands/commit.md"), "The project's commit.");
    write(&project.join(".claude/commands/review.md"), "Review the diff.");
    write(&project.join(".agents/commands/test.md"), "Run the tests.");
    write(&project.join(".agents/commands/notes.txt"), "not a command");
    write(&project.join(".agents/commands/help.md"), "a built-in's name");
    let found = Commands::discover(Some(&warden), Some(&project));
    let names: Vec<&str> = found.list.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["commit", "review", "test"]);
    let commit = found.get("commit").unwrap();
    assert_eq!(commit.origin, Origin::Warden);
    assert_eq!(commit.description.as_deref(), Some("Commit the work"));
    assert_eq!(commit.argument_hint.as_deref(), Some("[message]"));
    assert_eq!(
        commit.allowed_tools.as_deref(),
        Some(&["Bash(git add:*)".to_owned(), "Bash(git commit:*)".to_owned()][..])
    );
    assert_eq!(commit.model.as_deref(), Some("claude-haiku-4-5"));
    assert_eq!(commit.body, "Commit with $ARGUMENTS.");
    assert_eq!(found.get("review").unwrap().relative.as_deref(), Some(".claude/commands/review.md"));
    assert_eq!(found.problems.len(), 2, "{:?}", found.problems);
}

#[test]
fn a_command_acts_on_at_most_its_first_lines_and_files_and_says_so() {
    let body: String = (0..40).map(|n| format!("!`echo {n}` @f{n}.txt\n")).collect();
    let e = expand(&body, "");
    assert_eq!(e.shell.len(), MAX_CALLS);
    assert_eq!(e.files.len(), MAX_CALLS);
    assert_eq!(e.shell[MAX_CALLS - 1], format!("echo {}", MAX_CALLS - 1));
    assert!(e.text.ends_with("of this command were acted on.)"), "{}", e.text);
    assert!(!expand("!`a` @b", "").text.contains("acted on"), "a short command is not noted");
}
