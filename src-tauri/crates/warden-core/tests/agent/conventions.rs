//! Skills and custom slash commands, through the engine as the window and `warden exec` use it: the
//! requests the provider receives say what reached the model, and when.

use std::path::Path;

use serde_json::json;
use warden_protocol::{Event, Settings, TrustLevel};

use super::harness::Wire;
use super::through_engine::{message_text, place, run, start_session, tool_names, tool_results, write};
use super::wire::{text, tool};
use crate::support::server::TestServer;

const PDF_BODY: &str = "Open the form with pypdf and fill every field named in the request.";

fn pdf_skill(project: &Path) {
    write(
        &project.join(".claude/skills/pdf/SKILL.md"),
        &format!("---\nname: pdf\ndescription: Fill in PDF forms.\n---\n{PDF_BODY}\n"),
    );
    write(&project.join(".claude/skills/pdf/reference/fields.md"), "Field names are case-sensitive.");
}

#[tokio::test]
async fn a_skill_is_named_in_the_prompt_and_its_body_reaches_the_model_only_through_its_call() {
    let place = place().await;
    pdf_skill(&place.project);
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("t1", "skill", json!({ "name": "pdf" }))], 10),
        Wire::Anthropic
            .reply(&[tool("t2", "skill", json!({ "name": "pdf", "file": "reference/fields.md" }))], 10),
        Wire::Anthropic
            .reply(&[tool("t3", "skill", json!({ "name": "pdf", "file": "../../../src/x.rs" }))], 10),
        Wire::Anthropic.reply(&[text("done")], 10),
    ])
    .await;
    let engine = place.engine();
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    let seen = run(&session, &mut events, "Fill in form.pdf", false).await;
    assert!(
        !seen.iter().any(|e| matches!(e, Event::ToolConfirm(_))),
        "reading a skill asks no more than a read"
    );

    let requests = server.requests();
    let first = &requests[0].body;
    let system = first["system"].as_str().unwrap();
    assert!(system.contains("\n- pdf: Fill in PDF forms."), "{system}");
    assert!(!first.to_string().contains(PDF_BODY), "the body is not sent before the call");
    assert!(tool_names(first).contains(&"skill".to_owned()));

    let second = tool_results(&requests[1].body);
    assert!(second[0].contains(PDF_BODY), "{second:?}");
    assert!(second[0].contains("reference/fields.md"), "the skill's files are listed: {second:?}");
    let third = tool_results(&requests[2].body);
    assert!(third[1].contains("case-sensitive"), "{third:?}");
    let fourth = tool_results(&requests[3].body);
    assert!(fourth[2].contains("not a path inside the skill"), "{fourth:?}");
}

#[tokio::test]
async fn a_session_without_skills_offers_no_skill_tool_and_a_switched_off_skill_is_not_named() {
    let place = place().await;
    pdf_skill(&place.project);
    let engine = place.engine();
    let chosen =
        Settings { project_dir: Some(place.project.to_string_lossy().into_owned()), ..Settings::default() };
    engine.save_settings(chosen).unwrap();
    engine.switch_skill("pdf", false).unwrap();
    let listed = engine.conventions_in_use();
    assert_eq!(listed.skills.len(), 1);
    assert!(!listed.skills[0].on);
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("ok")], 10)]).await;
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    run(&session, &mut events, "/pdf fill it", false).await;
    let request = &server.requests()[0].body;
    assert!(!tool_names(request).contains(&"skill".to_owned()));
    assert!(!request["system"].as_str().unwrap().contains("Fill in PDF forms"));
    assert_eq!(message_text(request, 0), "/pdf fill it", "sent as typed");
}

#[tokio::test]
async fn a_skill_invoked_as_a_slash_command_is_loaded_before_the_model_answers() {
    let place = place().await;
    pdf_skill(&place.project);
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("filled")], 10)]).await;
    let engine = place.engine();
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    let seen = run(&session, &mut events, "/pdf fill form.pdf", false).await;
    let request = &server.requests()[0].body;
    let messages = request["messages"].as_array().unwrap();
    assert_eq!(message_text(request, 0), "Use the skill `pdf` for this: fill form.pdf");
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(messages[1]["content"][0]["name"], "skill");
    assert!(tool_results(request)[0].contains(PDF_BODY));
    assert!(
        seen.iter().any(|e| matches!(e, Event::ToolStart(s) if s.tool_name == "skill")),
        "the window sees it"
    );
}

#[tokio::test]
async fn a_project_command_runs_its_lines_through_the_policy_reads_its_files_and_narrows_the_tools() {
    let place = place().await;
    write(&place.project.join("src/lib.rs"), "pub fn answer() -> u32 { 42 }\n");
    write(&place.project.join(".env"), "TOKEN=secret\n");
    write(
        &place.project.join(".claude/commands/review.md"),
        "---\ndescription: Review a file\nallowed-tools: Read, Grep\n---\n\
Branch: !`echo on-branch-main`\nRemove: !`rm -rf /`\nReview @$1 for $2.",
    );
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("t1", "bash", json!({ "command": "echo hi" }))], 10),
        Wire::Anthropic.reply(&[text("reviewed")], 10),
    ])
    .await;
    let engine = place.engine();
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    let seen = run(&session, &mut events, "/review src/lib.rs clarity", true).await;

    let request = &server.requests()[0].body;
    let typed = message_text(request, 0);
    assert!(typed.starts_with("Branch: !`echo on-branch-main`"), "{typed}");
    assert!(typed.contains("Review @src/lib.rs for clarity."), "{typed}");
    let results = tool_results(request);
    assert_eq!(results.len(), 3, "{results:?}");
    assert!(results[0].contains("on-branch-main"), "the approved line ran: {results:?}");
    assert!(results[1].contains("BLOCKED") || results[1].to_lowercase().contains("block"), "{results:?}");
    assert!(results[2].contains("answer()"), "{results:?}");
    // The line that ran was asked about, as the model's own command would be.
    let asked: Vec<&str> = seen
        .iter()
        .filter_map(|e| if let Event::ToolConfirm(c) = e { Some(c.tool_name.as_str()) } else { None })
        .collect();
    assert_eq!(asked, ["bash"], "{asked:?}");

    // While it runs, the model is offered only what it lists, and a call to another is refused.
    assert_eq!(tool_names(request), ["file_read", "search_in_files"]);
    let second = &server.requests()[1].body;
    let refused = tool_results(second).pop().unwrap();
    assert!(refused.contains("not offered while /review runs"), "{refused}");

    // The next message offers everything again.
    let server_tools = tool_names(request).len();
    drop(server);
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("ok")], 10)]).await;
    let (again, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    run(&again, &mut events, "hello", false).await;
    assert!(tool_names(&server.requests()[0].body).len() > server_tools);
}

#[tokio::test]
async fn a_command_that_reads_a_secret_stops_the_turn_before_the_model_is_asked() {
    let place = place().await;
    write(&place.project.join(".env"), "TOKEN=secret\n");
    write(&place.project.join(".claude/commands/leak.md"), "Summarise @.env please.");
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("never")], 10)]).await;
    let engine = place.engine();
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Autonomous).await;
    let seen = run(&session, &mut events, "/leak", true).await;
    assert!(server.requests().is_empty(), "the model was not asked");
    let stopped = seen.iter().any(
        |e| matches!(e, Event::Error(error) if error.code == warden_protocol::ErrorCode::SandboxViolation),
    );
    assert!(stopped, "{seen:?}");
    assert!(!format!("{seen:?}").contains("TOKEN=secret"));
}

#[tokio::test]
async fn the_window_lists_commands_and_skills_with_where_they_come_from_and_what_was_left_out() {
    let place = place().await;
    pdf_skill(&place.project);
    write(
        &place.home().join("commands/commit.md"),
        "---\ndescription: Commit\nargument-hint: [message]\n---\nCommit.",
    );
    write(&place.dirs.path().join("agents/skills/notes/SKILL.md"), "---\ndescription: Notes.\n---\nx");
    write(&place.project.join(".agents/commands/bad name.md"), "x");
    let engine = place.engine();
    engine
        .save_settings(Settings {
            project_dir: Some(place.project.to_string_lossy().into_owned()),
            ..Settings::default()
        })
        .unwrap();
    let listed = engine.conventions_in_use();
    let skills: Vec<(&str, warden_protocol::ConventionOrigin)> =
        listed.skills.iter().map(|s| (s.name.as_str(), s.origin)).collect();
    assert_eq!(
        skills,
        [
            ("notes", warden_protocol::ConventionOrigin::Agents),
            ("pdf", warden_protocol::ConventionOrigin::Project)
        ]
    );
    assert_eq!(listed.commands.len(), 1);
    assert_eq!(listed.commands[0].argument_hint.as_deref(), Some("[message]"));
    assert_eq!(listed.problems.len(), 1, "{:?}", listed.problems);
    assert!(listed.problems[0].path.ends_with("bad name.md"));
}

/// Copy the fixture folder `tests/fixtures/<name>` (a project's `.claude/` in the public formats)
/// into `project`.
fn copy_fixture(name: &str, project: &Path) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
    }
    copy(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name), project);
}

fn git(project: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(project)
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

#[tokio::test]
async fn a_project_with_skills_and_commands_in_the_public_formats_works_unchanged() {
    let place = place().await;
    copy_fixture("conventions", &place.project);
    git(&place.project, &["init", "-q"]);
    write(&place.project.join("README.md"), "# demo\n");
    git(&place.project, &["add", "README.md"]);
    git(&place.project, &["commit", "-qm", "Start the demo"]);
    write(&place.project.join("src/new.rs"), "fn main() {}\n");

    let engine = place.engine();
    let chosen =
        Settings { project_dir: Some(place.project.to_string_lossy().into_owned()), ..Settings::default() };
    engine.save_settings(chosen).unwrap();
    let listed = engine.conventions_in_use();
    assert!(listed.problems.is_empty(), "{:?}", listed.problems);
    assert_eq!(listed.skills[0].name, "release-notes");
    assert_eq!(listed.commands[0].argument_hint.as_deref(), Some("[message]"));

    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[text("Committed.")], 10),
        Wire::Anthropic.reply(
            &[tool("t1", "skill", json!({ "name": "release-notes", "file": "references/style.md" }))],
            10,
        ),
        Wire::Anthropic.reply(&[text("Noted.")], 10),
    ])
    .await;
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    run(&session, &mut events, "/commit add the entry point", true).await;
    let request = &server.requests()[0].body;
    assert_eq!(
        request["model"], "claude-3-5-haiku-20241022",
        "the command's model, of the session's provider"
    );
    assert_eq!(tool_names(request), ["bash", "command_output", "cancel_command"]);
    let results = tool_results(request);
    assert!(results[0].contains("?? src/"), "git status ran in the project: {results:?}");
    assert!(results[1].contains("main"), "{results:?}");
    assert!(results[2].contains("Start the demo"), "{results:?}");
    assert!(message_text(request, 0).ends_with("Message hint: add the entry point\n\n(Warden ran this command's `!` lines with `bash` and read its `@` files with `file_read`; their results follow.)"));

    // The skill: named by its quoted description, its reference read on request.
    run(&session, &mut events, "Write the release notes.", true).await;
    let requests = server.requests();
    let system = requests[1].body["system"].as_str().unwrap();
    assert!(system.contains("- release-notes: Writes release notes from the commits since the last tag. Use when the user asks for: release notes"), "{system}");
    assert!(tool_results(&requests[2].body)
        .last()
        .unwrap()
        .contains("Group entries under Added, Changed, Fixed."));
}
