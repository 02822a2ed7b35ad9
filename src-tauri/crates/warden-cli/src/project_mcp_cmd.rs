//! `warden mcp show|approve|decline`: a project's own `.mcp.json`. `show` prints every field of
//! every server it names — what Warden would use, what it ignores and why — and the file's digest;
//! `approve` saves an approval only for content the user was shown: `--digest D` for the content
//! `show` printed (a file changed since is refused), or, without it, after printing everything and
//! a `y` typed on the controlling terminal (never stdin, which a command Warden ran could write; see
//! `approvals_input`). Exit 0; 1 when refused, declined or unusable; 2 on usage.

use std::path::PathBuf;

use warden_core::mcp::project::fields;
use warden_core::setup::Engine;
use warden_protocol::ProjectMcpOffer;

use crate::approvals_input::{self, Answer};
use crate::{sanitize, say};

/// `warden mcp show`.
pub fn show(engine: &Engine, project: Option<PathBuf>, json: bool) -> u8 {
    let offer = match offer(engine, project) {
        Ok(offer) => offer,
        Err(code) => return code,
    };
    if json {
        match serde_json::to_string(&offer) {
            Ok(line) => print_out(&line),
            Err(error) => return fail(&error.to_string(), 1),
        }
    } else {
        print_out(&describe(&offer));
    }
    u8::from(offer.error.is_some())
}

/// `warden mcp approve`.
pub async fn approve(engine: &Engine, project: Option<PathBuf>, digest: Option<String>) -> u8 {
    let project = match project_dir(project) {
        Ok(project) => project,
        Err(code) => return code,
    };
    let offer = match offer(engine, Some(project.clone())) {
        Ok(offer) => offer,
        Err(code) => return code,
    };
    if let Some(error) = &offer.error {
        return fail(&format!("{}: {error}", offer.path), 1);
    }
    match digest {
        Some(given) if !given.eq_ignore_ascii_case(&offer.digest) => {
            let refused = warden_core::setup::SetupError::ProjectMcpChanged { given, now: offer.digest };
            return fail(&refused.to_string(), 1);
        }
        Some(_) => say::err_part(&describe(&offer)),
        None => match ask_on_terminal(describe(&offer)).await {
            Ok(true) => {}
            Ok(false) => return fail("not approved: the project's .mcp.json stays unused", 1),
            Err(error) => {
                return fail(
                    &format!(
                        "no terminal to ask on (/dev/tty: {error}); nothing was approved. See what the \
                         file would start with `warden mcp show`, then approve that content with \
                         `warden mcp approve --digest {}`",
                        offer.digest
                    ),
                    1,
                )
            }
        },
    }
    // The digest of what was shown: a file changed meanwhile is refused, never approved unseen.
    match engine.choose_project_mcp(&project, &offer.digest, true) {
        Ok(()) => {
            say::err(&format!(
                "warden: using the servers of {} (digest {})",
                sanitize::line(&offer.path),
                offer.digest
            ));
            0
        }
        Err(error) => fail(&error.to_string(), 1),
    }
}

/// `warden mcp decline`: declining widens nothing, so it asks nothing.
pub fn decline(engine: &Engine, project: Option<PathBuf>) -> u8 {
    let project = match project_dir(project) {
        Ok(project) => project,
        Err(code) => return code,
    };
    let offer = match offer(engine, Some(project.clone())) {
        Ok(offer) => offer,
        Err(code) => return code,
    };
    match engine.choose_project_mcp(&project, &offer.digest, false) {
        Ok(()) => {
            say::err(&format!("warden: not using the servers of {}", sanitize::line(&offer.path)));
            0
        }
        Err(error) => fail(&error.to_string(), 1),
    }
}

fn project_dir(project: Option<PathBuf>) -> Result<PathBuf, u8> {
    project
        .map_or_else(std::env::current_dir, Ok)
        .map_err(|error| fail(&format!("cannot read the current directory: {error}"), 2))
}

/// The project's offer, or the exit code after saying why there is none.
fn offer(engine: &Engine, project: Option<PathBuf>) -> Result<ProjectMcpOffer, u8> {
    let project = project_dir(project)?;
    match engine.project_mcp_offer(&project) {
        Ok(Some(offer)) => Ok(offer),
        Ok(None) => Err(fail(&format!("{} has no .mcp.json", project.display()), 2)),
        Err(error) => Err(fail(&error.to_string(), if error.is_usage() { 2 } else { 1 })),
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

/// Show `text` and ask y/N on the controlling terminal; `Err` when there is none.
async fn ask_on_terminal(text: String) -> std::io::Result<bool> {
    let asked = tokio::task::spawn_blocking(move || {
        use std::io::{BufRead, Write};
        let mut tty = approvals_input::open_tty()?;
        write!(tty, "{text}\nuse these servers? [y/N] ")?;
        tty.flush()?;
        let mut answer = String::new();
        std::io::BufReader::new(tty).read_line(&mut answer)?;
        Ok::<_, std::io::Error>(approvals_input::parse_tty_line(&answer) == Some(Answer::YesNo(true)))
    })
    .await;
    asked.unwrap_or_else(|error| Err(std::io::Error::other(error)))
}

fn fail(message: &str, code: u8) -> u8 {
    say::err(&format!("warden: {message}"));
    code
}

fn print_out(text: &str) {
    say::out(text.trim_end());
}
