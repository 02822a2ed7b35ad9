//! How the engine's side refuses a request, in words: the caller's mistake (`usage`: a project
//! that is not there, an unknown checkpoint or conversation) or the engine failing.

use warden_protocol::RemoteError;

pub(super) fn usage(message: &str) -> RemoteError {
    RemoteError { message: message.to_owned(), usage: true }
}

pub(super) fn failed(message: impl std::fmt::Display) -> RemoteError {
    RemoteError { message: message.to_string(), usage: false }
}

/// An engine's setup error, in words: the caller's (a project that is not there) or the engine's.
pub(super) fn setup(error: crate::engine::SetupError) -> RemoteError {
    RemoteError { usage: error.is_usage(), message: error.to_string() }
}
