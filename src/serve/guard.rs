//! Who may use the server: the `Host` and `Origin` of every request are checked before
//! anything else, so that a web page on another site cannot drive the games (cross-site
//! WebSocket hijacking) and a name that an attacker points at this machine cannot either
//! (DNS rebinding); and every answer carries headers that keep the page to itself.
//!
//! - `Host` must name this server: a loopback name or address (`localhost`, `127.x.x.x`,
//!   `[::1]`), the address it listens on, an IP address of this machine when it listens on
//!   every address, or a name given with `--allow-host`; and its port must be the server's.
//! - `Origin`, when present, must be `http://` and such a host and port. Programs that
//!   are not browsers send no `Origin` and are let in; browsers always send one with a
//!   WebSocket handshake, so another site's page is refused with 403.

use std::net::IpAddr;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The page needs nothing from elsewhere: its scripts, styles and images are its own, it
/// talks only to this server, and no other site may frame it.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The hosts this server answers to.
#[derive(Clone, Debug)]
pub struct Allowed {
    /// The port the server listens on.
    pub port: u16,
    /// The address it listens on.
    pub bind: IpAddr,
    /// Further host names (`--allow-host`), lowercase.
    pub names: Vec<String>,
}

/// Splits `host[:port]` (an IPv6 address in brackets) into the host, lowercase, and the
/// port (80 when absent, as for `http://`).
fn split_host_port(text: &str) -> Option<(String, u16)> {
    let text = text.trim();
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (h, after) = rest.split_once(']')?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (h, port)
    } else {
        match text.rsplit_once(':') {
            Some((h, p)) if !h.contains(':') => (h, Some(p)),
            Some(_) => return None,
            None => (text, None),
        }
    };
    if host.is_empty() {
        return None;
    }
    let port = match port {
        Some(p) => p.parse().ok()?,
        None => 80,
    };
    Some((host.to_ascii_lowercase(), port))
}

impl Allowed {
    /// Whether `host` (a `Host` header's host part) names this server.
    fn host_named(&self, host: &str) -> bool {
        if host == "localhost" || host.ends_with(".localhost") || self.names.iter().any(|n| n == host) {
            return true;
        }
        match host.parse::<IpAddr>() {
            // Through an IP address no other site's name can reach the server (a rebound
            // name arrives with that name). Listening on every address, any of the
            // machine's addresses is the server's.
            Ok(ip) => ip.is_loopback() || ip == self.bind || self.bind.is_unspecified(),
            Err(_) => false,
        }
    }

    /// Whether a `Host` header value names this server and its port.
    pub fn host_ok(&self, value: &str) -> bool {
        split_host_port(value).is_some_and(|(h, p)| p == self.port && self.host_named(&h))
    }

    /// Whether an `Origin` header value is this server's own origin.
    pub fn origin_ok(&self, value: &str) -> bool {
        value.strip_prefix("http://").is_some_and(|rest| !rest.contains('/') && self.host_ok(rest))
    }

    /// `Err` with the reason when the request's headers are not this server's.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), &'static str> {
        let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
        match host {
            Some(h) if self.host_ok(h) => {}
            _ => return Err("this server answers only to its own address (Host refused)"),
        }
        match headers.get(header::ORIGIN) {
            None => Ok(()),
            Some(o) if o.to_str().is_ok_and(|o| self.origin_ok(o)) => Ok(()),
            Some(_) => Err("requests from another site's page are refused (Origin refused)"),
        }
    }
}

/// The security headers every answer carries.
fn harden(headers: &mut HeaderMap) {
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
}

/// The middleware in front of every route: 403 for a foreign `Host` or `Origin`, and the
/// security headers on every answer.
pub async fn middleware(State(allowed): State<std::sync::Arc<Allowed>>, request: Request, next: Next) -> Response {
    let mut response = match allowed.check(request.headers()) {
        Ok(()) => next.run(request).await,
        Err(why) => {
            log::info!("refused {} {}: {why}", request.method(), request.uri().path());
            (StatusCode::FORBIDDEN, Body::from(format!("403 Forbidden: {why}\n"))).into_response()
        }
    };
    harden(response.headers_mut());
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(port: u16) -> Allowed {
        Allowed { port, bind: "127.0.0.1".parse().unwrap(), names: vec![] }
    }

    #[test]
    fn hosts_of_this_server_pass_and_others_fail() {
        let a = local(8066);
        for ok in ["127.0.0.1:8066", "localhost:8066", "LOCALHOST:8066", "[::1]:8066", "127.0.0.2:8066"] {
            assert!(a.host_ok(ok), "{ok}");
        }
        for bad in [
            "evil.example.com:8066",
            "attacker.rebind.example",
            "127.0.0.1:8067",
            "127.0.0.1",
            "localhost:80",
            "192.168.1.5:8066",
            "",
            ":8066",
            "[::1",
            "127.0.0.1:8066/x",
            "::1:8066",
        ] {
            assert!(!a.host_ok(bad), "{bad}");
        }
    }

    #[test]
    fn origins_must_be_this_servers_own() {
        let a = local(8066);
        assert!(a.origin_ok("http://127.0.0.1:8066"));
        assert!(a.origin_ok("http://localhost:8066"));
        for bad in [
            "null",
            "https://evil.example.com",
            "http://evil.example.com:8066",
            "https://127.0.0.1:8066",
            "http://127.0.0.1:9000",
            "http://127.0.0.1:8066/path",
            "file://",
        ] {
            assert!(!a.origin_ok(bad), "{bad}");
        }
    }

    #[test]
    fn every_address_and_named_hosts_when_asked() {
        let mut a = Allowed { port: 80, bind: "0.0.0.0".parse().unwrap(), names: vec!["board.lan".into()] };
        assert!(a.host_ok("192.168.1.5"));
        assert!(a.host_ok("board.lan"));
        assert!(!a.host_ok("evil.example.com"));
        a.bind = "192.168.1.5".parse().unwrap();
        assert!(a.host_ok("192.168.1.5:80"));
        assert!(!a.host_ok("10.0.0.1:80"));
    }

    #[test]
    fn a_missing_origin_passes_and_a_missing_host_fails() {
        let a = local(8066);
        let mut h = HeaderMap::new();
        assert!(a.check(&h).is_err());
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8066"));
        assert!(a.check(&h).is_ok());
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(a.check(&h).is_err());
        h.insert(header::ORIGIN, HeaderValue::from_static("http://127.0.0.1:8066"));
        assert!(a.check(&h).is_ok());
    }
}
