//! The proxy's SOCKS5 side (RFC 1928), for programs that take `ALL_PROXY=socks5h://…`: no
//! authentication, `CONNECT` only, names resolved by the proxy (so its rules see the name).

use std::net::{Ipv4Addr, Ipv6Addr};

use super::proxy::{connect, send, splice, Client, State};
use super::rules::Refusal;

pub(super) const VERSION: u8 = 5;
const NO_AUTHENTICATION: u8 = 0;
const NO_ACCEPTABLE_METHOD: u8 = 0xff;
const CONNECT: u8 = 1;

/// Reply codes.
const SUCCEEDED: u8 = 0;
const NOT_ALLOWED: u8 = 2;
const HOST_UNREACHABLE: u8 = 4;
const COMMAND_NOT_SUPPORTED: u8 = 7;
const ADDRESS_NOT_SUPPORTED: u8 = 8;

/// Serve a client whose version byte has been read.
pub(super) fn serve<C: Client>(mut client: C, state: &State) -> std::io::Result<()> {
    let methods = read_counted(&mut client)?;
    if !methods.contains(&NO_AUTHENTICATION) {
        return send(&mut client, &[VERSION, NO_ACCEPTABLE_METHOD]);
    }
    send(&mut client, &[VERSION, NO_AUTHENTICATION])?;
    let mut request = [0u8; 4];
    client.read_exact(&mut request)?;
    let [version, command, _, kind] = request;
    if version != VERSION {
        return Ok(());
    }
    let Some(host) = read_host(&mut client, kind)? else { return reply(&mut client, ADDRESS_NOT_SUPPORTED) };
    let mut port = [0u8; 2];
    client.read_exact(&mut port)?;
    if command != CONNECT {
        return reply(&mut client, COMMAND_NOT_SUPPORTED);
    }
    match connect(state, &host, u16::from_be_bytes(port)) {
        Ok(upstream) => {
            reply(&mut client, SUCCEEDED)?;
            splice(client, upstream)
        }
        Err(Refusal::Unresolved { .. } | Refusal::Unreachable { .. }) => reply(&mut client, HOST_UNREACHABLE),
        Err(_) => reply(&mut client, NOT_ALLOWED),
    }
}

fn read_counted(client: &mut impl Client) -> std::io::Result<Vec<u8>> {
    let mut count = [0u8; 1];
    client.read_exact(&mut count)?;
    let mut bytes = vec![0u8; usize::from(count[0])];
    client.read_exact(&mut bytes)?;
    Ok(bytes)
}

fn read_host(client: &mut impl Client, kind: u8) -> std::io::Result<Option<String>> {
    Ok(match kind {
        1 => {
            let mut ip = [0u8; 4];
            client.read_exact(&mut ip)?;
            Some(Ipv4Addr::from(ip).to_string())
        }
        3 => String::from_utf8(read_counted(client)?).ok().filter(|name| !name.is_empty()),
        4 => {
            let mut ip = [0u8; 16];
            client.read_exact(&mut ip)?;
            Some(Ipv6Addr::from(ip).to_string())
        }
        _ => None,
    })
}

/// A reply with an empty bound address (clients do not use it for `CONNECT`).
fn reply(client: &mut impl Client, code: u8) -> std::io::Result<()> {
    send(client, &[VERSION, code, 0, 1, 0, 0, 0, 0, 0, 0])
}
