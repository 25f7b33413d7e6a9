//! Test modules and the helpers they share.

mod cache;
mod common;
mod config;
mod misc;
mod newcomer;
mod run;
mod server;
mod store;
