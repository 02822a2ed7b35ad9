use std::path::Path;

use super::*;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\nThe body of {name}.\n")
}

struct Place {
    _dir: tempfile::TempDir,
    warden: std::path::PathBuf,
    agents: std::path::PathBuf,
    project: std::path::PathBuf,
}

fn place() -> Place {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let place = Place {
        warden: base.join("warden"),
        agents: base.join("agents"),
        project: base.join("project"),
        _dir: dir,
    };
    std::fs::create_dir_all(&place.project).unwrap();
    place
}

impl Place {
    fn roots(&self) -> Roots {
        Roots {
            warden: Some(self.warden.clone()),
            agents: Some(self.agents.clone()),
            project: Some(self.project.clone()),
        }
    }
}

#[test]
fn skills_come_from_each_folder_in_order_and_the_first_of_a_name_wins() {
    let p = place();
    write(&p.warden.join("skills/mine/SKILL.md"), &skill_md("mine", "The user's own."));
    write(&p.agents.join("skills/shared/SKILL.md"), &skill_md("shared", "From ~/.agents."));
    write(&p.project.join(".agents/skills/build/SKILL.md"), &skill_md("build", "How to build."));
    write(&p.project.join(".claude/skills/pdf/SKILL.md"), &skill_md("pdf", "PDF forms."));
    write(&p.project.join(".claude/skills/mine/SKILL.md"), &skill_md("mine", "The project's copy."));
    let found = Skills::discover(&p.roots());
    let names: Vec<(&str, Origin)> = found.list.iter().map(|s| (s.name.as_str(), s.origin)).collect();
    assert_eq!(
        names,
        [
            ("mine", Origin::Warden),
            ("shared", Origin::Agents),
            ("build", Origin::Project),
            ("pdf", Origin::Project)
        ]
    );
    assert_eq!(found.get("mine").unwrap().description, "The user's own.");
    assert_eq!(found.get("pdf").unwrap().relative.as_deref(), Some(".claude/skills/pdf"));
    assert_eq!(found.problems.len(), 1, "{:?}", found.problems);
    assert!(found.problems[0].message.contains("already offered"), "{:?}", found.problems);
}

#[test]
fn the_prompt_section_holds_names_and_descriptions_and_never_a_body() {
    let p = place();
    write(&p.project.join(".claude/skills/pdf/SKILL.md"), &skill_md("pdf", "Fill PDF\n  forms."));
    let found = Skills::discover(&p.roots());
    let section = found.prompt_section().unwrap();
    assert!(section.contains("\n- pdf: Fill PDF forms."), "{section}");
    assert!(!section.contains("The body of"), "{section}");
    assert_eq!(Skills::default().prompt_section(), None);
}

#[test]
fn a_folder_without_a_usable_skill_md_is_reported_not_offered() {
    let p = place();
    write(&p.project.join(".claude/skills/nodesc/SKILL.md"), "---\nname: nodesc\n---\nbody");
    write(&p.project.join(".claude/skills/badname/SKILL.md"), &skill_md("Bad Name!", "x"));
    write(&p.project.join(".claude/skills/builtin/SKILL.md"), &skill_md("clear", "x"));
    std::fs::create_dir_all(p.project.join(".claude/skills/empty")).unwrap();
    let found = Skills::discover(&p.roots());
    assert!(found.list.is_empty(), "{:?}", found.list);
    let messages: Vec<&str> = found.problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(messages.len(), 4, "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("no `description`")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("not usable")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("Warden's own commands")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("cannot be read")), "{messages:?}");
}

#[test]
fn the_folder_name_is_the_name_when_the_front_matter_has_none() {
    let p = place();
    write(
        &p.warden.join("skills/release-notes/SKILL.md"),
        "---\ndescription: Write release notes.\n---\nSteps.",
    );
    let found = Skills::discover(&p.roots());
    assert_eq!(found.list[0].name, "release-notes");
}

#[cfg(unix)]
#[test]
fn a_project_skill_behind_a_link_is_not_read_but_the_user_s_linked_skill_is() {
    let p = place();
    let outside = p.project.parent().unwrap().join("outside");
    write(&outside.join("secret/SKILL.md"), &skill_md("secret", "Outside the project."));
    std::fs::create_dir_all(p.project.join(".claude/skills")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret"), p.project.join(".claude/skills/secret")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret/SKILL.md"), {
        std::fs::create_dir_all(p.project.join(".claude/skills/linkedfile")).unwrap();
        p.project.join(".claude/skills/linkedfile/SKILL.md")
    })
    .unwrap();
    // The whole `.claude` folder a link: not followed either.
    std::fs::create_dir_all(p.project.join(".agents")).unwrap();
    std::os::unix::fs::symlink(&outside, p.project.join(".agents/skills")).unwrap();
    let found = Skills::discover(&p.roots());
    assert!(found.list.is_empty(), "{:?}", found.list);

    std::fs::create_dir_all(p.warden.join("skills")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret"), p.warden.join("skills/secret")).unwrap();
    let found = Skills::discover(&p.roots());
    assert_eq!(found.list.len(), 1, "{:?}", found);
    assert_eq!(found.list[0].origin, Origin::Warden);
}

#[test]
fn switched_off_skills_are_left_out_and_descriptions_are_capped() {
    let p = place();
    write(&p.warden.join("skills/a/SKILL.md"), &skill_md("a", &"x".repeat(DESCRIPTION_CAP + 50)));
    write(&p.warden.join("skills/b/SKILL.md"), &skill_md("b", "kept"));
    let found = Skills::discover(&p.roots()).without(&["b".to_owned()]);
    assert_eq!(found.list.len(), 1);
    assert_eq!(found.list[0].description.chars().count(), DESCRIPTION_CAP + 1, "cut with an ellipsis");
}
