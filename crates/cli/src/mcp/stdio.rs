//! The server's stdio, with JSON-RPC's parse error.
//!
//! rmcp skips a line that is not JSON without a word (answering garbage can start an error
//! storm between two confused peers). JSON-RPC 2.0 asks for a `-32700 Parse error` with a
//! null id, and a client that wrote a broken line (a bad escape, a truncated write) is
//! better told than left waiting for an answer to a request the server never saw. So the
//! server reads stdin itself: every line that is JSON (or blank) goes on to rmcp unchanged,
//! and each line that is not is answered with one parse error. One task writes stdout,
//! rmcp's lines and the parse errors alike, a whole line at a time, so they never mix.

use std::io;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::io::{DuplexStream, duplex};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Longest line checked; longer ones go on to rmcp unread, which drops them by its own
/// limit (`rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH`, also 16 MiB).
const MAX_LINE: usize = 16 * 1024 * 1024;

/// Buffer between the pumps and rmcp.
const BUFFER: usize = 256 * 1024;

/// What rmcp reads and writes, and the task writing stdout: await it after the service
/// ends, so the last responses reach the client before the process exits.
pub struct Pipes {
    /// rmcp's input: stdin's JSON lines.
    pub read: DuplexStream,
    /// rmcp's output, copied to stdout.
    pub write: DuplexStream,
    /// Copies rmcp's output and the parse errors to stdout until rmcp closes its side.
    pub stdout: JoinHandle<io::Result<()>>,
}

/// Starts the pumps between the process's stdin and stdout and rmcp. Must be called inside
/// the runtime.
pub fn open() -> Pipes {
    let (to_server, read) = duplex(BUFFER);
    let (write, from_server) = duplex(BUFFER);
    let (errors, errors_rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        if let Err(e) = pump_in(tokio::io::stdin(), to_server, errors).await {
            tracing::debug!("stdin closed: {e}");
        }
    });
    let stdout = tokio::spawn(pump_out(from_server, errors_rx, tokio::io::stdout()));
    Pipes {
        read,
        write,
        stdout,
    }
}

/// Copies `input` to `server` line by line, keeping back each line that is not JSON and
/// sending its parse error to `errors` instead. Ends at the end of `input`, closing
/// `server`'s side.
async fn pump_in<R, W>(
    input: R,
    mut server: W,
    errors: mpsc::UnboundedSender<String>,
) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    // Inside a line too long to check, whose rest goes on unread.
    let mut passing = false;
    loop {
        line.clear();
        let limit = u64::try_from(MAX_LINE + 1).unwrap_or(u64::MAX);
        let n = (&mut input)
            .take(limit)
            .read_until(b'\n', &mut line)
            .await?;
        if n == 0 {
            break;
        }
        let complete = line.ends_with(b"\n");
        if passing || (!complete && line.len() > MAX_LINE) {
            passing = !complete;
        } else if let Some(error) = parse_error(&line) {
            let _ = errors.send(error);
            continue;
        }
        server.write_all(&line).await?;
        server.flush().await?;
    }
    server.shutdown().await
}

/// JSON-RPC's parse error for `line` when it is neither blank nor JSON.
fn parse_error(line: &[u8]) -> Option<String> {
    let body = line
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(line);
    if body.trim_ascii().is_empty() {
        return None;
    }
    let e = serde_json::from_slice::<serde::de::IgnoredAny>(body).err()?;
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("Parse error: the line is not JSON ({e})")},
    });
    Some(error.to_string())
}

/// Writes `server`'s lines and the parse errors to `out`, each line whole, until `server`
/// is closed.
async fn pump_out<R, W>(
    server: R,
    mut errors: mpsc::UnboundedReceiver<String>,
    mut out: W,
) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut server = BufReader::new(server);
    let mut line = Vec::new();
    let mut errors_open = true;
    loop {
        tokio::select! {
            // Cancel-safe: a partly read line stays in `line` and the next call goes on.
            n = server.read_until(b'\n', &mut line) => {
                if n? == 0 {
                    out.write_all(&line).await?;
                    break;
                }
                if line.ends_with(b"\n") {
                    out.write_all(&line).await?;
                    out.flush().await?;
                    line.clear();
                }
            }
            error = errors.recv(), if errors_open => match error {
                Some(error) => {
                    out.write_all(error.as_bytes()).await?;
                    out.write_all(b"\n").await?;
                    out.flush().await?;
                }
                None => errors_open = false,
            },
        }
    }
    out.flush().await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[tokio::test]
    async fn json_lines_pass_and_other_lines_get_a_parse_error() {
        let input: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\nnot json\n{\"a\":\n\xEF\xBB\xBF{\"b\":2}\n";
        let (errors, mut errors_rx) = mpsc::unbounded_channel();
        let mut server = Vec::new();
        pump_in(input, &mut server, errors).await.unwrap();
        assert_eq!(
            String::from_utf8(server).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\n\u{feff}{\"b\":2}\n"
        );
        let first: serde_json::Value =
            serde_json::from_str(&errors_rx.recv().await.unwrap()).unwrap();
        assert_eq!(first["id"], serde_json::Value::Null);
        assert_eq!(first["error"]["code"], -32700);
        assert!(
            first["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Parse error: the line is not JSON"),
            "{first}"
        );
        assert!(errors_rx.recv().await.is_some(), "the truncated object");
        assert!(
            errors_rx.recv().await.is_none(),
            "two bad lines, two errors"
        );
    }

    #[tokio::test]
    async fn server_lines_and_errors_reach_stdout_whole() {
        let (mut server_side, from_server) = duplex(64);
        let (errors, errors_rx) = mpsc::unbounded_channel();
        let out = tokio::spawn(async move {
            let mut out = Vec::new();
            pump_out(from_server, errors_rx, &mut out).await.unwrap();
            out
        });
        server_side.write_all(b"{\"id\":1,").await.unwrap();
        errors.send("{\"id\":null}".to_string()).unwrap();
        tokio::task::yield_now().await;
        server_side.write_all(b"\"result\":{}}\n").await.unwrap();
        drop(server_side);
        drop(errors);
        let out = String::from_utf8(out.await.unwrap()).unwrap();
        let mut lines: Vec<&str> = out.lines().collect();
        lines.sort_unstable();
        assert_eq!(lines, ["{\"id\":1,\"result\":{}}", "{\"id\":null}"]);
    }
}
