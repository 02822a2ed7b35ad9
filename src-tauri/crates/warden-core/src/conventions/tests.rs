use super::*;

#[test]
fn a_message_invokes_by_its_first_word_only_when_it_names_a_command_or_skill() {
    assert_eq!(slash("/review src/a.rs  "), Some(("review", "src/a.rs")));
    assert_eq!(slash("  /clear"), Some(("clear", "")));
    assert_eq!(slash("/usr/bin/env is missing"), None, "a path is not a command name");
    assert_eq!(slash("/ space"), None);
    assert_eq!(slash("no slash"), None);
    assert_eq!(slash("/Émoji"), None);

    let mut conventions = Conventions::default();
    conventions.commands.list.push(Command {
        name: "review".into(),
        description: None,
        argument_hint: None,
        allowed_tools: None,
        model: None,
        origin: Origin::Project,
        path: "/p/.claude/commands/review.md".into(),
        relative: None,
        body: "Review.".into(),
    });
    conventions.skills.list.push(Skill {
        name: "pdf".into(),
        description: "PDFs".into(),
        origin: Origin::Warden,
        dir: "/w/skills/pdf".into(),
        relative: None,
    });
    assert!(
        matches!(conventions.invoked("/review x"), Some(Invocation::Command(c, "x")) if c.name == "review")
    );
    assert!(
        matches!(conventions.invoked("/pdf fill it"), Some(Invocation::Skill(s, "fill it")) if s.name == "pdf")
    );
    assert_eq!(conventions.invoked("/other"), None);
    assert_eq!(conventions.invoked("review"), None);
}
