//! Who a Telegram Mini App's reader is: its `initData`, checked exactly as Telegram's
//! "Validating data received via the Mini App" says, and nothing the page says believed
//! without it.
//!
//! The data is a query string. Every field but `hash`, as `key=value` with the value
//! decoded, sorted by key and joined by line feeds, is the data-check string; `hash` must
//! be the hex HMAC-SHA256 of it, keyed by the HMAC-SHA256 of the bot's token keyed by
//! `WebAppData` (compared in constant time). `auth_date` must be at most [`MAX_AGE_S`]
//! old (and not more than a minute ahead of this clock). The signed `user` field says who.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// How old an `initData` may be, in seconds: a Mini App opened an hour ago has to be
/// opened again to act (Telegram gives a fresh one at each opening).
pub const MAX_AGE_S: i64 = 3600;
/// How far ahead of this clock an `auth_date` may be (clocks differ a little).
const SKEW_S: i64 = 60;
/// The longest `initData` read (Telegram's are well under 1 KiB).
const MAX_LEN: usize = 4096;

/// A reader Telegram vouches for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TelegramUser {
    pub id: i64,
    /// First and last name, as the chat shows them.
    pub name: String,
    pub username: Option<String>,
    pub language_code: Option<String>,
}

/// Why an `initData` is not believed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("not a query string of distinct fields, or too long")]
    Malformed,
    #[error("no hash, or not one of this bot's")]
    Forged,
    #[error("older than the limit, or from the future")]
    Expired,
    #[error("no user in it")]
    NoUser,
}

/// Check `init_data` against the bot's `token` at `now_s` (Unix seconds).
pub fn check(init_data: &str, token: &str, now_s: i64) -> Result<TelegramUser, Refused> {
    if init_data.len() > MAX_LEN {
        return Err(Refused::Malformed);
    }
    let mut fields: Vec<(String, String)> = url::form_urlencoded::parse(init_data.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    fields.sort();
    if fields.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err(Refused::Malformed);
    }
    let at = fields
        .iter()
        .position(|(k, _)| k == "hash")
        .ok_or(Refused::Forged)?;
    let (_, hash) = fields.remove(at);
    let hash = hex(&hash).ok_or(Refused::Forged)?;
    let check: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut secret = Hmac::<Sha256>::new_from_slice(b"WebAppData").map_err(|_| Refused::Forged)?;
    secret.update(token.as_bytes());
    let secret = secret.finalize().into_bytes();
    let mut mac = Hmac::<Sha256>::new_from_slice(&secret).map_err(|_| Refused::Forged)?;
    mac.update(check.join("\n").as_bytes());
    mac.verify_slice(&hash).map_err(|_| Refused::Forged)?;
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let auth: i64 = field("auth_date")
        .and_then(|v| v.parse().ok())
        .ok_or(Refused::Expired)?;
    if now_s - auth > MAX_AGE_S || auth - now_s > SKEW_S {
        return Err(Refused::Expired);
    }
    let user: serde_json::Value = field("user")
        .and_then(|u| serde_json::from_str(u).ok())
        .ok_or(Refused::NoUser)?;
    let id = user["id"].as_i64().ok_or(Refused::NoUser)?;
    let first = user["first_name"].as_str().unwrap_or_default();
    let name = match user["last_name"].as_str() {
        Some(last) if !last.is_empty() => format!("{first} {last}"),
        _ => first.to_string(),
    };
    Ok(TelegramUser {
        id,
        name,
        username: user["username"].as_str().map(str::to_owned),
        language_code: user["language_code"].as_str().map(str::to_owned),
    })
}

/// Lower- or upper-case hex, as bytes.
fn hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{check, Refused, TelegramUser, MAX_AGE_S};

    const TOKEN: &str = "123456:TEST-token-for-the-mini-app";
    /// Signed by an implementation of its own (Python's `hmac`, as Telegram's page
    /// describes the check), not by the code under test.
    const SIGNED: &str = "query_id=AAE-test&user=%7B%22id%22%3A42%2C%22first_name%22%3A%22Alice%22%2C%22last_name%22%3A%22%C5%81%22%2C%22username%22%3A%22alice%22%2C%22language_code%22%3A%22pt-br%22%7D&auth_date=1796400000&signature=sig-not-checked&hash=c65fc0258e66fa99afece9fa36f5a20111928e54f108293b1e46a8a30b85a640";
    const AT: i64 = 1_796_400_000;

    #[test]
    fn init_data_signed_with_the_bots_token_names_its_user() {
        let user = check(SIGNED, TOKEN, AT + 10).expect("believed");
        assert_eq!(
            user,
            TelegramUser {
                id: 42,
                name: "Alice Ł".into(),
                username: Some("alice".into()),
                language_code: Some("pt-br".into()),
            }
        );
    }

    #[test]
    fn another_token_a_changed_field_or_a_missing_hash_is_forged() {
        assert_eq!(check(SIGNED, "999:other", AT), Err(Refused::Forged));
        let other_user = SIGNED.replace("%22id%22%3A42", "%22id%22%3A43");
        assert_eq!(check(&other_user, TOKEN, AT), Err(Refused::Forged));
        let no_hash = SIGNED.split("&hash=").next().unwrap();
        assert_eq!(check(no_hash, TOKEN, AT), Err(Refused::Forged));
        let bad_hex = format!("{no_hash}&hash=zz");
        assert_eq!(check(&bad_hex, TOKEN, AT), Err(Refused::Forged));
        // A field said twice could be read two ways: not read at all.
        let twice = format!("{SIGNED}&auth_date={AT}");
        assert_eq!(check(&twice, TOKEN, AT), Err(Refused::Malformed));
        assert_eq!(
            check(&"a=b&".repeat(2000), TOKEN, AT),
            Err(Refused::Malformed)
        );
    }

    #[test]
    fn init_data_older_than_the_limit_or_from_the_future_has_expired() {
        assert!(check(SIGNED, TOKEN, AT + MAX_AGE_S).is_ok());
        assert_eq!(
            check(SIGNED, TOKEN, AT + MAX_AGE_S + 1),
            Err(Refused::Expired)
        );
        assert_eq!(check(SIGNED, TOKEN, AT - 61), Err(Refused::Expired));
    }
}
