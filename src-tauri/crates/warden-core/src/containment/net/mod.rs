//! The box's network: a namespace of its own whose only way out is Warden's proxy ([`proxy`]),
//! which resolves names itself and connects only where its [`rules`] allow. The box's launcher
//! (`warden-box`, see [`super::launcher`]) bridges the box's loopback to the proxy's socket, and
//! the box's environment names the proxy, so the tools that honour `HTTPS_PROXY` (cargo, npm, pip,
//! git, curl, go) work unchanged; nothing else leaves: no abstract unix socket of the host (X11,
//! a session bus), no address of this machine or its networks unless a rule names it.

mod address;
pub mod ask;
#[cfg(target_os = "linux")]
mod forward;
mod http;
pub mod proxy;
pub mod registries;
pub mod rules;
#[cfg(target_os = "linux")]
mod session;
mod socks;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock};

pub use address::Reach;
pub use ask::{Answer, Asker, Question};
pub use proxy::{Decision, Proxy};
pub use rules::{HostRule, Refusal, Rules};
#[cfg(target_os = "linux")]
pub(super) use session::control_in_box;
#[cfg(target_os = "linux")]
pub use session::{Join, SharedNet};

/// A port a boxed server listens on in the session's network, and where this machine reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Forward {
    /// The port in the box.
    pub port: u16,
    /// The port on this machine's `127.0.0.1` (the same one unless it was taken).
    pub host_port: u16,
}

/// A session's network is bubblewrap's, on Linux only; elsewhere every box has its own.
#[cfg(not(target_os = "linux"))]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SharedNet;

#[cfg(not(target_os = "linux"))]
impl SharedNet {
    pub fn forwarded(&self) -> Vec<Forward> {
        Vec::new()
    }
    pub fn set_asker(&self, _asker: Arc<dyn Asker>) {}
    pub fn call_ended(&self) {}
    pub fn mark(&self) -> u64 {
        0
    }
    pub fn decisions_since(&self, _mark: u64) -> Vec<Decision> {
        Vec::new()
    }
}

/// Where the proxy's folder is mounted in a box (under the box's private `/tmp`).
pub const DIR_IN_BOX: &str = "/tmp/.warden-net";
/// The port on the box's loopback the launcher listens on for the proxy.
pub const PORT_IN_BOX: u16 = 39_281;

/// The variables that point a box's programs at the proxy: HTTP and HTTPS through it, SOCKS for
/// what reads `ALL_PROXY`, the box's own loopback directly (a server a command starts in its box).
pub fn proxy_env() -> Vec<(&'static str, String)> {
    proxy_env_at(PORT_IN_BOX)
}

/// [`proxy_env`] for a proxy listening on loopback port `port` (the Landlock fallback's).
pub fn proxy_env_at(port: u16) -> Vec<(&'static str, String)> {
    let http = format!("http://127.0.0.1:{port}");
    let socks = format!("socks5h://127.0.0.1:{port}");
    let direct = "localhost,127.0.0.1,::1".to_owned();
    vec![
        ("HTTP_PROXY", http.clone()),
        ("HTTPS_PROXY", http.clone()),
        ("http_proxy", http.clone()),
        ("https_proxy", http),
        ("ALL_PROXY", socks.clone()),
        ("all_proxy", socks),
        ("NO_PROXY", direct.clone()),
        ("no_proxy", direct),
    ]
}

/// A proxy of one box's own (a local MCP server's), held by whoever started it for as long as the
/// box runs; it compares equal only to itself.
#[derive(Clone)]
pub struct OwnProxy(Arc<Proxy>);

impl OwnProxy {
    /// A proxy applying `rules` that asks `asker` about the hosts they leave open (`rules.ask`).
    pub fn start(rules: Rules, asker: Arc<dyn Asker>) -> Result<Self, String> {
        let proxy = Proxy::start(rules, report_hook())
            .map_err(|e| format!("cannot start Warden's network proxy: {e}"))?;
        proxy.set_asker(asker);
        Ok(Self(Arc::new(proxy)))
    }

    pub fn proxy(&self) -> Arc<Proxy> {
        Arc::clone(&self.0)
    }
}

impl std::fmt::Debug for OwnProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OwnProxy")
    }
}

impl PartialEq for OwnProxy {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for OwnProxy {}

/// The proxy for boxes with `rules`: one per distinct set of rules, started on first use and kept
/// for as long as the process runs (a process serves a few projects, each with its own rules).
pub fn proxy_for(rules: &Rules) -> Result<Arc<Proxy>, String> {
    static RUNNING: OnceLock<Mutex<HashMap<Rules, Arc<Proxy>>>> = OnceLock::new();
    let mut running = RUNNING
        .get_or_init(Mutex::default)
        .lock()
        .map_err(|_| "the network proxies' table is poisoned".to_owned())?;
    if let Some(proxy) = running.get(rules) {
        return Ok(Arc::clone(proxy));
    }
    let proxy = Arc::new(
        Proxy::start(rules.clone(), report_hook())
            .map_err(|e| format!("cannot start Warden's network proxy: {e}"))?,
    );
    running.insert(rules.clone(), Arc::clone(&proxy));
    Ok(proxy)
}

static REPORT: OnceLock<fn(&Decision)> = OnceLock::new();

/// What a new proxy reports its decisions to ([`report_decisions`]).
fn report_hook() -> Option<Box<proxy::Report>> {
    REPORT.get().map(|report| Box::new(*report) as Box<proxy::Report>)
}

/// What every proxy of this process calls on each decision (`warden sandbox` prints refusals);
/// set once, before the first box.
pub fn report_decisions(report: fn(&Decision)) {
    let _ = REPORT.set(report);
}

/// The variable that gives names their address for this process's proxies, as curl's `--resolve`
/// does: `name=address,name=address`. For tests and private setups: it grants nothing by itself
/// (a name given a loopback or private address still needs a rule), and a box cannot set it
/// (Warden's own variables never reach a command).
pub const RESOLVE_ENV: &str = "WARDEN_NET_RESOLVE";

/// [`RESOLVE_ENV`]'s entries; malformed ones are logged and skipped.
pub fn resolve_from_env() -> Vec<(String, IpAddr)> {
    let Ok(value) = std::env::var(RESOLVE_ENV) else { return Vec::new() };
    value
        .split(',')
        .filter(|entry| !entry.trim().is_empty())
        .filter_map(|entry| {
            let parsed = entry.split_once('=').and_then(|(name, address)| {
                let address = address.trim().trim_start_matches('[').trim_end_matches(']');
                Some((name.trim().to_owned(), address.parse().ok()?)).filter(|(name, _)| !name.is_empty())
            });
            if parsed.is_none() {
                tracing::warn!(entry, "{RESOLVE_ENV}: not name=address; skipped");
            }
            parsed
        })
        .collect()
}
