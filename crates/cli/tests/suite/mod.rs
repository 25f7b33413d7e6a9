//! Test modules and the helpers they share.

mod cache;
mod common;
mod config;
mod mcp;
mod misc;
mod newcomer;
mod run;
mod server;
mod store;
mod terminal;
