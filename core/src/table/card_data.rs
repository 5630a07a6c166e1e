//! What an inline card's buttons carry until its challenge replaces them: the card itself,
//! signed (`card:a|d:SENDER:TIME:MAC:ARGS`). Pressed before the chosen result has come (it
//! may never come when the operator's inline feedback is off or sampled), a press makes the
//! challenge in the sender's name first and then answers it. The MAC (HMAC-SHA256 keyed by
//! the bot's token, cut to 32 bits) keeps a modified client from making challenges in
//! someone else's name; TIME (minutes since the epoch) bounds how long copied data works.
//! A card too long for the 64 bytes of callback data carries only [`CARD`], and such a
//! press is asked to wait.

/// The callback data of a card's buttons that cannot carry the card.
pub const CARD: &str = "card";

/// A press on a card's button: Accept or Decline, whose card, when it was offered
/// (minutes since the epoch), which challenge.
#[derive(Debug, PartialEq, Eq)]
pub struct CardPress {
    pub accept: bool,
    pub sender: String,
    pub issued: u64,
    pub args: String,
}

/// How long a card's buttons can make its challenge (minutes). Telegram does not say who
/// sent an inline message, so signed card data copied from one message could be pressed
/// on another (made from a card of the presser's own, before its chosen result): only
/// within this while, as long as a challenge lives anyway.
const CARD_LIFETIME_MIN: u64 = 15;

impl CardPress {
    /// Offered at most [`CARD_LIFETIME_MIN`] ago (and not in the future).
    #[must_use]
    pub fn fresh(&self, now_min: u64) -> bool {
        self.issued <= now_min + 1 && now_min.saturating_sub(self.issued) <= CARD_LIFETIME_MIN
    }
}

fn base36(mut n: u64) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(char::from_digit(u32::try_from(n % 36).unwrap_or(0), 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// The first 32 bits of HMAC-SHA256(`key`, the card), in hex.
/// The keyed hash of a card's fields.
fn keyed(
    key: &[u8],
    accept: bool,
    sender: &str,
    issued: &str,
    args: &str,
) -> Option<hmac::Hmac<sha2::Sha256>> {
    use hmac::{KeyInit, Mac};
    let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(key).ok()?;
    m.update(&[u8::from(accept)]);
    m.update(sender.as_bytes());
    m.update(b":");
    m.update(issued.as_bytes());
    m.update(b":");
    m.update(args.as_bytes());
    Some(m)
}

/// A card's signature: the first 4 bytes of its keyed hash, in hex.
fn mac(key: &[u8], accept: bool, sender: &str, issued: &str, args: &str) -> String {
    use hmac::Mac;
    use std::fmt::Write as _;
    let Some(m) = keyed(key, accept, sender, issued, args) else {
        return String::new();
    };
    let bytes = m.finalize().into_bytes();
    bytes[..4].iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Whether `signed` (hex) is the card's signature, compared in constant time (a guesser
/// learns nothing from how long a wrong one takes to refuse).
fn verify(key: &[u8], accept: bool, sender: &str, issued: &str, args: &str, signed: &str) -> bool {
    use hmac::Mac;
    if signed.len() != 8 || !signed.is_ascii() {
        return false;
    }
    let mut tag = [0u8; 4];
    for (i, t) in tag.iter_mut().enumerate() {
        let Ok(b) = u8::from_str_radix(&signed[2 * i..2 * i + 2], 16) else {
            return false;
        };
        *t = b;
    }
    keyed(key, accept, sender, issued, args).is_some_and(|m| m.verify_truncated_left(&tag).is_ok())
}

/// The callback data of a card's button, offered at `now_min`.
#[must_use]
pub fn card_data(key: &[u8], accept: bool, sender: u64, args: &str, now_min: u64) -> String {
    let sender = sender.to_string();
    let issued = base36(now_min);
    let mac = mac(key, accept, &sender, &issued, args);
    let data = format!(
        "{CARD}:{}:{sender}:{issued}:{mac}:{args}",
        if accept { 'a' } else { 'd' }
    );
    if data.len() <= super::MAX_ACTION_TEXT {
        data
    } else {
        CARD.to_string()
    }
}

/// Whether callback data is a card's.
#[must_use]
pub fn is_card(data: &str) -> bool {
    data == CARD || data.starts_with("card:")
}

/// A card's press, if its data is a whole card the bot signed.
#[must_use]
pub fn read_card(key: &[u8], data: &str) -> Option<CardPress> {
    let mut parts = data.strip_prefix("card:")?.splitn(5, ':');
    let accept = match parts.next()? {
        "a" => true,
        "d" => false,
        _ => return None,
    };
    let sender = parts.next().filter(|s| s.parse::<u64>().is_ok())?;
    let issued_text = parts.next()?;
    let issued = u64::from_str_radix(issued_text, 36).ok()?;
    let signed = parts.next()?;
    let args = parts.next()?;
    verify(key, accept, sender, issued_text, args, signed).then(|| CardPress {
        accept,
        sender: sender.to_string(),
        issued,
        args: args.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"123:TEST";

    #[test]
    fn a_card_button_carries_its_card_signed_when_it_fits() {
        let now = 29_500_000;
        let data = card_data(KEY, true, 123_456_789, "halma16 5+3 @dana", now);
        assert!(data.starts_with("card:a:123456789:") && data.ends_with(":halma16 5+3 @dana"));
        assert!(data.len() <= 64 && is_card(&data));
        let card = read_card(KEY, &data).expect("ours");
        assert_eq!(
            card,
            CardPress {
                accept: true,
                sender: "123456789".into(),
                issued: now,
                args: "halma16 5+3 @dana".into()
            }
        );
        // Pressable for a quarter of an hour; not before it was offered, not after.
        assert!(card.fresh(now) && card.fresh(now + CARD_LIFETIME_MIN));
        assert!(!card.fresh(now + CARD_LIFETIME_MIN + 1) && !card.fresh(now - 2));
        let older = data.replacen(&base36(now), &base36(now - 60), 1);
        assert_eq!(read_card(KEY, &older), None, "its time is signed too");
        // Another bot's card, another sender, other terms: not ours.
        assert_eq!(read_card(b"456:OTHER", &data), None);
        let forged = data.replace("123456789", "123456780");
        assert_eq!(read_card(KEY, &forged), None);
        let changed = data.replace("5+3", "1d");
        assert_eq!(read_card(KEY, &changed), None);
        let long = card_data(KEY, false, 123_456_789, &"x".repeat(40), now);
        assert_eq!(long, CARD);
        assert!(is_card(&long) && read_card(KEY, &long).is_none());
        assert!(read_card(KEY, "card:z:1:hkz1s:00000000:classic3x3").is_none());
        assert!(read_card(KEY, "card:a:1:%%:00000000:classic3x3").is_none());
        assert_eq!(base36(0), "0");
        assert_eq!(u64::from_str_radix(&base36(now), 36), Ok(now));
        assert!(!is_card("acc:1") && !is_card("cards"));
    }
}
