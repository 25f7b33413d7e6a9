# explore's everyday commands. `just --list` shows them.

# Answer a question about the Go fixture with the local engine
demo query="where is IssueStore defined":
    cargo run --release -- -C evals/fixtures/relay "{{query}}"

# The README's test command
test:
    cargo test --workspace

# Formatting and lints exactly as CI checks them
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# Everything CI runs
ci:
    bash .ci/run
