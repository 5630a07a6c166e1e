//! Seats: a browser the server knows as one player, by a cookie naming a session.
//!
//! - The console's players have no platform to vouch for them: the console prints each
//!   player of a game a one-time link (`/app/in/<code>`); opening it seats that browser as
//!   that player. A code works once and for [`CODE_LIFE`].
//! - A Telegram Mini App reader is seated by its `initData`, which Telegram signs
//!   (`POST /app/seat`), so that the pages of their private games, their moves list and
//!   their live events (which a browser fetches with no header of its own) know them.
//!
//! A seat lasts as long as the process. Codes and sessions are random 128-bit values, kept
//! in this process only (a restarted console prints new links; a Mini App seats itself
//! again).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use ugolki_core::table::{Platform, User};

/// How long a printed link can be opened.
pub const CODE_LIFE: Duration = Duration::from_secs(15 * 60);
/// Links and seats kept at most (the oldest go first): a console has a few players.
const MAX: usize = 256;
/// The cookie that carries a seat.
pub const COOKIE: &str = "ugolki_seat";
/// Its attributes: this site's pages only, sent by the browser alone, out of scripts' reach.
pub const COOKIE_ATTRIBUTES: &str = "Path=/;HttpOnly;SameSite=Strict";

/// A link not yet opened: who it signs in, for which game, made when.
struct Code {
    user: User,
    game: i64,
    made: Instant,
}

#[derive(Default)]
struct Kept {
    codes: HashMap<String, Code>,
    /// Session → the player, with when it was given (to drop the oldest).
    seats: HashMap<String, (Platform, User, Instant)>,
}

/// The console's one-time links and the seats they gave.
#[derive(Default)]
pub struct Seats {
    kept: Mutex<Kept>,
}

/// What opening a link gives: the cookie's value, and the game to go to.
#[derive(Debug, PartialEq, Eq)]
pub struct Seated {
    pub session: String,
    pub game: i64,
    pub user: User,
}

impl Seats {
    /// A new one-time code signing in `user` for `game`.
    pub fn invite(&self, user: User, game: i64) -> String {
        let code = random();
        let mut kept = crate::lock(&self.kept);
        if kept.codes.len() >= MAX {
            drop_oldest(&mut kept.codes, |c| c.made);
        }
        let made = Instant::now();
        kept.codes.insert(code.clone(), Code { user, game, made });
        code
    }

    /// Open the link of `code` at `now`: once, while it is fresh.
    pub fn redeem(&self, code: &str, now: Instant) -> Option<Seated> {
        let mut kept = crate::lock(&self.kept);
        let c = kept.codes.remove(code)?;
        if now.duration_since(c.made) > CODE_LIFE {
            return None;
        }
        drop(kept);
        let session = self.seat(Platform::Console, c.user.clone(), now);
        Some(Seated {
            session,
            game: c.game,
            user: c.user,
        })
    }

    /// A new seat for `user` of `platform` (whom the platform vouched for): its session.
    pub fn seat(&self, platform: Platform, user: User, now: Instant) -> String {
        let mut kept = crate::lock(&self.kept);
        if kept.seats.len() >= MAX {
            drop_oldest(&mut kept.seats, |s| s.2);
        }
        let session = random();
        kept.seats.insert(session.clone(), (platform, user, now));
        session
    }

    /// The player of a seat's session, and their platform.
    pub fn who(&self, session: &str) -> Option<(Platform, User)> {
        crate::lock(&self.kept)
            .seats
            .get(session)
            .map(|(p, u, _)| (*p, u.clone()))
    }
}

fn drop_oldest<V>(map: &mut HashMap<String, V>, made: impl Fn(&V) -> Instant) {
    if let Some(k) = map
        .iter()
        .min_by_key(|(_, v)| made(v))
        .map(|(k, _)| k.clone())
    {
        map.remove(&k);
    }
}

/// 128 random bits as 32 hex digits (from the system's generator).
fn random() -> String {
    let mut bytes = [0u8; 16];
    // Without the system's randomness nobody can be given a seat safely: a clear failure.
    getrandom::fill(&mut bytes).expect("getrandom");
    bytes.iter().fold(String::with_capacity(32), |mut s, b| {
        use std::fmt::Write as _;
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// A seat's session from a request's `Cookie` header.
pub fn session_of(cookie: &str) -> Option<&str> {
    cookie
        .split(';')
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v)
        .filter(|v| is_session(v))
}

/// Whether `s` is shaped as a session (32 hex digits).
#[must_use]
pub fn is_session(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alice() -> User {
        User {
            id: "alice".into(),
            name: "alice".into(),
            handle: Some("alice".into()),
        }
    }

    #[test]
    fn a_link_seats_its_player_once_and_only_while_fresh() {
        let seats = Seats::default();
        let code = seats.invite(alice(), 7);
        assert_eq!(code.len(), 32);
        let now = Instant::now();
        let seated = seats.redeem(&code, now).expect("fresh");
        assert_eq!((seated.game, &seated.user), (7, &alice()));
        assert_eq!(
            seats.who(&seated.session),
            Some((Platform::Console, alice()))
        );
        assert_eq!(seats.redeem(&code, now), None, "once");
        let late = seats.invite(alice(), 7);
        assert_eq!(seats.redeem(&late, now + CODE_LIFE * 2), None, "stale");
        assert_eq!(seats.who("0123456789abcdef0123456789abcdef"), None);
        assert_ne!(seats.invite(alice(), 7), seats.invite(alice(), 7));
        let tg = seats.seat(Platform::Telegram, alice(), now);
        assert_eq!(seats.who(&tg), Some((Platform::Telegram, alice())));
    }

    #[test]
    fn the_seat_is_read_from_its_cookie_only() {
        let s = "0123456789abcdef0123456789abcdef";
        assert_eq!(session_of(&format!("a=b; {COOKIE}={s}")), Some(s));
        assert_eq!(session_of(&format!("{COOKIE}=short")), None);
        assert_eq!(session_of(&format!("x{COOKIE}={s}")), None);
        assert_eq!(session_of(""), None);
    }
}
