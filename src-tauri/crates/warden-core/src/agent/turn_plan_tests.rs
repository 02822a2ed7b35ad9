use super::*;
use crate::conventions::{Command, Origin, Skill};

fn conventions() -> Conventions {
    let mut c = Conventions::default();
    c.commands.list.push(Command {
        name: "commit".into(),
        description: None,
        argument_hint: None,
        allowed_tools: Some(vec![
            "Bash(git add:*)".into(),
            "Read".into(),
            "mcp__gh__create_pr".into(),
            "Task".into(),
        ]),
        model: Some("claude-haiku-4-5".into()),
        origin: Origin::Project,
        path: "/p/.claude/commands/commit.md".into(),
        relative: Some(".claude/commands/commit.md".into()),
        body: "Status: !`git status --short`\nSee @CHANGELOG.md\nMessage: $ARGUMENTS".into(),
    });
    c.skills.list.push(Skill {
        name: "pdf".into(),
        description: "PDF forms".into(),
        origin: Origin::Project,
        dir: "/p/.claude/skills/pdf".into(),
        relative: Some(".claude/skills/pdf".into()),
    });
    c
}

#[test]
fn a_plain_message_is_sent_as_it_is() {
    let (text, plan) = prepare(&conventions(), "/usr/bin is odd".into(), "anthropic");
    assert_eq!(text, "/usr/bin is odd");
    assert_eq!(plan, TurnPlan::default());
}

#[test]
fn a_command_becomes_its_body_with_calls_through_the_runner_and_a_narrower_offer() {
    let (text, plan) = prepare(&conventions(), "/commit fix the parser".into(), "anthropic");
    assert!(
        text.starts_with("Status: !`git status --short`\nSee @CHANGELOG.md\nMessage: fix the parser"),
        "{text}"
    );
    assert!(text.contains("their results follow"), "{text}");
    assert_eq!(
        plan.calls,
        [
            ("bash".to_owned(), json!({"command": "git status --short"})),
            ("file_read".to_owned(), json!({"path": "CHANGELOG.md"})),
        ]
    );
    let only: Vec<&str> = plan.only_tools.as_ref().unwrap().iter().map(String::as_str).collect();
    assert_eq!(only, ["Task", "bash", "cancel_command", "command_output", "file_read", "mcp__gh__create_pr"]);
    assert_eq!(plan.model.as_deref(), Some("claude-haiku-4-5"));
    assert_eq!(plan.invoked.as_deref(), Some("/commit"));
}

#[test]
fn a_command_s_model_of_another_vendor_is_not_used() {
    let (_, plan) = prepare(&conventions(), "/commit x".into(), "openai-compatible");
    assert_eq!(plan.model, None);
}

#[test]
fn a_skill_invoked_by_the_user_is_loaded_by_a_skill_call() {
    let (text, plan) = prepare(&conventions(), "/pdf fill form.pdf".into(), "ollama");
    assert_eq!(text, "Use the skill `pdf` for this: fill form.pdf");
    assert_eq!(plan.calls, [("skill".to_owned(), json!({"name": "pdf"}))]);
    assert_eq!(plan.only_tools, None);
}

#[test]
fn a_command_with_an_empty_body_is_sent_as_typed() {
    let mut c = conventions();
    c.commands.list[0].body = "  \n".into();
    c.commands.list[0].allowed_tools = None;
    let (text, plan) = prepare(&c, "/commit".into(), "anthropic");
    assert_eq!(text, "/commit");
    assert!(plan.calls.is_empty());
}
