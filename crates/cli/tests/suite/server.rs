//! A scripted Chat Completions server on 127.0.0.1 for the `--engine llm` exit paths: it
//! answers a bounded number of requests from a script, then stops by itself.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// One scripted reply: HTTP status and JSON body.
pub type Reply = (u16, String);

/// The server; its base URL is `http://127.0.0.1:PORT/v1`.
pub struct Server {
    pub base_url: String,
    /// Request bodies received, in order.
    pub requests: Arc<Mutex<Vec<String>>>,
    handle: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves `replies` in order, one per connection; the last one repeats until
    /// `max_requests` were served.
    pub fn start(replies: Vec<Reply>, max_requests: usize) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        let handle = std::thread::spawn(move || {
            for (n, stream) in listener.incoming().take(max_requests).enumerate() {
                let Ok(mut stream) = stream else { break };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut len = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    let lower = line.to_ascii_lowercase();
                    if let Some(v) = lower.strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0u8; len];
                let _ = reader.read_exact(&mut body);
                seen.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&body).into_owned());
                let (status, text) = replies[n.min(replies.len() - 1)].clone();
                let reason = if status == 200 { "OK" } else { "Error" };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n\
                     Content-Length: {}\r\nConnection: close\r\n\r\n{text}",
                    text.len()
                );
                let _ = stream.flush();
            }
        });
        Server {
            base_url: format!("http://127.0.0.1:{port}/v1"),
            requests,
            handle: Some(handle),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // The thread ends after max_requests; don't wait for it if the test didn't use
        // them all (it blocks in accept until the process exits).
        drop(self.handle.take());
    }
}

/// A completion that calls one tool.
pub fn tool_call(id: &str, name: &str, args: &serde_json::Value) -> Reply {
    let body = serde_json::json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [{
            "index": 0,
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [{
                    "id": id,
                    "type": "function",
                    "function": {"name": name, "arguments": args.to_string()}
                }]
            },
            "finish_reason": "tool_calls"
        }],
        "usage": {"prompt_tokens": 900, "completion_tokens": 20, "total_tokens": 920}
    });
    (200, body.to_string())
}
