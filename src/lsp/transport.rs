//! A guard between the real stdin/stdout and tower-lsp-server's transport.
//!
//! tower-lsp-server stops reading after the first body that does not decode (tokio-util's
//! `FramedRead` ends the stream on a decode error), so one bad message would end the session.
//! Here every incoming frame is checked first: a lone UTF-16 surrogate escape (which JavaScript
//! clients can produce when they split a surrogate pair) is replaced by U+FFFD; a body that is
//! not JSON is answered with a parse error (-32700), one that is not a JSON-RPC message with an
//! invalid-request error (-32600); neither reaches the server. Replies of our own are written
//! between the server's frames, never inside one. The guard also follows the session: a
//! notification before `initialize` is dropped and logged, and a `shutdown` request counts as
//! received as soon as it arrives (see `Session::pass`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tracing::{error, warn};

/// Read one frame's body; `None` at the end of the stream or on broken framing.
async fn read_frame<R: AsyncRead + Unpin>(r: &mut BufReader<R>) -> Option<Vec<u8>> {
    let mut length: Option<usize> = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await.ok()? == 0 {
            return None;
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok();
        }
    }
    let n = length?;
    if n > 64 * 1024 * 1024 {
        error!("refusing a {n}-byte message");
        return None;
    }
    let mut body = vec![0; n];
    r.read_exact(&mut body).await.ok()?;
    Some(body)
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// Replace `\uD800`-`\uDFFF` escapes that are not part of a valid pair by `\uFFFD`.
fn repair_surrogates(text: &str) -> String {
    let b = text.as_bytes();
    let hex_at = |i: usize| -> Option<u32> {
        let h = text.get(i..i + 4)?;
        u32::from_str_radix(h, 16).ok()
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' {
            if b[i + 1] == b'u'
                && let Some(cu) = hex_at(i + 2)
                && (0xD800..0xE000).contains(&cu)
            {
                let paired = cu < 0xDC00
                    && b.get(i + 6) == Some(&b'\\')
                    && b.get(i + 7) == Some(&b'u')
                    && hex_at(i + 8).is_some_and(|lo| (0xDC00..0xE000).contains(&lo));
                if paired {
                    i += 12;
                    continue;
                }
                out.push_str(&text[last..i]);
                out.push_str("\\ufffd");
                i += 6;
                last = i;
                continue;
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[last..]);
    out
}

/// An incoming message to pass on: its body (possibly repaired), its method, whether it is a
/// request (it has an id).
#[derive(Debug)]
struct Checked {
    body: Vec<u8>,
    method: Option<String>,
    request: bool,
}

/// What to do with an incoming body: pass it on (possibly repaired) or answer it ourselves.
fn check(body: Vec<u8>) -> Result<Checked, Value> {
    let parsed = match serde_json::from_slice::<Value>(&body) {
        Ok(v) => Ok((v, body)),
        Err(_) => {
            let text = String::from_utf8_lossy(&body);
            let repaired = repair_surrogates(&text);
            match serde_json::from_str::<Value>(&repaired) {
                Ok(v) => {
                    warn!("repaired a lone UTF-16 surrogate escape in an incoming message");
                    Ok((v, repaired.into_bytes()))
                }
                Err(e) => Err(e),
            }
        }
    };
    match parsed {
        Ok((v, body)) => {
            let is_rpc = v.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
                && (v.get("method").is_some_and(Value::is_string)
                    || v.get("result").is_some()
                    || v.get("error").is_some());
            if is_rpc {
                Ok(Checked {
                    body,
                    method: v.get("method").and_then(Value::as_str).map(str::to_string),
                    request: v.get("id").is_some_and(|id| !id.is_null()),
                })
            } else {
                warn!("ignoring a message that is not JSON-RPC 2.0");
                let id = v.get("id").cloned().unwrap_or(Value::Null);
                Err(
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": "Invalid request: not a JSON-RPC 2.0 message"}}),
                )
            }
        }
        Err(e) => {
            warn!("ignoring a message that is not JSON: {e}");
            Err(
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {e}")}}),
            )
        }
    }
}

/// What the guard knows of the session from the messages it passed on.
#[derive(Default)]
struct Session {
    /// The `initialize` request was received.
    initialize: bool,
}

impl Session {
    /// Whether to pass `m` on to the server. Before `initialize`, a notification other than
    /// `exit` is dropped (the protocol asks it), a request is answered -32002 by the server;
    /// both are logged. A `shutdown` request after `initialize` counts as received when it
    /// arrives: an `exit` right behind it, sent without waiting for the reply, ends the process
    /// with status 0.
    fn pass(&mut self, m: &Checked, shutdown: &AtomicBool) -> bool {
        let Some(method) = m.method.as_deref() else {
            return true;
        };
        if method == "initialize" {
            self.initialize = true;
            return true;
        }
        if !self.initialize && method != "exit" {
            if m.request {
                warn!("{method} before initialize: answered with error -32002 (server not initialized)");
            } else {
                warn!("{method} before initialize: dropped, as the protocol asks");
                return false;
            }
        }
        if method == "shutdown" && m.request && self.initialize {
            shutdown.store(true, Ordering::SeqCst);
        }
        true
    }
}

/// Copy frames from `input` to `to_server`, answering undecodable ones through `replies`;
/// `shutdown` is set when a `shutdown` request is received (see [`Session::pass`]).
pub async fn guard_input<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(
    input: R,
    mut to_server: W,
    replies: mpsc::UnboundedSender<Vec<u8>>,
    shutdown: Arc<AtomicBool>,
) {
    let mut r = BufReader::new(input);
    let mut session = Session::default();
    while let Some(body) = read_frame(&mut r).await {
        match check(body) {
            Ok(m) => {
                if session.pass(&m, &shutdown) && to_server.write_all(&frame(&m.body)).await.is_err() {
                    break;
                }
            }
            Err(reply) => {
                let _ = replies.send(serde_json::to_vec(&reply).unwrap_or_default());
            }
        }
    }
    // End of input: closing the server's side lets it finish.
    let _ = to_server.shutdown().await;
}

/// Copy the server's frames to `output` whole, with our own messages (already serialized
/// bodies: the guard's replies, the diagnostics the server publishes) written between them.
pub async fn merge_output<R: AsyncRead + Unpin + Send + 'static, W: AsyncWrite + Unpin>(
    from_server: R,
    mut output: W,
    mut replies: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    // Frames are read in their own task: reading is not cancellation-safe, channels are.
    let (frames_tx, mut frames) = mpsc::unbounded_channel::<Vec<u8>>();
    tokio::spawn(async move {
        let mut r = BufReader::new(from_server);
        while let Some(body) = read_frame(&mut r).await {
            if frames_tx.send(body).is_err() {
                break;
            }
        }
    });
    let mut replies_open = true;
    loop {
        tokio::select! {
            body = frames.recv() => {
                let Some(body) = body else { break };
                if output.write_all(&frame(&body)).await.is_err() || output.flush().await.is_err() {
                    break;
                }
            }
            reply = replies.recv(), if replies_open => {
                match reply {
                    Some(body) => {
                        if output.write_all(&frame(&body)).await.is_err() || output.flush().await.is_err() {
                            break;
                        }
                    }
                    None => replies_open = false,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surrogates() {
        assert_eq!(repair_surrogates(r#""\ud83d""#), r#""\ufffd""#);
        assert_eq!(repair_surrogates(r#""\ud83d\ude80 ok""#), r#""\ud83d\ude80 ok""#);
        assert_eq!(repair_surrogates(r#""a\\ud83d""#), r#""a\\ud83d""#);
        assert_eq!(repair_surrogates(r#""\ude80x""#), r#""\ufffdx""#);
    }

    #[test]
    fn checks() {
        assert!(check(br#"{"jsonrpc":"2.0","method":"x"}"#.to_vec()).is_ok());
        assert_eq!(check(b"{ nope".to_vec()).unwrap_err()["error"]["code"], -32700);
        assert_eq!(check(br#"{"hello":1}"#.to_vec()).unwrap_err()["error"]["code"], -32600);
        let repaired = check(br#"{"jsonrpc":"2.0","method":"x","params":{"t":"\ud83d"}}"#.to_vec()).unwrap();
        assert!(String::from_utf8(repaired.body).unwrap().contains("\\ufffd"));
    }
}
