//! What the proxy lets through. Without a rule, a name that resolves to a public address; with a
//! rule naming the host (a glob, and a port when given), any address it resolves to, this machine
//! and its networks included. A name may be given its address here (`resolve`, as curl's
//! `--resolve` does), which the box cannot change.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

use warden_protocol::{PermissionRule, RuleEffect, NETWORK_RULE_TOOL};

use super::address::Reach;

/// A host pattern with an optional port: `crates.io`, `*.npmjs.org`, `127.0.0.1:8080`,
/// `[::1]:8080`. `*.` matches any name below the domain, not the domain itself.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HostRule {
    host: String,
    port: Option<u16>,
}

impl HostRule {
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("{text:?} is not a host pattern (host, *.domain, host:port or [v6]:port)");
        let (host, port) = if let Some(rest) = text.strip_prefix('[') {
            let (host, after) = rest.split_once(']').ok_or_else(bad)?;
            match after.strip_prefix(':') {
                Some(port) => (host, Some(port)),
                None if after.is_empty() => (host, None),
                None => return Err(bad()),
            }
        } else if text.matches(':').count() > 1 {
            (text, None)
        } else {
            match text.rsplit_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (text, None),
            }
        };
        let port = port.map(|p| p.parse::<u16>().map_err(|_| bad())).transpose()?;
        let host = normal(host);
        let name = host.strip_prefix("*.").unwrap_or(&host);
        if name.is_empty() || name.contains('*') || name.contains(char::is_whitespace) {
            return Err(bad());
        }
        Ok(Self { host, port })
    }

    /// The rule that names exactly `host` on `port` (what "Always for this project" saves).
    pub fn exact(host: &str, port: u16) -> Self {
        Self { host: normal(host), port: Some(port) }
    }

    fn matches(&self, host: &str, port: u16) -> bool {
        if self.port.is_some_and(|p| p != port) {
            return false;
        }
        if self.host == "*" {
            return true;
        }
        match self.host.strip_prefix("*.") {
            Some(domain) => host.strip_suffix(domain).is_some_and(|sub| sub.ends_with('.') && sub.len() > 1),
            None => host == self.host,
        }
    }
}

/// The pattern as the settings keep it (`HostRule::parse` reads it back).
impl std::fmt::Display for HostRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        match self.port {
            Some(port) => write!(f, "{host}:{port}"),
            None if self.host.contains(':') => write!(f, "{host}"),
            None => write!(f, "{}", self.host),
        }
    }
}

/// A name as the rules compare it: lower case, no trailing dot, no IPv6 brackets.
fn normal(host: &str) -> String {
    host.trim_start_matches('[').trim_end_matches(']').trim_end_matches('.').to_ascii_lowercase()
}

/// The proxy's rules.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Hosts reachable whatever they resolve to.
    pub allow: Vec<HostRule>,
    /// Hosts reachable at their public addresses only, without a question (the registries'
    /// preset, [`super::registries`]): one that resolves to this machine or a private network is
    /// refused as an unnamed host would be.
    pub allow_public: Vec<HostRule>,
    /// Hosts never reached, whatever they resolve to and whatever allows them.
    pub deny: Vec<HostRule>,
    /// Hosts asked about every time, whatever allows them (a deny still wins).
    pub ask_hosts: Vec<HostRule>,
    /// The organisation's pin: when set, no host outside it is reached, whatever allows it.
    pub pinned: Option<Vec<HostRule>>,
    /// Names given their address, never looked up.
    pub resolve: Vec<(String, IpAddr)>,
    /// Whether a host no rule names is a question for the user ([`Refusal::Unknown`]: the
    /// project's network is `rules`) rather than reached when public (the per-call network a user
    /// approved for one command).
    pub ask: bool,
}

/// Why the proxy did not connect.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("{host} resolves only to {}; a rule naming the host is needed", .reach.describe())]
    NotPublic { host: String, reach: Reach },
    #[error("a rule denies {host}")]
    Denied { host: String },
    #[error("the organisation's policy lets boxes reach only the hosts it lists, and {host} is not one")]
    NotPinned { host: String },
    #[error("cannot resolve {host}: {why}")]
    Unresolved { host: String, why: String },
    #[error("cannot connect to {host}: {why}")]
    Unreachable { host: String, why: String },
    /// No rule names the host and the user is to be asked; where it would go is known.
    #[error("no rule names {host}")]
    Unknown { host: String, addresses: Vec<SocketAddr> },
    #[error("no rule names {host}, and nobody could be asked here (allow it in Settings → Sandbox)")]
    NotAsked { host: String },
    #[error("you denied {host} for this session")]
    DeniedByUser { host: String },
    #[error("{host} was not allowed: {why}")]
    NotAnswered { host: String, why: String },
}

impl Rules {
    /// The network rules among `rules` (the user's and the project's permission rules); a
    /// pattern that is not a host pattern is logged and skipped, and a rule without one covers
    /// every host.
    pub fn from_permission_rules<'a>(rules: impl IntoIterator<Item = &'a PermissionRule>) -> Self {
        let mut out = Self::default();
        for rule in rules.into_iter().filter(|r| r.tool == NETWORK_RULE_TOOL) {
            let host = match rule.pattern.as_deref() {
                Some(pattern) => match HostRule::parse(pattern) {
                    Ok(host) => host,
                    Err(why) => {
                        tracing::warn!(why, "network rule skipped");
                        continue;
                    }
                },
                None => HostRule { host: "*".to_owned(), port: None },
            };
            match rule.effect {
                RuleEffect::Allow => out.allow.push(host),
                RuleEffect::Ask => out.ask_hosts.push(host),
                RuleEffect::Deny => out.deny.push(host),
            }
        }
        out
    }

    /// Pin the hosts to `patterns` (the organisation's `allowedDomains`); one that does not parse
    /// pins nothing through (the managed file refuses it before it comes here).
    pub fn pin(&mut self, patterns: &[String]) {
        self.pinned = Some(patterns.iter().filter_map(|p| HostRule::parse(p).ok()).collect());
    }

    /// The addresses `host:port` may be reached at, in the resolver's order, or why none.
    pub fn addresses(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, Refusal> {
        let host = normal(host);
        if self.deny.iter().any(|rule| rule.matches(&host, port)) {
            return Err(Refusal::Denied { host });
        }
        if self.pinned.as_ref().is_some_and(|pins| !pins.iter().any(|rule| rule.matches(&host, port))) {
            return Err(Refusal::NotPinned { host });
        }
        let resolved = self.resolve(&host, port)?;
        if self.ask_hosts.iter().any(|rule| rule.matches(&host, port)) {
            return Err(if self.ask {
                Refusal::Unknown { host, addresses: resolved }
            } else {
                Refusal::NotAsked { host }
            });
        }
        if self.allow.iter().any(|rule| rule.matches(&host, port)) {
            return Ok(resolved);
        }
        let public: Vec<SocketAddr> =
            resolved.iter().copied().filter(|a| Reach::of(a.ip()) == Reach::Public).collect();
        // The preset opens its hosts without a question only where they are public.
        let preset_public =
            !public.is_empty() && self.allow_public.iter().any(|rule| rule.matches(&host, port));
        if self.ask && !preset_public {
            return Err(Refusal::Unknown { host, addresses: resolved });
        }
        match (public.is_empty(), resolved.first()) {
            (false, _) => Ok(public),
            (true, Some(first)) => Err(Refusal::NotPublic { host, reach: Reach::of(first.ip()) }),
            (true, None) => Err(Refusal::Unresolved { host, why: "no address".to_owned() }),
        }
    }

    fn resolve(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, Refusal> {
        if let Some((_, ip)) = self.resolve.iter().find(|(name, _)| normal(name) == host) {
            return Ok(vec![SocketAddr::new(*ip, port)]);
        }
        if let Ok(ip) = host.parse::<IpAddr>() {
            return Ok(vec![SocketAddr::new(ip, port)]);
        }
        (host, port)
            .to_socket_addrs()
            .map(Iterator::collect)
            .map_err(|e| Refusal::Unresolved { host: host.to_owned(), why: e.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(allow: &[&str]) -> Rules {
        Rules {
            allow: allow.iter().map(|r| HostRule::parse(r).unwrap_or_else(|e| panic!("{e}"))).collect(),
            allow_public: Vec::new(),
            deny: Vec::new(),
            ask_hosts: Vec::new(),
            pinned: None,
            resolve: vec![
                ("registry.test".to_owned(), "127.0.0.1".parse().unwrap_or_else(|e| panic!("{e}"))),
                ("metadata.test".to_owned(), "169.254.169.254".parse().unwrap_or_else(|e| panic!("{e}"))),
                ("example.test".to_owned(), "93.184.216.34".parse().unwrap_or_else(|e| panic!("{e}"))),
            ],
            ask: false,
        }
    }

    fn reach_refused(result: Result<Vec<SocketAddr>, Refusal>) -> Option<Reach> {
        match result {
            Err(Refusal::NotPublic { reach, .. }) => Some(reach),
            _ => None,
        }
    }

    #[test]
    fn this_machine_and_the_metadata_service_are_refused_without_a_rule() {
        let none = rules(&[]);
        assert_eq!(reach_refused(none.addresses("registry.test", 443)), Some(Reach::Loopback));
        assert_eq!(reach_refused(none.addresses("127.0.0.1", 80)), Some(Reach::Loopback));
        assert_eq!(reach_refused(none.addresses("[::1]", 80)), Some(Reach::Loopback));
        assert_eq!(reach_refused(none.addresses("metadata.test", 80)), Some(Reach::LinkLocal));
        assert_eq!(reach_refused(none.addresses("0.0.0.0", 80)), Some(Reach::Unspecified));
        assert_eq!(none.addresses("EXAMPLE.test.", 443).map(|a| a.len()), Ok(1));
    }

    #[test]
    fn a_rule_opens_its_host_and_port_only() {
        let some = rules(&["registry.test:443", "*.internal.test", "[::1]:9"]);
        assert!(some.addresses("registry.test", 443).is_ok());
        assert!(reach_refused(some.addresses("registry.test", 80)).is_some(), "another port");
        assert!(some.addresses("[::1]", 9).is_ok());
        let below = Rules {
            resolve: vec![("a.internal.test".into(), "10.0.0.1".parse().unwrap_or_else(|e| panic!("{e}")))],
            ..some.clone()
        };
        assert!(below.addresses("a.internal.test", 1).is_ok());
        let apex = Rules {
            resolve: vec![("internal.test".into(), "10.0.0.1".parse().unwrap_or_else(|e| panic!("{e}")))],
            ..some
        };
        assert!(reach_refused(apex.addresses("internal.test", 1)).is_some(), "*. is below the domain only");
    }

    #[test]
    fn a_deny_rule_wins_over_an_allow_rule_and_the_internet() {
        let mut some = rules(&["registry.test"]);
        some.deny = vec![
            HostRule::parse("registry.test").unwrap_or_else(|e| panic!("{e}")),
            HostRule::parse("example.test:443").unwrap_or_else(|e| panic!("{e}")),
        ];
        assert_eq!(some.addresses("registry.test", 1), Err(Refusal::Denied { host: "registry.test".into() }));
        assert!(matches!(some.addresses("example.test", 443), Err(Refusal::Denied { .. })));
        assert!(some.addresses("example.test", 80).is_ok());
    }

    #[test]
    fn network_rules_are_read_from_the_permission_rules_and_others_left() {
        let rule = |effect, tool: &str, pattern: Option<&str>| PermissionRule {
            effect,
            tool: tool.to_owned(),
            pattern: pattern.map(str::to_owned),
            origin: None,
        };
        let read = Rules::from_permission_rules(&[
            rule(RuleEffect::Allow, "network", Some("registry.test:443")),
            rule(RuleEffect::Allow, "bash", Some("cargo test")),
            rule(RuleEffect::Allow, "network", Some("not a host")),
            rule(RuleEffect::Deny, "network", None),
        ]);
        assert_eq!(read.allow, [HostRule { host: "registry.test".into(), port: Some(443) }]);
        let everything = HostRule { host: "*".into(), port: None };
        assert_eq!(read.deny, std::slice::from_ref(&everything));
        assert!(everything.matches("anything.example", 1));
        assert!(matches!(read.addresses("example.test", 443), Err(Refusal::Denied { .. })));
    }

    #[test]
    fn with_asking_on_every_host_no_rule_names_is_a_question_public_or_not() {
        let mut asking = rules(&["registry.test"]);
        asking.ask = true;
        assert!(asking.addresses("registry.test", 443).is_ok(), "a rule still opens its host");
        for host in ["example.test", "metadata.test", "127.0.0.1"] {
            assert!(
                matches!(asking.addresses(host, 443), Err(Refusal::Unknown { ref addresses, .. }) if addresses.len() == 1),
                "{host}"
            );
        }
        asking.deny = vec![HostRule::parse("example.test").unwrap_or_else(|e| panic!("{e}"))];
        assert!(
            matches!(asking.addresses("example.test", 443), Err(Refusal::Denied { .. })),
            "a deny is no question"
        );
    }

    /// The registries' preset opens its hosts at their public addresses only: one that resolves to
    /// this machine or the metadata service is what an unnamed host is (a question, or refused),
    /// so a resolver cannot turn a registry's name into a way to the machine's own services.
    #[test]
    fn a_preset_host_is_reached_at_public_addresses_only() {
        let preset = |ask: bool| {
            let mut rules = rules(&[]);
            rules.ask = ask;
            rules.allow_public = ["example.test:443", "registry.test:443", "metadata.test:443"]
                .iter()
                .map(|r| HostRule::parse(r).unwrap_or_else(|e| panic!("{e}")))
                .collect();
            rules
        };
        for ask in [true, false] {
            let rules = preset(ask);
            assert!(rules.addresses("example.test", 443).is_ok(), "public, ask={ask}");
            if ask {
                assert!(rules.addresses("example.test", 80).is_err(), "another port is asked about");
            }
            for inside in ["registry.test", "metadata.test"] {
                let refused = rules.addresses(inside, 443);
                match ask {
                    true => assert!(matches!(refused, Err(Refusal::Unknown { .. })), "{inside}: {refused:?}"),
                    false => assert!(reach_refused(refused).is_some(), "{inside}"),
                }
            }
        }
        let mut denied = preset(true);
        denied.deny = vec![HostRule::parse("example.test").unwrap_or_else(|e| panic!("{e}"))];
        assert!(matches!(denied.addresses("example.test", 443), Err(Refusal::Denied { .. })), "a deny wins");
    }

    /// A host rule as the proxy keeps it.
    #[test]
    fn a_host_and_port_make_the_rule_that_names_exactly_them() {
        assert_eq!(
            HostRule::exact("Registry.Test.", 443),
            HostRule { host: "registry.test".into(), port: Some(443) }
        );
        assert_eq!(HostRule::exact("::1", 80).to_string(), "[::1]:80");
        assert_eq!(HostRule::exact("crates.io", 443).to_string(), "crates.io:443");
        assert_eq!(HostRule::parse(&HostRule::exact("::1", 80).to_string()), Ok(HostRule::exact("::1", 80)));
    }

    #[test]
    fn host_patterns_that_are_not_one_are_refused() {
        for bad in ["", "*", "*.", "a*.b", "host:port", "[::1", "[::1]x", "a b", "host:70000"] {
            assert!(HostRule::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(HostRule::parse("Crates.IO."), Ok(HostRule { host: "crates.io".into(), port: None }));
        assert_eq!(HostRule::parse("::1"), Ok(HostRule { host: "::1".into(), port: None }));
    }
}
