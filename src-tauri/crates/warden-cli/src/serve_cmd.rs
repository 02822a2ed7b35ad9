//! `warden serve --stdio`: this machine's engine, driven by a face elsewhere over the pipe it was
//! started with (ssh, `docker exec -i`, `runuser`). Frames on stdout, logs on stderr, no socket.

use warden_core::config::WardenHome;
use warden_core::remote::serve::{serve, ServeError};

use crate::args::ServeArgs;
use crate::exit::Exit;
use crate::signals::Signals;

pub async fn run(args: ServeArgs) -> Result<(), Exit> {
    if !args.stdio {
        return Err(Exit::usage(
            "warden serve speaks only over its standard input and output (warden serve --stdio); it never listens on the network",
        ));
    }
    let home = WardenHome::from_env().map_err(Exit::failed)?;
    let input = tokio::io::BufReader::new(tokio::io::stdin());
    let mut signals = Signals::listen();
    let ended = tokio::select! {
        ended = serve(input, tokio::io::stdout(), home) => ended,
        // The connection's end usually arrives as the end of stdin; a hangup or a kill of the
        // transport arrives as a signal. Either way what the session started is stopped.
        signal = signals.recv() => {
            let _ = tokio::task::spawn_blocking(warden_core::process_guard::kill_all_descendants).await;
            return Err(Exit::Interrupted(signal));
        }
    };
    match ended {
        Ok(()) => Ok(()),
        Err(error @ ServeError::Refused(_)) => Err(Exit::failed(error.to_string())),
        Err(error) => Err(Exit::failed(format!("warden serve: {error}"))),
    }
}
