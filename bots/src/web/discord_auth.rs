//! A Discord Activity's reader, signed in: the page's Embedded App SDK `authorize` gives it
//! a one-time code, the page posts the code here, and the server trades it with Discord
//! (`POST /oauth2/token`, with the application's client secret, which never leaves the
//! server) for an access token, then asks Discord who that token's user is
//! (`GET /users/@me`). Nothing the page says about who it is counts; only Discord's answer.

use ugolki_core::table::User;

/// Discord's API, as the bot's calls reach it (a TLS proxy or the tests' fake is given by
/// the HTTP client's resolver, not by another URL).
const API: &str = "https://discord.com/api/v10";
/// The longest code taken from a page (Discord's are 30 characters).
pub const MAX_CODE: usize = 128;

/// The application the Activity belongs to: its id and its `OAuth2` client secret.
pub struct DiscordApp {
    pub client_id: u64,
    secret: String,
    http: reqwest::Client,
}

/// Never the secret.
impl std::fmt::Debug for DiscordApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscordApp")
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

/// Why a sign-in failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SignInError {
    /// Not a code a page could have been given.
    #[error("not an authorization code")]
    BadCode,
    /// Discord refused the code (spent, stale, another app's) or our client.
    #[error("discord refused the exchange ({0})")]
    Refused(u16),
    /// Discord could not be reached or answered nonsense.
    #[error("discord did not answer: {0}")]
    Unreachable(String),
    /// Discord's token answer had no usable access token.
    #[error("discord's token answer had no access token")]
    NoToken,
    /// Discord's `users/@me` answer named no user.
    #[error("discord's users/@me answer named no user")]
    NoUser,
}

/// A signed-in reader: Discord's access token (the page's SDK `authenticate` needs it) and
/// the user it belongs to.
#[derive(Debug)]
pub struct SignedIn {
    pub access_token: String,
    pub user: User,
    pub locale: Option<String>,
}

impl DiscordApp {
    #[must_use]
    pub fn new(client_id: u64, secret: String, http: reqwest::Client) -> DiscordApp {
        DiscordApp {
            client_id,
            secret,
            http,
        }
    }

    /// Trade `code` for the user it was given to.
    pub async fn sign_in(&self, code: &str) -> Result<SignedIn, SignInError> {
        let fair = !code.is_empty()
            && code.len() <= MAX_CODE
            && code
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !fair {
            return Err(SignInError::BadCode);
        }
        let form: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("client_id", &self.client_id.to_string())
            .append_pair("client_secret", &self.secret)
            .append_pair("grant_type", "authorization_code")
            .append_pair("code", code)
            .finish();
        let traded = self
            .http
            .post(format!("{API}/oauth2/token"))
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(form)
            .send()
            .await;
        let token: serde_json::Value = answer(traded).await?;
        let access_token = token["access_token"]
            .as_str()
            .filter(|t| !t.is_empty() && t.len() <= 256)
            .ok_or(SignInError::NoToken)?
            .to_string();
        let me = self
            .http
            .get(format!("{API}/users/@me"))
            .bearer_auth(&access_token)
            .send()
            .await;
        let me: serde_json::Value = answer(me).await?;
        let id = me["id"]
            .as_str()
            .filter(|id| id.parse::<u64>().is_ok())
            .ok_or(SignInError::NoUser)?;
        // As the bot's commands name a user: the display name, else the username.
        let username = me["username"].as_str().unwrap_or(id);
        let name = me["global_name"].as_str().unwrap_or(username);
        Ok(SignedIn {
            access_token,
            user: User {
                id: id.to_string(),
                name: name.chars().take(64).collect(),
                handle: Some(
                    username
                        .chars()
                        .take(64)
                        .collect::<String>()
                        .to_ascii_lowercase(),
                ),
            },
            locale: me["locale"].as_str().map(str::to_owned),
        })
    }
}

/// A JSON answer of 2xx, or why not.
async fn answer(
    sent: Result<reqwest::Response, reqwest::Error>,
) -> Result<serde_json::Value, SignInError> {
    let response = sent.map_err(|e| SignInError::Unreachable(e.without_url().to_string()))?;
    let status = response.status();
    if !status.is_success() {
        return Err(SignInError::Refused(status.as_u16()));
    }
    let bytes = response
        .bytes()
        .await
        .map_err(|e| SignInError::Unreachable(e.without_url().to_string()))?;
    serde_json::from_slice(&bytes).map_err(|e| SignInError::Unreachable(e.to_string()))
}
