//! The Telegram adapter end to end, in-process, against the fake Bot API on 127.0.0.1:
//! games in a group by `/m`, replies and buttons, boards as photos, stale buttons, flags,
//! flaky APIs, restarts, and a fast game under the real flood limits. Every wait is bounded.
//! One test binary; its topics are the modules below.

mod buttons;
mod delivery;
mod games;
mod harness;
mod inline;
mod inline_games;
mod lanes;
mod mini_app;
mod operators;
mod privacy;
mod processes;
mod removed;
mod topics;
mod tournaments;
mod webhook;
