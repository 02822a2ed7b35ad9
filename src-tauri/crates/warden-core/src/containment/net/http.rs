//! The proxy's HTTP side: `CONNECT host:port` opens a tunnel (HTTPS, git over HTTPS); a plain
//! request in absolute form (`GET http://host/path`) is sent on in origin form with
//! `Connection: close`, so one client connection carries one request to one host.

use super::proxy::{connect, send, splice, Client, State};
use super::rules::Refusal;

/// The most a request's head may hold.
const MAX_HEAD: usize = 64 * 1024;

pub(super) fn serve<C: Client>(mut client: C, first: u8, state: &State) -> std::io::Result<()> {
    let (head, rest) = match read_head(&mut client, first)? {
        Some(read) => read,
        None => return answer(&mut client, "400 Bad Request", "the request's head is too long or cut off"),
    };
    let Some(request) = Request::parse(&head) else {
        return answer(&mut client, "400 Bad Request", "not an HTTP proxy request");
    };
    let mut upstream = match connect(state, &request.host, request.port) {
        Ok(upstream) => upstream,
        Err(refusal) => return refuse(&mut client, &request, &refusal),
    };
    match request.origin_form {
        None => send(&mut client, b"HTTP/1.1 200 Connection established\r\n\r\n")?,
        Some(head) => send(&mut upstream, head.as_bytes())?,
    }
    if !rest.is_empty() {
        send(&mut upstream, &rest)?;
    }
    splice(client, upstream)
}

fn refuse(client: &mut impl Client, request: &Request, refusal: &Refusal) -> std::io::Result<()> {
    let status = match refusal {
        Refusal::NotPublic { .. }
        | Refusal::Denied { .. }
        | Refusal::NotPinned { .. }
        | Refusal::Unknown { .. }
        | Refusal::NotAsked { .. }
        | Refusal::DeniedByUser { .. }
        | Refusal::NotAnswered { .. } => "403 Forbidden",
        Refusal::Unresolved { .. } | Refusal::Unreachable { .. } => "502 Bad Gateway",
    };
    let text = format!("Warden's proxy did not connect to {}:{}: {refusal}", request.host, request.port);
    answer(client, status, &text)
}

fn answer(client: &mut impl Client, status: &str, text: &str) -> std::io::Result<()> {
    let body = format!("{text}\n");
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    send(client, format!("{head}{body}").as_bytes())
}

/// The head (up to and without the blank line) and whatever came after it, or `None` when the
/// client sent more than [`MAX_HEAD`] or stopped before the blank line.
fn read_head(client: &mut impl Client, first: u8) -> std::io::Result<Option<(String, Vec<u8>)>> {
    let mut bytes = vec![first];
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = bytes.split_off(end + 4);
            bytes.truncate(end);
            return Ok(String::from_utf8(bytes).ok().map(|head| (head, rest)));
        }
        if bytes.len() > MAX_HEAD {
            return Ok(None);
        }
        match client.read(&mut chunk)? {
            0 => return Ok(None),
            n => bytes.extend_from_slice(&chunk[..n]),
        }
    }
}

/// A proxy request: where to, and for a plain request the head to send there.
#[derive(Debug, PartialEq, Eq)]
struct Request {
    host: String,
    port: u16,
    /// `None` for `CONNECT`.
    origin_form: Option<String>,
}

impl Request {
    fn parse(head: &str) -> Option<Self> {
        let mut lines = head.split("\r\n");
        let mut words = lines.next()?.split(' ');
        let (method, target, version) = (words.next()?, words.next()?, words.next()?);
        if words.next().is_some() || !version.starts_with("HTTP/1.") {
            return None;
        }
        if method.eq_ignore_ascii_case("CONNECT") {
            let (host, port) = split_authority(target, None)?;
            return Some(Self { host, port, origin_form: None });
        }
        let rest = target.strip_prefix("http://").or_else(|| target.strip_prefix("HTTP://"))?;
        let (authority, path) = match rest.find(['/', '?']) {
            Some(at) => (&rest[..at], &rest[at..]),
            None => (rest, "/"),
        };
        let path = if path.starts_with('?') { format!("/{path}") } else { path.to_owned() };
        let (host, port) = split_authority(authority, Some(80))?;
        let mut out = format!("{method} {path} {version}\r\n");
        for line in lines {
            let name = line.split(':').next().unwrap_or_default().trim().to_ascii_lowercase();
            if !matches!(
                name.as_str(),
                "connection" | "keep-alive" | "proxy-connection" | "proxy-authorization"
            ) {
                out.push_str(line);
                out.push_str("\r\n");
            }
        }
        out.push_str("Connection: close\r\n\r\n");
        Some(Self { host, port, origin_form: Some(out) })
    }
}

/// `host:port` or `[v6]:port`; `default` when no port is given (none for `CONNECT`). A user and
/// password in the authority are refused: the proxy never carries credentials it was not asked to.
fn split_authority(authority: &str, default: Option<u16>) -> Option<(String, u16)> {
    if authority.contains('@') || authority.is_empty() {
        return None;
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(rest) => {
            let (host, after) = rest.split_once(']')?;
            (host, after.strip_prefix(':'))
        }
        None => match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    let port = match port {
        Some(port) => port.parse().ok()?,
        None => default?,
    };
    (!host.is_empty()).then(|| (host.to_owned(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_names_its_host_and_port() {
        let r = Request::parse("CONNECT crates.io:443 HTTP/1.1\r\nHost: crates.io:443");
        assert_eq!(r, Some(Request { host: "crates.io".into(), port: 443, origin_form: None }));
        let v6 = Request::parse("CONNECT [::1]:8443 HTTP/1.1");
        assert_eq!(v6.map(|r| (r.host, r.port)), Some(("::1".into(), 8443)));
        assert_eq!(Request::parse("CONNECT crates.io HTTP/1.1"), None, "CONNECT needs a port");
    }

    #[test]
    fn a_plain_request_goes_on_in_origin_form_without_proxy_headers() {
        let r = Request::parse(
            "GET http://pypi.test:8080/simple/?q=1 HTTP/1.1\r\nHost: pypi.test:8080\r\nProxy-Authorization: x\r\nProxy-Connection: keep-alive\r\nAccept: */*",
        )
        .unwrap_or_else(|| panic!("parsed"));
        assert_eq!((r.host.as_str(), r.port), ("pypi.test", 8080));
        assert_eq!(
            r.origin_form.as_deref(),
            Some("GET /simple/?q=1 HTTP/1.1\r\nHost: pypi.test:8080\r\nAccept: */*\r\nConnection: close\r\n\r\n")
        );
        let bare = Request::parse("GET http://a.test HTTP/1.0").and_then(|r| r.origin_form);
        assert_eq!(bare.as_deref(), Some("GET / HTTP/1.0\r\nConnection: close\r\n\r\n"));
    }

    #[test]
    fn what_is_not_a_proxy_request_is_refused() {
        for head in [
            "GET /index.html HTTP/1.1",
            "GET https://a.test/ HTTP/1.1",
            "GET http://user:pw@a.test/ HTTP/1.1",
            "GET http://:80/ HTTP/1.1",
            "CONNECT a.test:99999 HTTP/1.1",
            "HELLO",
            "GET http://a.test/ SPDY/3",
        ] {
            assert_eq!(Request::parse(head), None, "{head}");
        }
    }
}
