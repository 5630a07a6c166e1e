//! The fake Discord, driven by a real serenity client (REST through `HttpBuilder::proxy` with
//! the ratelimiter disabled, the gateway through the URL the fake's `GET /gateway` returns).
//! One test binary; its topics are the modules below.

mod commands;
mod failures;
mod gateway;
mod handler;
mod harness;
mod interactions;
mod rest;
