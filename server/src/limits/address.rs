//! Who the client is: its address as the connection or a trusted proxy
//! says (`--trusted-proxy`), and the key its limits are counted under
//! (an IPv6 /64 as one address).

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::str::FromStr;

use axum::http::HeaderMap;
use ipnet::{IpNet, Ipv4Net};

/// One `--trusted-proxy`: an address (`10.0.0.9`, `::1`), or a range in
/// CIDR notation (`172.28.0.0/16`, `fd00::/8`). An IPv4-mapped IPv6 range
/// (`::ffff:10.0.0.0/104`) is its IPv4 range, as peers are compared in
/// their canonical form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrustedProxy(IpNet);

impl TrustedProxy {
    /// Whether `ip` is this proxy, or in its range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.contains(&ip.to_canonical())
    }
}

impl FromStr for TrustedProxy {
    type Err = String;

    fn from_str(text: &str) -> Result<TrustedProxy, String> {
        let text = text.trim();
        let net = match text.parse::<IpAddr>() {
            Ok(ip) => IpNet::from(ip),
            Err(_) => text.parse::<IpNet>().map_err(|_| {
                format!("{text:?} is neither an IP address nor a CIDR range (like 172.28.0.0/16)")
            })?,
        };
        let net = match net {
            IpNet::V6(v6) if v6.prefix_len() >= 96 => v6
                .addr()
                .to_ipv4_mapped()
                .and_then(|v4| Ipv4Net::new(v4, v6.prefix_len() - 96).ok())
                .map_or(net, IpNet::V4),
            _ => net,
        };
        // A range that wide holds clients, not proxies: every client in it
        // would choose its own address (`X-Forwarded-For`), and with it
        // every limit per address. The private blocks (10.0.0.0/8,
        // fc00::/7) are the widest a proxy needs.
        let widest = match net {
            IpNet::V4(_) => 8,
            IpNet::V6(_) => 7,
        };
        if net.prefix_len() < widest {
            return Err(format!(
                "{text:?} is wider than /{widest}: it holds clients, who could each choose \
                 their own address; name the proxies' own addresses or range"
            ));
        }
        Ok(TrustedProxy(net.trunc()))
    }
}

/// Whether `ip` is one of the `trusted` proxies.
pub(super) fn trusts(trusted: &[TrustedProxy], ip: IpAddr) -> bool {
    trusted.iter().any(|t| t.contains(ip))
}

/// The client's address: `peer` itself unless it is one of `trusted`
/// proxies. From a trusted proxy, the rightmost entry of
/// `X-Forwarded-For` (all its lines, in order) that is not itself a
/// trusted proxy: each proxy appends the address it was reached from, so
/// entries to the left of that one were written by the client and prove
/// nothing. Without `X-Forwarded-For`, `X-Real-IP`. A missing or
/// unreadable header counts the request against the proxy's own address.
pub fn client_ip(peer: SocketAddr, headers: &HeaderMap, trusted: &[TrustedProxy]) -> IpAddr {
    let peer = peer.ip().to_canonical();
    if !trusts(trusted, peer) {
        return peer;
    }
    let mut hops = headers.get_all("x-forwarded-for").iter().peekable();
    if hops.peek().is_some() {
        // Split on the raw bytes: a byte the client wrote that is not
        // visible ASCII spoils its own entry only, not the proxy's
        // entries to the right of it.
        let entries: Vec<&[u8]> = hops
            .flat_map(|v| v.as_bytes().split(|&b| b == b','))
            .collect();
        let mut client = peer;
        for entry in entries.iter().rev() {
            match std::str::from_utf8(entry).ok().and_then(parse_hop) {
                Some(ip) if trusts(trusted, ip) => client = ip,
                Some(ip) => return ip,
                None => return peer,
            }
        }
        return client;
    }
    headers
        .get("x-real-ip")
        .and_then(|v| v.to_str().ok())
        .and_then(parse_hop)
        .unwrap_or(peer)
}

/// One forwarded address: `1.2.3.4`, `1.2.3.4:5678`, `::1`, `[::1]` or
/// `[::1]:5678`.
fn parse_hop(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    let ip = text
        .parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            text.strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .and_then(|t| t.parse().ok())
        })?;
    Some(ip.to_canonical())
}

/// The bucket an address is counted in: IPv4 addresses one by one, IPv6
/// addresses by their /64.
pub fn bucket_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}
