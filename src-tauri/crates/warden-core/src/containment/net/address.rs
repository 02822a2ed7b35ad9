//! What kind of address a name resolved to: the proxy lets a boxed command reach the public
//! internet, and nothing on this machine or its networks unless a rule names it.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Where an address leads, for the proxy's decision and its refusal message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Anywhere on the internet.
    Public,
    /// This machine: `127.0.0.0/8`, `::1`.
    Loopback,
    /// `0.0.0.0`, `::` (which mean this machine to `connect`).
    Unspecified,
    /// The link: `169.254.0.0/16` (cloud metadata services live at `169.254.169.254`), `fe80::/10`.
    LinkLocal,
    /// The local networks: RFC 1918, carrier-grade NAT (`100.64.0.0/10`), unique local `fc00::/7`.
    Private,
    /// Multicast and broadcast, documentation and reserved ranges: nothing a command connects to.
    Special,
}

impl Reach {
    pub fn of(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => of_v4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => of_v4(v4),
                None => of_v6(v6),
            },
        }
    }

    /// Words for a refusal: "a loopback address (this machine)".
    pub fn describe(self) -> &'static str {
        match self {
            Self::Public => "a public address",
            Self::Loopback => "a loopback address (this machine)",
            Self::Unspecified => "an unspecified address (this machine)",
            Self::LinkLocal => "a link-local address (cloud metadata services live there)",
            Self::Private => "a private network address",
            Self::Special => "a multicast, broadcast or reserved address",
        }
    }
}

fn of_v4(ip: Ipv4Addr) -> Reach {
    let [a, b, ..] = ip.octets();
    if ip.is_loopback() {
        Reach::Loopback
    } else if ip.is_unspecified() || a == 0 {
        Reach::Unspecified
    } else if ip.is_link_local() {
        Reach::LinkLocal
    } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
        Reach::Private
    } else if ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a >= 240
        || (a == 192 && b == 0)
    {
        Reach::Special
    } else {
        Reach::Public
    }
}

fn of_v6(ip: Ipv6Addr) -> Reach {
    let first = ip.segments()[0];
    if ip.is_loopback() {
        Reach::Loopback
    } else if ip.is_unspecified() {
        Reach::Unspecified
    } else if first & 0xffc0 == 0xfe80 {
        Reach::LinkLocal
    } else if first & 0xfe00 == 0xfc00 {
        Reach::Private
    } else if ip.is_multicast() || first == 0x2001 && ip.segments()[1] == 0x0db8 {
        Reach::Special
    } else {
        Reach::Public
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_address_of_this_machine_and_its_networks_is_told_apart_from_the_internet() {
        let cases = [
            ("127.0.0.1", Reach::Loopback),
            ("127.255.0.9", Reach::Loopback),
            ("::1", Reach::Loopback),
            ("::ffff:127.0.0.1", Reach::Loopback),
            ("0.0.0.0", Reach::Unspecified),
            ("::", Reach::Unspecified),
            ("169.254.169.254", Reach::LinkLocal),
            ("::ffff:169.254.169.254", Reach::LinkLocal),
            ("fe80::1", Reach::LinkLocal),
            ("10.1.2.3", Reach::Private),
            ("172.16.0.1", Reach::Private),
            ("192.168.1.1", Reach::Private),
            ("100.64.0.1", Reach::Private),
            ("fd00::1", Reach::Private),
            ("224.0.0.1", Reach::Special),
            ("255.255.255.255", Reach::Special),
            ("192.0.2.1", Reach::Special),
            ("93.184.216.34", Reach::Public),
            ("172.32.0.1", Reach::Public),
            ("100.128.0.1", Reach::Public),
            ("2606:4700::1111", Reach::Public),
        ];
        for (ip, want) in cases {
            let ip: IpAddr = ip.parse().unwrap_or_else(|e| panic!("{ip}: {e}"));
            assert_eq!(Reach::of(ip), want, "{ip}");
        }
    }
}
