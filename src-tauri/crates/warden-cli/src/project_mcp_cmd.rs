//! `warden mcp show|approve|decline`: a project's own `.mcp.json`. `show` prints every field of
//! every server it names — what Warden would use, what it ignores and why — and the file's digest;
//! `approve` saves an approval only for content the user was shown: `--digest D` for the content
//! `show` printed (a file changed since is refused), or, without it, after printing everything and
//! a `y` typed on the controlling terminal (never stdin, which a command Warden ran could write; see
//! `approvals_input`). Exit 0; 1 when refused, declined or unusable; 2 on usage (every status:
//! [`crate::exit`]).

use std::path::PathBuf;

use warden_core::engine::Engine;
use warden_core::mcp::project::fields;
use warden_protocol::ProjectMcpOffer;

use crate::approvals_input::{self, Answer};
use crate::exit::Exit;
use crate::{sanitize, say};

/// `warden mcp show`.
pub fn show(engine: &Engine, project: Option<PathBuf>, json: bool) -> Result<(), Exit> {
    let offer = offer(engine, project)?;
    if json {
        print_out(&serde_json::to_string(&offer).map_err(Exit::failed)?);
    } else {
        print_out(&describe(&offer));
    }
    // What was printed says why it cannot be used.
    match offer.error {
        Some(_) => Err(Exit::FailedAsShown),
        None => Ok(()),
    }
}

/// `warden mcp approve`.
pub async fn approve(engine: &Engine, project: Option<PathBuf>, digest: Option<String>) -> Result<(), Exit> {
    let project = project_dir(project)?;
    let offer = offer(engine, Some(project.clone()))?;
    if let Some(error) = &offer.error {
        return Err(Exit::failed(format!("{}: {error}", offer.path)));
    }
    match digest {
        Some(given) if !given.eq_ignore_ascii_case(&offer.digest) => {
            let refused = warden_core::engine::SetupError::ProjectMcpChanged { given, now: offer.digest };
            return Err(Exit::failed(refused));
        }
        Some(_) => say::err_part(&describe(&offer)),
        None => match ask_on_terminal(describe(&offer), "use these servers?").await {
            Ok(true) => {}
            Ok(false) => return Err(Exit::failed("not approved: the project's .mcp.json stays unused")),
            Err(error) => {
                return Err(Exit::failed(format!(
                    "no terminal to ask on (/dev/tty: {error}); nothing was approved. See what the \
                     file would start with `warden mcp show`, then approve that content with \
                     `warden mcp approve --digest {}`",
                    offer.digest
                )))
            }
        },
    }
    // The digest of what was shown: a file changed meanwhile is refused, never approved unseen.
    engine.choose_project_mcp(&project, &offer.digest, true).map_err(Exit::failed)?;
    say::err(&format!(
        "warden: using the servers of {} (digest {})",
        sanitize::line(&offer.path),
        offer.digest
    ));
    Ok(())
}

/// `warden mcp decline`: declining widens nothing, so it asks nothing.
pub fn decline(engine: &Engine, project: Option<PathBuf>) -> Result<(), Exit> {
    let project = project_dir(project)?;
    let offer = offer(engine, Some(project.clone()))?;
    engine.choose_project_mcp(&project, &offer.digest, false).map_err(Exit::failed)?;
    say::err(&format!("warden: not using the servers of {}", sanitize::line(&offer.path)));
    Ok(())
}

/// The project named, or the current directory.
pub(crate) fn project_dir(project: Option<PathBuf>) -> Result<PathBuf, Exit> {
    project
        .map_or_else(std::env::current_dir, Ok)
        .map_err(|error| Exit::usage(format!("cannot read the current directory: {error}")))
}

/// The project's offer, or why there is none.
fn offer(engine: &Engine, project: Option<PathBuf>) -> Result<ProjectMcpOffer, Exit> {
    let project = project_dir(project)?;
    match engine.project_mcp_offer(&project) {
        Ok(Some(offer)) => Ok(offer),
        Ok(None) => Err(Exit::usage(format!("{} has no .mcp.json", project.display()))),
        Err(error) if error.is_usage() => Err(Exit::usage(error)),
        Err(error) => Err(Exit::failed(error)),
    }
}

/// Everything an approval would grant, in words, each value on one line (escaped by the
/// sanitizer): the file and its digest, where the programs run, and per server every field used
/// and every field ignored with why.
pub fn describe(offer: &ProjectMcpOffer) -> String {
    let line = |text: &str| sanitize::line(text).into_owned();
    let mut out = format!("{}\n  digest: {}\n", line(&offer.path), line(&offer.digest));
    let state = match offer.approved {
        None => "not approved yet",
        Some(true) => "approved (this content)",
        Some(false) => "declined (this content)",
    };
    out.push_str(&format!("  state: {state}\n"));
    if let Some(error) = &offer.error {
        out.push_str(&format!("  cannot be used: {}\n", line(error)));
        return out;
    }
    let network =
        if offer.network { "with the network through Warden's proxy" } else { "without the network" };
    out.push_str(&format!(
        "  programs run in the project's command box, as the agent's commands: {network} (the project's \
         setting), writing only where its commands may\n"
    ));
    for (name, config) in &offer.servers {
        let kind = if config.url.is_some() { "http" } else { "stdio" };
        out.push_str(&format!("\n{} ({kind})\n", line(name)));
        for (field, value) in fields(config) {
            out.push_str(&format!("  {}: {}\n", line(&field), line(&value)));
        }
        for ignored in offer.ignored.get(name).into_iter().flatten() {
            out.push_str(&format!(
                "  ignored {} = {}: {}\n",
                line(&ignored.field),
                line(&ignored.value),
                line(&ignored.reason)
            ));
        }
    }
    out
}

/// Show `text` and ask `question` [y/N] on the controlling terminal; `Err` when there is none.
pub(crate) async fn ask_on_terminal(text: String, question: &'static str) -> std::io::Result<bool> {
    let asked = tokio::task::spawn_blocking(move || {
        use std::io::{BufRead, Write};
        let mut tty = approvals_input::open_tty()?;
        write!(tty, "{text}\n{question} [y/N] ")?;
        tty.flush()?;
        let mut answer = String::new();
        std::io::BufReader::new(tty).read_line(&mut answer)?;
        Ok::<_, std::io::Error>(approvals_input::parse_tty_line(&answer) == Some(Answer::YesNo(true)))
    })
    .await;
    asked.unwrap_or_else(|error| Err(std::io::Error::other(error)))
}

fn print_out(text: &str) {
    say::out(text.trim_end());
}
