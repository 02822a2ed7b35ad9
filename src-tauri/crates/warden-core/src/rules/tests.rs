use warden_protocol::{PermissionRule, RuleEffect, RuleScope};

use super::*;

fn rule(effect: RuleEffect, tool: &str, pattern: Option<&str>) -> PermissionRule {
    PermissionRule::new(effect, tool, pattern.map(str::to_owned))
}

fn book(rules: &[(RuleEffect, &str, Option<&str>, RuleScope)]) -> RuleBook {
    RuleBook::new(rules.iter().map(|(e, t, p, s)| (rule(*e, t, *p), *s)))
}

fn command(book: &RuleBook, command: &str) -> RuleVerdict {
    book.judge(Subject { tool: "bash", command: Some(command), files: &Files::default() })
}

fn write(book: &RuleBook, path: Option<&str>) -> RuleVerdict {
    let files = Files { write: true, paths: vec![path.map(str::to_owned)] };
    book.judge(Subject { tool: "file_write", command: None, files: &files })
}

use RuleEffect::{Allow, Ask, Deny};
use RuleScope::{Managed, Project, User};

#[test]
fn deny_wins_then_ask_then_allow_across_every_scope() {
    let rules = book(&[
        (Allow, "bash", Some("git *"), Project),
        (Ask, "bash", Some("git push *"), User),
        (Deny, "bash", Some("git push --force *"), Managed),
        (Allow, "bash", Some("cargo test *"), User),
    ]);
    let v = command(&rules, "git push --force origin main");
    assert_eq!(v.deny.as_deref(), Some("deny bash: git push --force * (managed)"));
    let v = command(&rules, "git push origin main");
    assert_eq!((v.deny, v.ask.as_deref()), (None, Some("ask bash: git push * (user)")));
    assert_eq!(v.allow.as_deref(), Some("allow bash: git * (project)"), "the allow is there, and loses");
    let v = command(&rules, "git status && cargo test");
    assert_eq!((v.deny, v.ask), (None, None));
    assert_eq!(v.allow.as_deref(), Some("allow bash: git * (project)"));
    assert_eq!(command(&rules, "git status && npm test").allow, None, "every part must be covered");
}

#[test]
fn a_deny_rule_sees_what_an_allow_rule_never_covers() {
    let rules = book(&[(Deny, "bash", Some("git push *"), Project), (Allow, "bash", Some("sudo *"), User)]);
    assert!(command(&rules, "sudo git push").deny.is_some());
    assert!(command(&rules, "sh -c 'git push'").deny.is_some());
    assert_eq!(command(&rules, "sudo ls").allow, None, "sudo is never covered");
    // A program only running could tell: a deny rule cannot check it, so the call asks.
    let v = command(&rules, "$GIT push");
    assert_eq!((v.deny, v.ask.as_deref()), (None, Some("deny bash: git push * (project)")));
}

#[test]
fn path_rules_match_the_resolved_path_only() {
    let rules = book(&[
        (Allow, "write", Some("src/**"), Project),
        (Deny, "write", Some("src/secret/**"), User),
        (Allow, "read", Some("**"), User),
    ]);
    assert!(write(&rules, Some("src/a/b.rs")).allow.is_some());
    assert!(write(&rules, Some("src/secret/k")).deny.is_some());
    // `src/../.git/hooks/x` and a link `src/l → ../.github` resolve outside `src`.
    assert_eq!(write(&rules, Some(".git/hooks/x")).allow, None);
    assert_eq!(write(&rules, Some(".github/workflows/x.yml")).allow, None);
    assert_eq!(write(&rules, None).allow, None, "a path Warden could not resolve is covered by nothing");
    // A read rule is not a write rule.
    let files = Files { write: false, paths: vec![Some("src/a.rs".to_owned())] };
    let read = rules.judge(Subject { tool: "file_read", command: None, files: &files });
    assert_eq!(read.allow.as_deref(), Some("allow read: ** (user)"));
    let both = Files { write: true, paths: vec![Some("src/a.rs".to_owned()), Some("docs/b.md".to_owned())] };
    let patch = rules.judge(Subject { tool: "apply_patch", command: None, files: &both });
    assert_eq!(patch.allow, None, "every path of a patch must be covered");
}

#[test]
fn tools_are_named_exactly_or_by_their_server() {
    let rules = book(&[
        (Allow, "mcp__db__*", None, Project),
        (Ask, "mcp__db__drop", None, Project),
        (Allow, "web_search", None, User),
    ]);
    let judge = |tool: &str| rules.judge(Subject { tool, command: None, files: &Files::default() });
    assert!(judge("mcp__db__query").allow.is_some());
    assert!(judge("mcp__db__drop").ask.is_some());
    assert_eq!(judge("mcp__dbx__query").allow, None);
    assert!(judge("web_search").allow.is_some());
    assert_eq!(judge("web_fetch").allow, None);
}

#[test]
fn a_rule_that_does_not_parse_widens_nothing_and_a_broken_deny_asks() {
    let rules = book(&[
        (Allow, "bash", Some("cargo test && ls"), User),
        (Allow, "write", Some("../**"), User),
        (Deny, "bash", Some("git push $(x)"), Project),
        (Allow, "bash", Some("ls *"), Project),
    ]);
    let problems: Vec<_> = rules.list().into_iter().filter_map(|r| r.problem).collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert_eq!(command(&rules, "cargo test").allow, None);
    assert_eq!(write(&rules, Some("x")).allow, None);
    let v = command(&rules, "ls");
    assert_eq!(v.ask.as_deref(), Some("deny bash: git push $(x) (project)"), "{v:?}");
    for bad in [
        rule(Allow, "", None),
        rule(Allow, "web_search", Some("x")),
        rule(Allow, "mcp__*", None),
        rule(Allow, "*", None),
        rule(Allow, "network", Some("not a host")),
    ] {
        assert!(check(&bad).is_err(), "{bad}");
    }
}

#[test]
fn the_organisation_can_let_only_its_own_allows_count() {
    let rules = book(&[(Allow, "bash", Some("ls *"), User), (Allow, "bash", Some("cargo *"), Managed)])
        .with_managed_allows_only(true);
    assert_eq!(command(&rules, "ls"), RuleVerdict::default());
    assert!(command(&rules, "cargo test").allow.is_some());
}

#[test]
fn the_read_only_class_allows_only_commands_that_read_and_loses_to_any_deny_or_ask() {
    let rules = book(&[
        (Allow, "bash", Some("@read-only"), Project),
        (Ask, "bash", Some("git log *"), User),
        (Deny, "bash", Some("cat *"), Managed),
    ]);
    let v = command(&rules, "git status | head -5");
    assert_eq!(v.allow.as_deref(), Some("allow bash: @read-only (project)"));
    assert_eq!((v.deny, v.ask), (None, None));
    assert_eq!(command(&rules, "git push").allow, None);
    assert_eq!(command(&rules, "ls > list.txt").allow, None, "a redirection into a file writes");
    let v = command(&rules, "git log --oneline");
    assert_eq!(v.ask.as_deref(), Some("ask bash: git log * (user)"), "an ask rule wins over the class");
    assert!(command(&rules, "cat README.md").deny.is_some(), "a deny rule wins over the class");
}
