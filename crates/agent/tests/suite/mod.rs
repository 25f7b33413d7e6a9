mod common;
mod ending;
mod errors;
mod happy;
mod limits;
mod provider;
mod record;
