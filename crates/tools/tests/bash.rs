//! The `bash` tool: honest commands, attacks, a hostile repository, and a property test.
//! One test binary; the suites live in `tests/bash/`.

// The fixture helpers are not `#[test]` functions, so clippy.toml's test allowance misses them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "bash/attacks.rs"]
mod attacks;
#[path = "bash/fixture.rs"]
mod fixture;
#[path = "bash/fuzz.rs"]
mod fuzz;
#[path = "bash/honest.rs"]
mod honest;
#[path = "bash/measure.rs"]
mod measure;
#[path = "bash/os_level.rs"]
mod os_level;
