//! `warden serve --stdio`: this machine's engine, driven by a face elsewhere over the pipe it was
//! started with (ssh, `docker exec -i`, `runuser`): the pipe is bridged to the user's engine,
//! which outlives it (`warden serve --daemon`, started when none runs). Frames on stdout, logs on
//! stderr, no network socket.

use warden_core::config::WardenHome;
use warden_core::remote::daemon;

use crate::args::ServeArgs;
use crate::exit::Exit;

pub async fn run(args: ServeArgs) -> Result<(), Exit> {
    let home = WardenHome::from_env().map_err(Exit::failed)?;
    if args.daemon {
        return daemon::run(home).await.map_err(|e| Exit::failed(format!("warden serve: {e}")));
    }
    if !args.stdio {
        return Err(Exit::usage(
            "warden serve speaks only over its standard input and output (warden serve --stdio); it never listens on the network",
        ));
    }
    daemon::bridge(home).await.map_err(|e| Exit::failed(format!("warden serve: {e}")))
}
