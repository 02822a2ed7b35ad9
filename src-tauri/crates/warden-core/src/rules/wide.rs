//! Which allow rules are wider than one program prefix: what Settings warns about before adding
//! one, and what an import offers unticked.

use warden_protocol::{
    PermissionRule, RuleEffect, COMMAND_RULE_TOOL, NETWORK_RULE_TOOL, READ_RULE_TOOL, WRITE_RULE_TOOL,
};

use super::NEVER_REMEMBERED;
use crate::shell::command_rule::CommandPattern;

/// Programs that run whatever they are given: a prefix rule on one covers every program.
const RUN_ANYTHING: &[&str] = &[
    "sh", "bash", "dash", "zsh", "fish", "sudo", "doas", "env", "xargs", "eval", "exec", "python", "python3",
    "node", "perl", "ruby",
];

/// Why `rule` deserves a second look before it is added, if it does.
pub fn wide_allow(rule: &PermissionRule) -> Option<String> {
    if rule.effect != RuleEffect::Allow {
        return None;
    }
    let pattern = rule.pattern.as_deref().map(str::trim).filter(|p| !p.is_empty());
    match (rule.tool.as_str(), pattern) {
        (COMMAND_RULE_TOOL, None) => Some("it allows every command".to_owned()),
        (COMMAND_RULE_TOOL, Some(pattern)) => {
            let pattern = CommandPattern::parse(pattern).ok()?;
            // A class of commands (`@read-only`) is checked word by word: it covers no program whole.
            let program = pattern.program()?.rsplit('/').next().unwrap_or_default();
            if !pattern.takes_any_rest() {
                return None;
            }
            if RUN_ANYTHING.contains(&program) {
                Some(format!("`{program}` runs whatever it is given: this allows every command"))
            } else if NEVER_REMEMBERED.contains(&program) {
                Some(format!(
                    "`{program}` does what its arguments say: this allows whatever it is next asked to do"
                ))
            } else {
                None
            }
        }
        (READ_RULE_TOOL | WRITE_RULE_TOOL, None | Some("**" | "**/*" | "*")) => Some(format!(
            "it allows {} every file of the project",
            if rule.tool == WRITE_RULE_TOOL { "writing" } else { "reading" }
        )),
        (NETWORK_RULE_TOOL, None | Some("*")) => Some("it allows every host".to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_wider_than_one_program_prefix_are_named() {
        let allow = |tool: &str, pattern: Option<&str>| {
            PermissionRule::new(RuleEffect::Allow, tool, pattern.map(str::to_owned))
        };
        for (tool, pattern) in [
            ("bash", None),
            ("bash", Some("sh *")),
            ("bash", Some("sudo *")),
            ("bash", Some("rm *")),
            ("bash", Some("/usr/bin/curl *")),
            ("write", None),
            ("write", Some("**")),
            ("network", None),
        ] {
            assert!(wide_allow(&allow(tool, pattern)).is_some(), "{tool} {pattern:?}");
        }
        for (tool, pattern) in [
            ("bash", Some("cargo test *")),
            ("bash", Some("rm build.log")),
            ("write", Some("src/**")),
            ("mcp__db__*", None),
            ("bash", Some("@read-only")),
        ] {
            assert_eq!(wide_allow(&allow(tool, pattern)), None, "{tool} {pattern:?}");
        }
        let deny = PermissionRule::new(RuleEffect::Deny, "bash", None);
        assert_eq!(wide_allow(&deny), None, "a deny never widens");
    }
}
