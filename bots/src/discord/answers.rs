//! Answering an interaction: what only its asker reads comes back ephemeral (a refusal, a
//! hint), and in a chat the bot is not part of — a DM or group DM where a user who
//! installed the app on their account uses it (interaction context "private channel") —
//! everything does, since the bot cannot post there. A command's public answer becomes its
//! response (the challenge, with its buttons); a press's public answer edits the message the
//! button is on (the challenge becomes the board, the board the next board), so the game is
//! played on that one message; other public lines are follow-ups. Timer messages cannot be
//! posted there (Discord gives no way to speak unprompted): the next press shows the game
//! as it stands, and `/games` always tells the truth.

use super::surface::{Discord, Parts, MAX_TEXT};
use crate::outbox::cut;
use crate::outbox::Outbox;
use serenity::all::{
    CommandInteraction, ComponentInteraction, CreateInteractionResponseFollowup,
    EditInteractionResponse,
};
use serenity::http::Http;
use ugolki_core::table::{Audience, Outgoing};

/// The interaction that carries the answer.
pub(super) enum Via<'a> {
    Command(&'a CommandInteraction),
    Component(&'a ComponentInteraction),
}

fn edit(p: Parts) -> EditInteractionResponse {
    let mut e = EditInteractionResponse::new()
        .components(p.rows)
        .content(p.content.unwrap_or_default());
    e = match p.embed {
        Some(embed) => e.embed(embed),
        None => e.embeds(Vec::new()),
    };
    if let Some(f) = p.file {
        e = e.new_attachment(f);
    }
    e
}

/// A line only the asker sees.
fn ephemeral(text: &str) -> CreateInteractionResponseFollowup {
    let f = CreateInteractionResponseFollowup::new().content(cut(text, MAX_TEXT));
    f.ephemeral(true)
}

fn followup(p: Parts) -> CreateInteractionResponseFollowup {
    let mut f = CreateInteractionResponseFollowup::new().components(p.rows);
    if let Some(c) = p.content {
        f = f.content(c);
    }
    if let Some(e) = p.embed {
        f = f.embed(e);
    }
    if let Some(file) = p.file {
        f = f.add_file(file);
    }
    f
}

impl Via<'_> {
    async fn edit(&self, http: &Http, e: EditInteractionResponse) -> serenity::Result<()> {
        // (serenity gives an interaction's response edit no default of the client's.)
        let e = e.allowed_mentions(super::quiet());
        match self {
            Via::Command(c) => c.edit_response(http, e).await.map(|_| ()),
            Via::Component(c) => c.edit_response(http, e).await.map(|_| ()),
        }
    }

    async fn follow(
        &self,
        http: &Http,
        f: CreateInteractionResponseFollowup,
    ) -> serenity::Result<()> {
        match self {
            Via::Command(c) => c.create_followup(http, f).await.map(|_| ()),
            Via::Component(c) => c.create_followup(http, f).await.map(|_| ()),
        }
    }

    /// Say `text` to the one who asked only (a command's deferred answer becomes it).
    pub async fn say(&self, http: &Http, text: &str) {
        let r = match self {
            Via::Command(_) => {
                let text = cut(text, MAX_TEXT);
                self.edit(http, EditInteractionResponse::new().content(text))
                    .await
            }
            Via::Component(_) => self.follow(http, ephemeral(text)).await,
        };
        if let Err(e) = r {
            tracing::warn!(error = %e, "private answer not delivered");
        }
    }

    /// Nothing to say: a command's "thinking…" goes away.
    async fn done(&self, http: &Http) {
        if let Via::Command(c) = self {
            if let Err(e) = c.delete_response(http).await {
                tracing::debug!(error = %e, "deferred answer not deleted");
            }
        }
    }

    /// In a chat the bot is part of: the asker's own lines, ephemeral; the rest is sent
    /// from the outbox.
    pub async fn answer(&self, http: &Http, outs: &[Outgoing]) {
        let private = crate::outbox::direct_lines(outs);
        if private.is_empty() {
            self.done(http).await;
        } else {
            self.say(http, &private.join("\n")).await;
        }
    }

    /// In a chat the bot is not part of: everything through the interaction — the newest
    /// public line with a board (else the newest) becomes its message, the rest follow it;
    /// the asker's own lines are ephemeral.
    pub async fn answer_all(&self, http: &Http, outbox: &Outbox<Discord>, outs: Vec<Outgoing>) {
        let (private, public): (Vec<Outgoing>, Vec<Outgoing>) = outs
            .into_iter()
            .partition(|o| o.audience == Audience::Sender);
        let main = public
            .iter()
            .rposition(|o| o.board().is_some())
            .or_else(|| public.len().checked_sub(1));
        for (i, out) in public.iter().enumerate() {
            let content = match outbox.content(out).await {
                Ok(c) => c,
                Err(e) => {
                    tracing::warn!(error = %e, "picture not drawn");
                    continue;
                }
            };
            let parts = Parts::of(&content);
            let r = if Some(i) == main {
                let r = self.edit(http, edit(parts)).await;
                if r.is_ok() {
                    outbox.delivered(out).await;
                }
                r
            } else {
                self.follow(http, followup(parts)).await
            };
            if let Err(e) = r {
                tracing::warn!(error = %e, "answer in a private chat not delivered");
            }
        }
        for out in private {
            if let Err(e) = self.follow(http, ephemeral(&out.text())).await {
                tracing::warn!(error = %e, "private answer not delivered");
            }
        }
        // A command with nothing public to show: its "thinking…" goes.
        if main.is_none() {
            self.done(http).await;
        }
    }
}
