//! Driving an engine on another machine: the engine's side (`warden serve --stdio`, [`serve`]) and
//! the face's side ([`link`]: the transport started, the handshake, requests and events). The
//! frames are `warden_protocol`'s remote ones; the transport is OpenSSH or any command that gives
//! a pipe ([`transport`]), never a listening socket of Warden's.

mod attached;
pub mod daemon;
mod hub;
pub mod install;
pub mod link;
mod live;
mod machine;
mod open;
pub mod serve;
pub mod transport;

pub use attached::{Attached, LinkStatus, SessionFrame};
pub use hub::Hub;
pub use link::{Link, LinkError};
pub use machine::this_machine;
pub use transport::{RemoteTarget, Transport};

/// This build's side of the handshake.
pub fn hello() -> warden_protocol::Hello {
    warden_protocol::Hello {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        protocol: warden_protocol::REMOTE_PROTOCOL,
    }
}

/// Why two sides cannot work together, in words, or `None` when they can: the same protocol and
/// the same version (a remote engine of another version may read settings or events differently).
pub fn mismatch(
    ours: &warden_protocol::Hello,
    theirs: &warden_protocol::Hello,
    theirs_are: &str,
) -> Option<String> {
    (ours != theirs).then(|| {
        format!(
            "the {theirs_are} is Warden {} (link protocol {}), this is Warden {} (link protocol {}): \
             both sides must be the same version. Install Warden {} there (or copy this one: \
             ~/.local/share/warden/bin/warden is looked for first)",
            theirs.version, theirs.protocol, ours.version, ours.protocol, ours.version
        )
    })
}
