//! Chats the bot is not part of — a DM or group DM where a user who installed the app on
//! their account uses its commands (interaction context "private channel"). The bot cannot
//! post there: everything goes through the interaction. A command's public answer becomes
//! its response (the challenge, with its buttons); a press's public answer edits the message
//! the button is on (the challenge becomes the board, the board the next board), so the game
//! is played on that one message. Other public lines are follow-ups. Timer messages cannot
//! be posted (Discord gives no way to speak unprompted there): the next press shows the
//! game as it stands, and `/games` always tells the truth.

use super::surface::{Discord, Parts};
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
    let mut e = EditInteractionResponse::new().components(p.rows);
    e = e.content(p.content.unwrap_or_default());
    if let Some(embed) = p.embed {
        e = e.embed(embed);
    } else {
        e = e.embeds(Vec::new());
    }
    if let Some(f) = p.file {
        e = e.new_attachment(f);
    }
    e
}

fn followup(p: Parts, ephemeral: bool) -> CreateInteractionResponseFollowup {
    let mut f = CreateInteractionResponseFollowup::new()
        .components(p.rows)
        .ephemeral(ephemeral);
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
}

/// Answer `outs` through `via` only: the newest public line with a board (else the newest)
/// becomes the interaction's message, the rest follow it; lines for the asker alone are
/// ephemeral.
pub(super) async fn answer(
    http: &Http,
    outbox: &Outbox<Discord>,
    via: Via<'_>,
    outs: Vec<Outgoing>,
) {
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
            let r = via.edit(http, edit(parts)).await;
            if r.is_ok() {
                outbox.delivered(out).await;
            }
            r
        } else {
            via.follow(http, followup(parts, false)).await
        };
        if let Err(e) = r {
            tracing::warn!(error = %e, "answer in a private chat not delivered");
        }
    }
    for out in private {
        let text: String = out.text().chars().take(2000).collect();
        let f = CreateInteractionResponseFollowup::new()
            .content(text)
            .ephemeral(true);
        if let Err(e) = via.follow(http, f).await {
            tracing::warn!(error = %e, "private answer not delivered");
        }
    }
    // A command with nothing public to show: its "thinking…" goes.
    if main.is_none() {
        if let Via::Command(c) = via {
            let _ = c.delete_response(http).await;
        }
    }
}
