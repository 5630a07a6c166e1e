//! The fake Discord, driven by a real serenity client built as the bot builds it (REST on
//! `https://discord.com` resolved to the fake's HTTPS door with serenity's ratelimiter on,
//! or through `HttpBuilder::proxy` with it off; the gateway through the URL the fake's
//! `GET /gateway` returns).
//! One test binary; its topics are the modules below.

mod commands;
mod failures;
mod gateway;
mod handler;
mod harness;
mod interactions;
mod limits;
mod oauth;
mod rest;
mod threads;
