//! Who may use the server: the `Host` and `Origin` of every request are checked before
//! anything else, so that a web page on another site cannot drive the games (cross-site
//! WebSocket hijacking) and a name that an attacker points at this machine cannot either
//! (DNS rebinding); and every answer carries headers that keep the page to itself.
//!
//! - `Host` must name this server: a loopback name or address (`localhost`, `127.x.x.x`,
//!   `[::1]`), the address it listens on, an IP address of this machine when it listens on
//!   every address, or a name given with `--allow-host`; and its port must be the server's.
//! - `Origin`, when present, must be `http://` and the very host and port the request was
//!   sent to (its `Host`): the page's own origin. Programs that are not browsers send no
//!   `Origin` and are let in; browsers always send one with a WebSocket handshake, so
//!   another site's page is refused with 403, an IP address's page included.
//! - Bound beyond loopback, every request carries the server's secret [`Token`] (printed
//!   in its address at start, as Jupyter's server does): as `?token=` in the address, or
//!   as the cookie the first page load with it sets (that load is sent on to the same
//!   address without the token). On loopback no token is asked.

use std::net::IpAddr;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The page needs nothing from elsewhere: its scripts, styles and images are its own, it
/// talks only to this server, and no other site may frame it.
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The hosts this server answers to, and its token.
#[derive(Clone, Debug)]
pub(crate) struct Allowed {
    /// The port the server listens on.
    pub(crate) port: u16,
    /// The address it listens on.
    pub(crate) bind: IpAddr,
    /// Further host names (`--allow-host`), lowercase.
    pub(crate) names: Vec<String>,
    /// The token every request must carry (bound beyond loopback); `None` on loopback.
    pub(crate) token: Option<Token>,
}

/// The server's secret: 128 random bits from the OS, as 32 hex digits.
#[derive(Clone)]
pub(crate) struct Token(String);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(..)")
    }
}

impl Token {
    /// A new token; `Err` if the OS has no randomness to give.
    pub(crate) fn new() -> Result<Token, String> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| format!("no random token: {e}"))?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `given` is the token, compared in time that does not depend on where they
    /// differ.
    pub(crate) fn matches(&self, given: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
    }
}

/// How a request showed the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shown {
    /// None is asked (loopback).
    NotAsked,
    /// In the address's query: a page load is sent on without it, with the cookie.
    Query,
    Cookie,
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
    pub(crate) fn host_ok(&self, value: &str) -> bool {
        split_host_port(value).is_some_and(|(h, p)| p == self.port && self.host_named(&h))
    }

    /// Whether an `Origin` header value is this server's own origin.
    pub(crate) fn origin_ok(&self, value: &str) -> bool {
        value.strip_prefix("http://").is_some_and(|rest| !rest.contains('/') && self.host_ok(rest))
    }

    /// `Err` with the reason when the request's headers are not this server's.
    pub(crate) fn check(&self, headers: &HeaderMap) -> Result<(), &'static str> {
        let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
        let host = match host {
            Some(h) if self.host_ok(h) => h,
            _ => return Err("this server answers only to its own address (Host refused)"),
        };
        match headers.get(header::ORIGIN) {
            None => Ok(()),
            Some(o) if o.to_str().is_ok_and(|o| self.origin_ok(o) && same_origin(o, host)) => Ok(()),
            Some(_) => Err("requests from another site's page are refused (Origin refused)"),
        }
    }

    /// The name of the token's cookie (a cookie is shared by every port of a host).
    fn cookie_name(&self) -> String {
        format!("koma_token_{}", self.port)
    }

    /// How the request shows the token; `Err` with the reason when a token is asked and
    /// the request does not carry it.
    pub(crate) fn token_shown(&self, query: Option<&str>, headers: &HeaderMap) -> Result<Shown, &'static str> {
        let Some(token) = &self.token else { return Ok(Shown::NotAsked) };
        let in_query =
            query.is_some_and(|q| q.split('&').any(|kv| kv.strip_prefix("token=").is_some_and(|t| token.matches(t))));
        if in_query {
            return Ok(Shown::Query);
        }
        let name = self.cookie_name();
        let in_cookie = headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).any(|v| {
            v.split(';').any(|kv| kv.trim().split_once('=').is_some_and(|(k, t)| k == name && token.matches(t)))
        });
        if in_cookie {
            Ok(Shown::Cookie)
        } else {
            Err("this server asks for its token: open the address koma serve printed, with its ?token=")
        }
    }

    /// The cookie that carries the token from a page load to the page's other requests.
    fn cookie(&self) -> Option<HeaderValue> {
        let token = self.token.as_ref()?;
        let value = format!("{}={}; Path=/; HttpOnly; SameSite=Strict", self.cookie_name(), token.as_str());
        HeaderValue::from_str(&value).ok()
    }
}

/// Whether an `Origin` is `http://` and the request's `Host`: the page's own origin.
fn same_origin(origin: &str, host: &str) -> bool {
    origin.strip_prefix("http://").and_then(split_host_port).is_some_and(|o| split_host_port(host) == Some(o))
}

/// The query without its `token=` part.
fn without_token(query: &str) -> String {
    query.split('&').filter(|kv| !kv.starts_with("token=") && !kv.is_empty()).collect::<Vec<_>>().join("&")
}

/// The security headers every answer carries.
fn harden(headers: &mut HeaderMap) {
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
}

/// The middleware in front of every route: 403 for a foreign `Host` or `Origin` or a
/// missing token, a page load with the token in its address sent on without it (the
/// cookie set), and the security headers on every answer.
pub(crate) async fn middleware(
    State(allowed): State<std::sync::Arc<Allowed>>,
    request: Request,
    next: Next,
) -> Response {
    let checked =
        allowed.check(request.headers()).and_then(|()| allowed.token_shown(request.uri().query(), request.headers()));
    let mut response = match checked {
        Ok(Shown::Query) if request.method() == Method::GET && request.uri().path() != "/ws" => {
            let rest = without_token(request.uri().query().unwrap_or(""));
            let path = request.uri().path();
            let to = if rest.is_empty() { path.to_string() } else { format!("{path}?{rest}") };
            let mut r = (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response();
            if let Some(c) = allowed.cookie() {
                r.headers_mut().insert(header::SET_COOKIE, c);
            }
            r
        }
        Ok(_) => next.run(request).await,
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
        Allowed { port, bind: "127.0.0.1".parse().unwrap(), names: vec![], token: None }
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
        let mut a =
            Allowed { port: 80, bind: "0.0.0.0".parse().unwrap(), names: vec!["board.lan".into()], token: None };
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

    fn headers(pairs: &[(header::HeaderName, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(k.clone(), HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn row8_an_ip_address_page_is_not_this_servers_origin_on_every_address() {
        let a = Allowed { port: 8066, bind: "0.0.0.0".parse().unwrap(), names: vec![], token: None };
        for origin in ["http://203.0.113.7:8066", "http://[2001:db8::1]:8066"] {
            let h = headers(&[(header::HOST, "127.0.0.1:8066"), (header::ORIGIN, origin)]);
            assert!(a.check(&h).is_err(), "{origin}");
        }
        // A page served from one address talks to that address.
        let h = headers(&[(header::HOST, "203.0.113.7:8066"), (header::ORIGIN, "http://203.0.113.7:8066")]);
        assert!(a.check(&h).is_ok());
        let h = headers(&[(header::HOST, "[2001:DB8::1]:8066"), (header::ORIGIN, "http://[2001:db8::1]:8066")]);
        assert!(a.check(&h).is_ok());
    }

    #[test]
    fn row8_beyond_loopback_the_token_is_asked_in_the_query_or_its_cookie() {
        let token = Token::new().unwrap();
        assert_eq!(token.as_str().len(), 32);
        assert_ne!(token.as_str(), Token::new().unwrap().as_str(), "random");
        let t = token.as_str().to_string();
        let a = Allowed { port: 8066, bind: "0.0.0.0".parse().unwrap(), names: vec![], token: Some(token) };
        let none = HeaderMap::new();
        assert!(a.token_shown(None, &none).is_err());
        assert!(a.token_shown(Some("variant=kokesu"), &none).is_err());
        assert!(a.token_shown(Some("token="), &none).is_err());
        assert!(a.token_shown(Some(&format!("token={}", &t[..31])), &none).is_err());
        assert!(a.token_shown(Some(&format!("token={t}0")), &none).is_err());
        assert_eq!(a.token_shown(Some(&format!("variant=kokesu&token={t}")), &none), Ok(Shown::Query));
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_str(&format!("a=b; koma_token_8066={t}")).unwrap());
        assert_eq!(a.token_shown(None, &h), Ok(Shown::Cookie));
        h.insert(header::COOKIE, HeaderValue::from_str(&format!("koma_token_9000={t}")).unwrap());
        assert!(a.token_shown(None, &h).is_err(), "another port's cookie");
        assert_eq!(local(8066).token_shown(None, &none), Ok(Shown::NotAsked));
        assert_eq!(without_token(&format!("variant=kokesu&token={t}")), "variant=kokesu");
    }
}
