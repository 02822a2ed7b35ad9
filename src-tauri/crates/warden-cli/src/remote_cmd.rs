//! `warden remote install HOST`: this build's engine copied to a remote machine that can run it,
//! after saying what will be copied where (and asking, unless `--yes`).

use warden_core::remote::install;

use crate::args::RemoteAction;
use crate::exit::Exit;
use crate::{sanitize, say};

pub async fn run(action: RemoteAction) -> Result<(), Exit> {
    let RemoteAction::Install { host, yes } = action;
    warden_core::remote::transport::check_host(&host).map_err(|why| Exit::usage(sanitize::line(&why)))?;
    let plan =
        install::plan(&host, None).await.map_err(|e| Exit::failed(format!("warden remote install: {e}")))?;
    if plan.facts.installed.as_deref() == Some(env!("CARGO_PKG_VERSION")) {
        say::out(&sanitize::line(&format!("{host} already has Warden {}.", env!("CARGO_PKG_VERSION"))));
        return Ok(());
    }
    let what = plan.describe();
    if !yes && !confirmed(&what).await? {
        return Err(Exit::failed("warden remote install: nothing copied"));
    }
    say::err(&sanitize::line(&format!("warden: {what}")));
    plan.copy().await.map_err(|e| Exit::failed(format!("warden remote install: {e}")))?;
    say::out(&sanitize::line(&format!("{host} has Warden {} now.", env!("CARGO_PKG_VERSION"))));
    Ok(())
}

/// Asks on the terminal; without one, says to pass `--yes`.
async fn confirmed(what: &str) -> Result<bool, Exit> {
    let question = format!("warden: {what}. Go on? [y/N] ");
    let answer = tokio::task::spawn_blocking(move || {
        use std::io::{BufRead, Write};
        let tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty")?;
        let mut out = &tty;
        out.write_all(sanitize::line(&question).as_bytes())?;
        let mut line = String::new();
        std::io::BufReader::new(&tty).read_line(&mut line)?;
        Ok::<_, std::io::Error>(line)
    })
    .await
    .map_err(|e| Exit::failed(e.to_string()))?;
    match answer {
        Ok(line) => Ok(matches!(line.trim(), "y" | "Y" | "yes")),
        Err(_) => Err(Exit::usage(format!(
            "warden remote install: {what}; no terminal to ask on: pass --yes to copy"
        ))),
    }
}
