//! Words: typed messages ([`Msg`]) turned into text with the Fluent catalogues in
//! `core/locales/LANG/*.ftl`, embedded at build time. This is the one place where sentences
//! are made; the table, the adapters and the command line hand it values.
//!
//! Adding a language is adding a folder of `.ftl` files next to `en`: the build embeds every
//! folder it finds, and the catalogue tests check it has every message English has.

mod args;
mod code;
mod msg;
mod rules;

pub use args::{Arg, Duration, List, OrList};
pub use code::Code;
pub use msg::Msg;
pub use rules::{cause, refusal, rules_name, variant_error};

use fluent_bundle::{FluentArgs, FluentResource};
use std::sync::LazyLock;

include!(concat!(env!("OUT_DIR"), "/locales.rs"));

type Bundle = fluent_bundle::concurrent::FluentBundle<FluentResource>;

/// A language the bot speaks: an index into the embedded catalogues (English is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Lang(u8);

impl Lang {
    /// English: the fallback for everything.
    pub const EN: Lang = Lang(0);

    /// Every language with a catalogue, English first.
    pub fn all() -> impl Iterator<Item = Lang> {
        (0..LOCALES.len()).map(|i| Lang(i as u8))
    }

    /// The language code (`en`, `ru`, …).
    #[must_use]
    pub fn code(self) -> &'static str {
        LOCALES[usize::from(self.0)].0
    }

    /// The language a platform's hint names, where we speak it; else English.
    #[must_use]
    pub fn of_hint(tag: Option<&str>) -> Lang {
        tag.and_then(Lang::from_tag).unwrap_or(Lang::EN)
    }

    /// The language a platform's hint names (`pt-BR`, `ru`, `en_US`), if we speak it.
    #[must_use]
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        LOCALES
            .iter()
            .position(|(code, _)| *code == primary)
            .map(|i| Lang(i as u8))
    }
}

struct Catalog {
    bundles: Vec<Bundle>,
}

fn build() -> Catalog {
    let bundles = LOCALES
        .iter()
        .map(|(code, files)| {
            let id: unic_langid::LanguageIdentifier = code
                .parse()
                .expect("locale folder names are language codes");
            let mut bundle = Bundle::new_concurrent(vec![id]);
            // Chat clients show Unicode isolation marks as boxes; names are plain text here.
            bundle.set_use_isolating(false);
            for text in *files {
                let resource = FluentResource::try_new((*text).to_string())
                    .unwrap_or_else(|(_, errors)| panic!("{code}: bad Fluent syntax: {errors:?}"));
                bundle
                    .add_resource(resource)
                    .unwrap_or_else(|errors| panic!("{code}: message defined twice: {errors:?}"));
            }
            bundle
        })
        .collect();
    Catalog { bundles }
}

static CATALOG: LazyLock<Catalog> = LazyLock::new(build);

/// Why a message could not be rendered (only tests see this; players get English instead).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError(pub String);

/// Render a message, reporting a missing message or argument instead of covering it up.
pub fn try_render(msg: &Msg, lang: Lang) -> Result<String, RenderError> {
    if let Msg::Lines(lines) = msg {
        let mut out = Vec::with_capacity(lines.len());
        for line in lines {
            out.push(try_render(line, lang)?);
        }
        return Ok(out.join("\n"));
    }
    let bundle = &CATALOG.bundles[usize::from(lang.0)];
    let key = msg.key();
    let pattern = bundle
        .get_message(key)
        .and_then(|m| m.value())
        .ok_or_else(|| RenderError(format!("{}: no message {key}", lang.code())))?;
    let mut args = FluentArgs::new();
    for (name, value) in msg.args(lang) {
        args.set(name, value);
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
    if errors.is_empty() {
        Ok(text.into_owned())
    } else {
        Err(RenderError(format!("{}: {key}: {errors:?}", lang.code())))
    }
}

/// The most items a list shows (challenges to pick from, games, game numbers); past it,
/// [`Msg::AndMore`] says how many more there are, so no reply outgrows a chat message.
pub const LISTED: usize = 10;

/// `items`, cut to [`LISTED`] with an [`Msg::AndMore`] line for the rest.
#[must_use]
pub fn capped(mut items: Vec<Msg>) -> Vec<Msg> {
    let more = items.len().saturating_sub(LISTED);
    if more > 0 {
        items.truncate(LISTED);
        items.push(Msg::AndMore { count: more });
    }
    items
}

/// A message in a language (English where that language lacks it).
#[must_use]
pub fn render(msg: &Msg, lang: Lang) -> String {
    try_render(msg, lang)
        .or_else(|_| try_render(msg, Lang::EN))
        .unwrap_or_else(|e| e.0)
}

/// A message in English (the command line and logs).
#[must_use]
pub fn english(msg: &Msg) -> String {
    render(msg, Lang::EN)
}

/// The keys a catalogue defines (for the tests that match catalogues with messages).
#[must_use]
pub fn catalogue_keys(lang: Lang) -> Vec<String> {
    let (_, files) = LOCALES[usize::from(lang.0)];
    let mut keys = Vec::new();
    for text in files {
        let Ok(resource) = FluentResource::try_new((*text).to_string()) else {
            continue;
        };
        for entry in resource.entries() {
            if let fluent_syntax::ast::Entry::Message(m) = entry {
                keys.push(m.id.name.to_string());
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests;
