//! ugolki-bots: the `ugolki` binary's command line, and (later) the console, Discord and
//! Telegram adapters. Everything here is thin: the rules and the table live in ugolki-core.

pub mod cli;
pub mod console;
