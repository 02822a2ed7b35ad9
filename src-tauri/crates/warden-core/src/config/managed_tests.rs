use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use warden_protocol::{PermissionRule, RuleEffect};

use super::Managed;

/// A policy folder of this test's user (mode 0755) and the path of its file.
fn policy_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = dir.path().join("managed-settings.json");
    (dir, file)
}

fn write(file: &Path, text: &str) {
    std::fs::write(file, text).unwrap();
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
}

fn me() -> u32 {
    nix::unistd::geteuid().as_raw()
}

fn network(effect: RuleEffect, pattern: Option<&str>) -> PermissionRule {
    PermissionRule { effect, tool: "network".to_owned(), pattern: pattern.map(str::to_owned), origin: None }
}

/// What every host gets when the file cannot be used.
fn closed() -> Vec<PermissionRule> {
    vec![network(RuleEffect::Deny, None)]
}

#[test]
fn no_file_is_no_policy() {
    let (_dir, file) = policy_folder();
    let managed = Managed::load_owned_by(&file, me());
    assert!(managed.rules().is_empty());
    assert_eq!(managed.status().problem, None);
}

#[test]
fn the_files_rules_and_switches_are_applied_and_what_this_version_does_not_know_is_named() {
    let (_dir, file) = policy_folder();
    write(
        &file,
        r#"{ "permissionRules": [
              { "effect": "deny", "tool": "network", "pattern": "*.pastebin.test" },
              { "effect": "allow", "tool": "network", "pattern": "registry.corp.test:443" },
              { "effect": "deny", "tool": "bash", "pattern": "git push *" } ],
             "allowManagedRulesOnly": true,
             "disableAlways": true,
             "allowedMcpServers": ["github"],
             "allowedDomains": ["*.corp.test", "crates.io:443"],
             "futureSetting": true }"#,
    );
    let managed = Managed::load_owned_by(&file, me());
    let status = managed.status();
    assert_eq!(status.problem, None);
    assert_eq!(
        managed.rules(),
        [
            network(RuleEffect::Deny, Some("*.pastebin.test")),
            network(RuleEffect::Allow, Some("registry.corp.test:443")),
            PermissionRule::new(RuleEffect::Deny, "bash", Some("git push *".to_owned())),
        ]
    );
    assert_eq!(status.rules, managed.rules());
    assert_eq!(status.file, file.display().to_string());
    assert!(managed.allows_only_its_own() && managed.forbids_always() && !managed.forbids_autonomous());
    assert!(status.managed_rules_only && status.no_always && !status.no_autonomous);
    assert_eq!(managed.allowed_mcp_servers(), Some(vec!["github".to_owned()]));
    assert_eq!(managed.allowed_domains(), Some(vec!["*.corp.test".to_owned(), "crates.io:443".to_owned()]));
    let warnings = status.warnings.join("\n");
    assert!(warnings.contains("\"futureSetting\" is not a setting"), "{warnings}");
}

/// A policy whose rule or switch cannot be read is no policy of lesser strength: the file is
/// unusable, and then no allow rule of any scope counts, "always" and Autonomous are off.
#[test]
fn a_rule_or_switch_that_does_not_parse_makes_the_policy_unusable_and_strict() {
    for text in [
        r#"{ "permissionRules": [ { "effect": "allow", "tool": "bash", "pattern": "a && b" } ] }"#,
        r#"{ "permissionRules": [ { "effect": "deny", "tool": "write", "pattern": "../x" } ] }"#,
        r#"{ "disableAlways": "yes" }"#,
        r#"{ "allowedDomains": ["not a host"] }"#,
        r#"{ "allowedMcpServers": "github" }"#,
    ] {
        let (_dir, file) = policy_folder();
        write(&file, text);
        let managed = Managed::load_owned_by(&file, me());
        assert!(managed.status().problem.is_some(), "{text}");
        assert!(
            managed.allows_only_its_own() && managed.forbids_always() && managed.forbids_autonomous(),
            "{text}"
        );
    }
}

/// A broken policy is never no policy: each way a file can be unusable closes the network to every
/// host, and says why.
#[test]
fn a_file_that_cannot_be_used_closes_the_network_and_says_why() {
    let cases: [(&str, &str); 5] = [
        ("{ not json", "not JSON"),
        ("[]", "not a JSON object"),
        (r#"{"permissionRules": {"effect": "deny"}}"#, "permissionRules"),
        (r#"{"permissionRules": [{"effect": "maybe", "tool": "network"}]}"#, "permissionRules"),
        (
            r#"{"permissionRules": [{"effect": "deny", "tool": "network", "pattern": "a b"}]}"#,
            "permissionRules[0]",
        ),
    ];
    for (text, why) in cases {
        let (_dir, file) = policy_folder();
        write(&file, text);
        let managed = Managed::load_owned_by(&file, me());
        let problem = managed.status().problem.unwrap_or_else(|| panic!("{text} was taken as a policy"));
        assert!(problem.contains(why), "{text}: {problem}");
        assert_eq!(managed.rules(), closed(), "{text}");
    }

    let (_dir, file) = policy_folder();
    std::fs::create_dir(&file).unwrap();
    assert!(Managed::load_owned_by(&file, me()).status().problem.is_some_and(|p| p.contains("not a file")));

    let (_dir, file) = policy_folder();
    write(
        &file,
        &format!(r#"{{"permissionRules": [], "pad": "{}"}}"#, "x".repeat(super::MAX_BYTES as usize)),
    );
    let managed = Managed::load_owned_by(&file, me());
    assert!(managed.status().problem.is_some_and(|p| p.contains("larger than")));
    assert_eq!(managed.rules(), closed());
}

/// Whoever can write the file could change everyone's policy: a file or folder others may write,
/// or one that is not root's, is not taken.
#[test]
fn a_policy_others_could_change_is_not_taken() {
    let good = r#"{"permissionRules": [{"effect": "allow", "tool": "network", "pattern": "a.test"}]}"#;
    let (dir, file) = policy_folder();
    write(&file, good);
    assert_eq!(Managed::load_owned_by(&file, me()).status().problem, None, "the control: a good file");

    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o664)).unwrap();
    let managed = Managed::load_owned_by(&file, me());
    assert!(managed.status().problem.is_some_and(|p| p.contains("written by others")));
    assert_eq!(managed.rules(), closed());

    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let managed = Managed::load_owned_by(&file, me());
    assert!(managed.status().problem.is_some_and(|p| p.contains("folder may be written by others")));
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();

    // Owned by someone else than the one expected: as root, a file given to nobody; as any other
    // user, the user's own file where root's is expected.
    if me() == 0 {
        nix::unistd::chown(&file, Some(nix::unistd::Uid::from_raw(65534)), None).unwrap();
        let managed = Managed::load(&file);
        assert!(managed.status().problem.is_some_and(|p| p.contains("belongs to user 65534, not root")));
        assert_eq!(managed.rules(), closed());
    } else {
        let managed = Managed::load(&file);
        assert!(managed.status().problem.is_some_and(|p| p.contains("not root")));
        assert_eq!(managed.rules(), closed());
    }
}
