//! `warden hooks show|approve|decline`: a project's own hooks (the `hooks` of its
//! `.claude/settings.json`). `show` prints every command with its event and matcher, what in the
//! file cannot be used, and the digest; `approve` saves an approval only for hooks the user was
//! shown (`--digest D` from `show`, or a `y` typed on the controlling terminal after they are
//! printed, never stdin); `decline` withdraws it. The user's own hooks live in the settings (the
//! window's Settings → Hooks). Exit 0; 1 when refused or declined; 2 on usage.

use std::path::PathBuf;

use warden_core::engine::Engine;
use warden_protocol::ProjectHooksOffer;

use crate::args::HooksAction;
use crate::exit::Exit;
use crate::project_mcp_cmd::{self, project_dir};
use crate::{sanitize, say};

pub async fn run(action: HooksAction) -> Result<(), Exit> {
    let engine = Engine::from_env().map_err(Exit::failed)?;
    match action {
        HooksAction::Show { project, json } => {
            let offer = offer(&engine, project)?;
            if json {
                say::out(&serde_json::to_string(&offer).map_err(Exit::failed)?);
            } else {
                say::out(describe(&offer).trim_end());
            }
            Ok(())
        }
        HooksAction::Approve { project, digest } => approve(&engine, project, digest).await,
        HooksAction::Decline { project } => {
            let project = project_dir(project)?;
            let offer = offer(&engine, Some(project.clone()))?;
            engine.choose_project_hooks(&project, &offer.digest, false).map_err(Exit::failed)?;
            say::err(&format!("warden: the hooks of {} do not run", sanitize::line(&offer.file)));
            Ok(())
        }
    }
}

async fn approve(engine: &Engine, project: Option<PathBuf>, digest: Option<String>) -> Result<(), Exit> {
    let project = project_dir(project)?;
    let offer = offer(engine, Some(project.clone()))?;
    let shown = describe(&offer);
    match digest {
        Some(given) if !given.eq_ignore_ascii_case(&offer.digest) => {
            return Err(Exit::failed(format!(
                "the project's hooks changed since they were shown (digest now {}): look at them again with `warden hooks show`",
                offer.digest
            )))
        }
        Some(_) => say::err_part(&shown),
        None => match project_mcp_cmd::ask_on_terminal(shown, "run these hooks?").await {
            Ok(true) => {}
            Ok(false) => return Err(Exit::failed("not approved: the project's hooks do not run")),
            Err(error) => {
                return Err(Exit::failed(format!(
                    "no terminal to ask on (/dev/tty: {error}); nothing was approved. See the hooks with \
                     `warden hooks show`, then approve them with `warden hooks approve --digest {}`",
                    offer.digest
                )))
            }
        },
    }
    engine.choose_project_hooks(&project, &offer.digest, true).map_err(Exit::failed)?;
    say::err(&format!(
        "warden: running the hooks of {} (digest {})",
        sanitize::line(&offer.file),
        offer.digest
    ));
    Ok(())
}

fn offer(engine: &Engine, project: Option<PathBuf>) -> Result<ProjectHooksOffer, Exit> {
    let project = project_dir(project)?;
    match engine.project_hooks_offer(&project) {
        Ok(Some(offer)) => Ok(offer),
        Ok(None) => Err(Exit::usage(format!("{} has no hooks in .claude/settings.json", project.display()))),
        Err(error) if error.is_usage() => Err(Exit::usage(error)),
        Err(error) => Err(Exit::failed(error)),
    }
}

/// Every command the approval covers, one per line (escaped), the state and the digest.
fn describe(offer: &ProjectHooksOffer) -> String {
    let line = |text: &str| sanitize::line(text).into_owned();
    let state = match offer.state.as_str() {
        "approved" => "approved (these hooks)",
        "changed" => "changed since they were approved: not run until approved again",
        _ => "not approved yet: not run",
    };
    let mut out = format!("{}\n  digest: {}\n  state: {state}\n", line(&offer.file), line(&offer.digest));
    out.push_str("  each runs in the project's command box, with the event as JSON on stdin; an `allow` it says grants nothing\n");
    for command in &offer.commands {
        out.push_str(&format!("  {}\n", line(command)));
    }
    for problem in &offer.problems {
        out.push_str(&format!("  cannot be used: {}\n", line(problem)));
    }
    out
}
