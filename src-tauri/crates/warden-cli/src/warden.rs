//! `warden`: the front of the command line (see [`warden_cli::front`]). A plain `warden sandbox`
//! runs here; everything else replaces this process with `warden-engine`.
#![deny(clippy::print_stdout, clippy::print_stderr, clippy::disallowed_methods)]

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::ExitCode;

use warden_cli::exit::{self, Exit};
use warden_cli::front::{self, Route};
use warden_cli::sandbox_cmd;

fn main() -> ExitCode {
    let mut args = std::env::args_os();
    let program = args.next().unwrap_or_else(|| OsString::from("warden"));
    let args: Vec<OsString> = args.collect();
    match front::route(&args) {
        // The box gets the credential-stripped environment (`sandbox_cmd`); the front keeps no key
        // in its own memory and is replaced by bubblewrap at once.
        Route::Sandbox(request) if front::home_is_set() => exit::status(sandbox_cmd::run(request)),
        Route::Sandbox(_) | Route::Engine => engine(program, &args).report(),
    }
}

/// Replace this process with the engine, given the same arguments; returns only on failure.
fn engine(program: OsString, args: &[OsString]) -> Exit {
    let found = std::env::current_exe()
        .map_err(|e| format!("cannot find where warden runs from: {e}"))
        .and_then(|front| front::engine_beside(&front));
    let error = match found {
        Ok(engine) => {
            let error = std::process::Command::new(&engine).arg0(program).args(args).exec();
            format!("cannot start {}: {error}", engine.display())
        }
        Err(message) => message,
    };
    Exit::NoEngine(format!("warden: {error}"))
}
