//! What an operator is told when a platform's set-up is wrong: a token refused, a webhook
//! the platform would not post to. These words are for operators (logs and the exit
//! message), not players, so they are not in the catalogues.

/// Telegram's set-up.
pub mod telegram {
    /// What a webhook secret must be, said when it is not (Telegram's rule).
    pub const SECRET_RULE: &str = "TELEGRAM_WEBHOOK_SECRET: 1 to 256 of A-Z, a-z, 0-9, _ and -";

    /// What the operator is told when the Bot API refuses the token (401 Unauthorized), at the
    /// start or later (revoked): the process ends, as no call can succeed.
    pub const TOKEN_REFUSED: &str =
        "Telegram refused the token (401 Unauthorized): set TELOXIDE_TOKEN \
         to the token BotFather gives for this bot (/token; after /revoke, the new one)";

    /// What the Bot API says (403) of a chat the bot was removed from, lower-cased, in the
    /// words teloxide does not know ("Forbidden: bot was kicked from the group chat" is
    /// `Unknown` to it).
    pub const REMOVED: [&str; 3] = [
        "forbidden: bot was kicked",
        "forbidden: bot is not a member",
        "forbidden: user is deactivated",
    ];

    /// The start-up calls' reading of errors: a refused token is not retried there.
    pub fn classify_start(e: &teloxide::RequestError) -> crate::outbox::Class {
        match e {
            teloxide::RequestError::Api(teloxide::ApiError::InvalidToken) => {
                crate::outbox::Class::Gone
            }
            e => crate::telegram::classify(e),
        }
    }

    /// A start-up call's failure that is the token's, said as the operator can fix it.
    pub fn refused_token(e: &str) -> Option<String> {
        e.contains(&teloxide::ApiError::InvalidToken.to_string())
            .then(|| TOKEN_REFUSED.to_string())
    }

    /// Why Telegram would refuse `url` as a webhook (`None`: it would take it). The Bot API
    /// posts only over HTTPS, only to ports 443, 80, 88 and 8443, and never to a loopback or
    /// private address: the bot's listener goes behind a TLS proxy (see docs).
    pub fn webhook_refusal(url: &url::Url) -> Option<String> {
        if url.scheme() != "https" {
            return Some("Telegram posts to https URLs only: put a TLS proxy in front of --listen and give its https URL".into());
        }
        if !matches!(url.port_or_known_default(), Some(443 | 80 | 88 | 8443)) {
            return Some("Telegram posts only to ports 443, 80, 88 and 8443".into());
        }
        let reserved = match url.host() {
            Some(url::Host::Ipv4(ip)) => {
                ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified()
            }
            Some(url::Host::Ipv6(ip)) => ip.is_loopback() || ip.is_unspecified(),
            Some(url::Host::Domain(d)) => d == "localhost",
            None => true,
        };
        reserved.then(|| {
            "Telegram does not post to loopback or private addresses: give the public https URL"
                .into()
        })
    }

    /// What `getMe` says of group privacy mode (`/setprivacy` in `BotFather`), logged as what
    /// it means for players; the table's `/help` in groups says how to move under it.
    pub fn privacy_mode(me: &teloxide::types::Me) -> ugolki_core::table::GroupReading {
        let (reading, line) = privacy_note(me);
        tracing::info!("{line}");
        reading
    }

    /// How the bot reads groups, and the start's log line that says it in players' terms.
    #[must_use]
    pub fn privacy_note(me: &teloxide::types::Me) -> (ugolki_core::table::GroupReading, String) {
        let bot = me.username.as_deref().unwrap_or("bot");
        if me.can_read_all_group_messages {
            let line = "privacy mode is off: the bot reads every group message (in a group it \
                        joined while privacy mode was on, only once it is added there again)";
            (ugolki_core::table::GroupReading::Everything, line.into())
        } else {
            let line = format!(
                "privacy mode is on: in groups the bot gets only commands addressed to it \
                 (/m@{bot} c3-d4), replies to its messages, and bare commands while it was \
                 the last bot to post there; /help in a group says so. Typed moves need \
                 /setprivacy off in BotFather, then the bot removed and added again"
            );
            (ugolki_core::table::GroupReading::CommandsAndReplies, line)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::privacy_note;
        use ugolki_core::table::GroupReading;

        /// `getMe` as the Bot API answers it, privacy mode on or off.
        fn me(reads_all: bool) -> teloxide::types::Me {
            serde_json::from_value(serde_json::json!({
                "id": 42, "is_bot": true, "first_name": "Ugolki", "username": "ugolki_bot",
                "can_join_groups": true, "can_read_all_group_messages": reads_all,
                "supports_inline_queries": false, "can_connect_to_business": false,
                "has_main_web_app": false,
            }))
            .expect("a getMe answer")
        }

        #[test]
        fn privacy_on_is_logged_with_how_to_move_and_how_to_switch_it_off() {
            let (reading, line) = privacy_note(&me(false));
            assert_eq!(reading, GroupReading::CommandsAndReplies);
            assert!(line.starts_with("privacy mode is on"), "{line}");
            assert!(line.contains("/m@ugolki_bot c3-d4"), "{line}");
            assert!(line.contains("replies to its messages"), "{line}");
            assert!(line.contains("/setprivacy off"), "{line}");
            assert!(line.contains("removed and added again"), "{line}");
        }

        #[test]
        fn privacy_off_is_logged_as_reading_every_message_once_re_added() {
            let (reading, line) = privacy_note(&me(true));
            assert_eq!(reading, GroupReading::Everything);
            assert!(line.starts_with("privacy mode is off"), "{line}");
            assert!(line.contains("added there again"), "{line}");
        }
    }
}

/// Discord's set-up.
pub mod discord {
    use serenity::all::{GatewayError, HttpError};

    /// What the operator is told when Discord refuses the token (401 on the HTTP API,
    /// close code 4004 on the gateway): the process ends, as nothing can succeed.
    pub const TOKEN_REFUSED: &str = "Discord refused the token (401 Unauthorized / gateway \
         4004): set DISCORD_TOKEN to the bot's token (Developer Portal → your application → \
         Bot → Reset Token)";

    /// What the operator is told when the gateway refuses the content intent (4014).
    pub const CONTENT_REFUSED: &str = "Discord refused the MESSAGE_CONTENT intent (gateway \
         4014): switch on Message Content Intent in the Developer Portal (your application → \
         Bot → Privileged Gateway Intents), or start without --message-content (servers \
         then play by /move and buttons)";

    /// The operator's message for an error that is the token's or the intents', if it is.
    #[must_use]
    pub fn refused(e: &serenity::Error) -> Option<&'static str> {
        if matches!(
            e,
            serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents)
        ) {
            return Some(CONTENT_REFUSED);
        }
        let token = match e {
            serenity::Error::Gateway(GatewayError::InvalidAuthentication) => true,
            serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
                r.status_code.as_u16() == 401
            }
            _ => false,
        };
        token.then_some(TOKEN_REFUSED)
    }

    /// `discord.com` at an address of the operator's (see [`crate::discord::Options::api_at`]).
    #[derive(Clone, Debug)]
    pub struct ApiAt {
        pub addr: std::net::SocketAddr,
        /// The certificate authority to trust there (DER or PEM).
        pub ca_der: Vec<u8>,
    }

    /// The HTTP client serenity (and its ratelimiter) uses: rustls, and `discord.com` resolved
    /// to `at` trusting its authority, when given.
    /// The CLI checks `DISCORD_API_CA` with [`try_client_for`] first, so this fallback to the
    /// default client is only for a client that cannot be built at all.
    #[must_use]
    pub fn client_for(at: Option<&ApiAt>) -> reqwest::Client {
        try_client_for(at).unwrap_or_else(|e| {
            tracing::error!(error = %e, "HTTP client not built as asked: the default one");
            reqwest::Client::new()
        })
    }

    /// [`client_for`], or why it cannot be built (an authority that is not a certificate).
    pub fn try_client_for(at: Option<&ApiAt>) -> Result<reqwest::Client, String> {
        let mut b = reqwest::Client::builder().use_rustls_tls();
        if let Some(at) = at {
            b = b.resolve("discord.com", at.addr);
            let cert = reqwest::Certificate::from_der(&at.ca_der)
                .or_else(|_| reqwest::Certificate::from_pem(&at.ca_der))
                .map_err(|_| "not a certificate (DER or PEM)".to_string())?;
            b = b.add_root_certificate(cert);
        }
        b.build()
            .map_err(|_| "not a certificate (DER or PEM) the TLS stack takes".to_string())
    }
}
