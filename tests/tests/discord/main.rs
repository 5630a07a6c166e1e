//! The Discord adapter end to end, in-process, against the fake Discord (REST and gateway)
//! on 127.0.0.1: slash commands, buttons, a thread per game, typed moves, boards as PNG
//! attachments, stale buttons, flags, 429s and a gateway resume. Every wait is bounded.
//! One test binary; its topics are the modules below.

mod activity;
mod delivery;
mod games;
mod harness;
mod installs;
mod intents;
mod operators;
mod threads;
mod tournaments;
