//! What keeps the public pages up when someone hammers them: a budget of requests per
//! reader — their address, or the player the server seated in that browser — and only a
//! few pictures drawn at once (a replay is hundreds of frames), off the threads that
//! answer requests.

use axum::http::HeaderMap;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Requests an address may make in [`WINDOW`]: a watcher of a running game (a page and its
/// board every five seconds) uses a fifth of it, someone stepping through a game by hand
/// far less.
pub const PER_WINDOW: u32 = 120;
/// Requests a seated player may make in [`WINDOW`]: a fast game's pages (each ply reloads
/// the board, its moves and its events, and sends a move) from a player the server knows,
/// wherever they are (two players at one address each have their own).
pub const PER_PLAYER: u32 = 600;
/// The window the budget is counted over.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Pictures drawn at once, at most (the rest wait their turn).
pub const DRAWING: usize = 2;
/// Addresses remembered at most; past that, those whose window is over are forgotten.
const MAX_ADDRESSES: usize = 50_000;

/// Who a budget is counted for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    Address(IpAddr),
    /// A player seated by the server (never a name the request gives itself).
    Player(String),
}

/// A fixed-window budget per reader: [`PER_WINDOW`]-like for an address, its own (larger)
/// one for a seated player.
pub struct PerAddress {
    most: u32,
    most_player: u32,
    window: Duration,
    seen: Mutex<HashMap<Who, (Instant, u32)>>,
}

impl PerAddress {
    #[must_use]
    pub fn new(most: u32, most_player: u32, window: Duration) -> PerAddress {
        PerAddress {
            most_player,
            most,
            window,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// One more request from `who` at `now`: allowed, or how long until it would be.
    pub fn take(&self, who: Who, now: Instant) -> Result<(), Duration> {
        let most = match who {
            Who::Address(_) => self.most,
            Who::Player(_) => self.most_player,
        };
        let mut seen = crate::lock(&self.seen);
        if seen.len() >= MAX_ADDRESSES {
            let window = self.window;
            seen.retain(|_, (start, _)| now.duration_since(*start) < window);
            if seen.len() >= MAX_ADDRESSES {
                seen.clear();
            }
        }
        let entry = seen.entry(who).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= most {
            return Err(self.window.saturating_sub(now.duration_since(entry.0)));
        }
        entry.1 += 1;
        Ok(())
    }
}

/// Whose request it is: the peer's address, or — when the peer is a proxy on this machine —
/// the client's address the proxy appended last to `X-Forwarded-For` (the entries before
/// it are the client's own word, and anyone can write them).
#[must_use]
pub fn reader(peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    if !peer.ip().is_loopback() {
        return peer.ip();
    }
    let last = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .next_back();
    last.and_then(|a| a.trim().parse::<IpAddr>().ok())
        .unwrap_or(peer.ip())
}

#[cfg(test)]
mod tests {
    use super::{reader, PerAddress, Who};
    use std::net::{IpAddr, SocketAddr};
    use std::time::{Duration, Instant};

    #[test]
    fn an_address_gets_its_budget_a_window_and_no_more() {
        let limit = PerAddress::new(3, 5, Duration::from_secs(60));
        let (a, b) = (
            Who::Address("203.0.113.5".parse().unwrap()),
            Who::Address("203.0.113.6".parse().unwrap()),
        );
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limit.take(a.clone(), t0).is_ok());
        }
        let wait = limit
            .take(a.clone(), t0 + Duration::from_secs(10))
            .unwrap_err();
        assert_eq!(wait, Duration::from_secs(50));
        assert!(limit.take(b, t0).is_ok(), "another address has its own");
        assert!(
            limit.take(a, t0 + Duration::from_secs(60)).is_ok(),
            "a new window"
        );
        // A seated player has a budget of their own, the player's size.
        let alice = Who::Player("console:alice".into());
        for _ in 0..5 {
            assert!(limit.take(alice.clone(), t0).is_ok());
        }
        assert!(limit.take(alice, t0).is_err());
    }

    #[test]
    fn only_a_proxy_on_this_machine_names_the_reader() {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("x-forwarded-for", "10.9.9.9, 198.51.100.7".parse().unwrap());
        let proxy: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let direct: SocketAddr = "192.0.2.1:5000".parse().unwrap();
        assert_eq!(
            reader(proxy, &headers),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            reader(direct, &headers),
            direct.ip(),
            "a header from anyone is ignored"
        );
        assert_eq!(reader(proxy, &axum::http::HeaderMap::new()), proxy.ip());
    }
}
