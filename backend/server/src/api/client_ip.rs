//! The client address per-client limits are keyed by: the peer, or through trusted proxies
//! (`--trusted-proxy`) the address they saw; an IPv6 client counts per /64.

use crate::state::AppState;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

/// The client's address, when the server was started with connection info (`serve` is; a
/// router driven directly in a test is not).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub Option<IpAddr>);

impl ClientIp {
    /// A key for per-client limits: the IPv4 address, or the /64 network of an IPv6 address
    /// (one host can use a whole /64).
    pub fn key(&self) -> String {
        match self.0 {
            Some(IpAddr::V4(ip)) => ip.to_string(),
            Some(IpAddr::V6(ip)) => match ip.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => {
                    let s = ip.segments();
                    format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
            None => "unknown".into(),
        }
    }
}

/// The client behind a chain of trusted proxies: walking `X-Forwarded-For` from the right
/// (the hop the last proxy added), the first address that is not a trusted proxy. A peer that is
/// not a trusted proxy is the client itself, whatever its headers say.
pub fn client_behind(peer: IpAddr, forwarded_for: Option<&str>, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let mut client = peer;
    for hop in forwarded_for.unwrap_or("").rsplit(',') {
        match hop.trim().parse::<IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !trusted.contains(&ip) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

/// Every `X-Forwarded-For` line of a request joined in order, as one list. A proxy such as
/// HAProxy (`option forwardfor`) adds its own line after the one the client sent, so the hop
/// the proxy saw is on the last line, not the first. A line that is not text makes the whole
/// list unreadable (the peer is then the client).
pub fn forwarded_for(headers: &axum::http::HeaderMap) -> Option<String> {
    let mut lines = Vec::new();
    for v in headers.get_all("x-forwarded-for") {
        lines.push(v.to_str().ok()?);
    }
    (!lines.is_empty()).then(|| lines.join(","))
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        let forwarded = forwarded_for(&parts.headers);
        Ok(ClientIp(peer.map(|p| {
            client_behind(p, forwarded.as_deref(), &state.trusted_proxies)
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_addresses_count_only_through_trusted_proxies() {
        let proxy: IpAddr = "10.0.0.5".parse().unwrap();
        let client: IpAddr = "203.0.113.9".parse().unwrap();
        let trusted = [proxy];
        // Through the trusted proxy: the address it saw.
        assert_eq!(
            client_behind(proxy, Some("198.51.100.1, 203.0.113.9"), &trusted),
            client
        );
        // A client that is not a proxy cannot pick its own address.
        assert_eq!(client_behind(client, Some("1.2.3.4"), &trusted), client);
        // Garbage after the proxy: the proxy itself is the client.
        assert_eq!(client_behind(proxy, Some("nonsense"), &trusted), proxy);
        assert_eq!(client_behind(proxy, None, &trusted), proxy);
    }

    #[test]
    fn the_hop_a_proxy_adds_on_its_own_line_is_the_client_not_the_forged_first_line() {
        // HAProxy's `option forwardfor` appends a second header line after the client's own.
        let mut headers = axum::http::HeaderMap::new();
        headers.append("x-forwarded-for", "6.6.6.6".parse().unwrap());
        headers.append("x-forwarded-for", "203.0.113.9".parse().unwrap());
        let joined = forwarded_for(&headers);
        assert_eq!(joined.as_deref(), Some("6.6.6.6,203.0.113.9"));
        let proxy: IpAddr = "10.0.0.5".parse().unwrap();
        assert_eq!(
            client_behind(proxy, joined.as_deref(), &[proxy]),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        // Two trusted proxies in a row, the client's forged line first.
        let inner: IpAddr = "10.0.0.6".parse().unwrap();
        let mut headers = axum::http::HeaderMap::new();
        headers.append("x-forwarded-for", "1.1.1.1, 2.2.2.2".parse().unwrap());
        headers.append("x-forwarded-for", "198.51.100.7, 10.0.0.5".parse().unwrap());
        assert_eq!(
            client_behind(inner, forwarded_for(&headers).as_deref(), &[proxy, inner]),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(forwarded_for(&axum::http::HeaderMap::new()), None);
    }

    #[test]
    fn ipv6_clients_are_limited_per_64() {
        let a = ClientIp(Some("2001:db8:1:2:aaaa::1".parse().unwrap()));
        let b = ClientIp(Some("2001:db8:1:2:bbbb::9".parse().unwrap()));
        let c = ClientIp(Some("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(a.key(), b.key());
        assert_ne!(a.key(), c.key());
        let v4 = ClientIp(Some("::ffff:192.0.2.7".parse().unwrap()));
        assert_eq!(v4.key(), "192.0.2.7");
    }
}
