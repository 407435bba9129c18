//! Newline-delimited JSON-RPC on stdin/stdout for the MCP server, answering what JSON-RPC 2.0
//! asks to be answered where rmcp's own stdio transport stays silent: a line that is not JSON
//! gets a parse error (-32700, id null), JSON that is no message an invalid-request error
//! (-32600, with the request's id when it has one); a malformed notification is dropped,
//! never answered, as the specification asks. Whatever is dropped or refused is logged to
//! stderr.
//!
//! An unknown method's error (-32601) says so ("method not found: foo"): rmcp gives the bare
//! method name as the message.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ErrorCode, JsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;
use tracing::warn;

/// The transport over one reader and one writer.
pub struct Lines<R, W> {
    read: BufReader<R>,
    /// The line being read: kept across calls, as `receive` may be cancelled mid-line.
    line: Vec<u8>,
    write: Arc<Mutex<Option<W>>>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Lines<R, W> {
    pub fn new(read: R, write: W) -> Self {
        Lines {
            read: BufReader::new(read),
            line: Vec::new(),
            write: Arc::new(Mutex::new(Some(write))),
        }
    }
}

/// What to do with one incoming line.
#[derive(Debug)]
enum Incoming {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Answer this, then read on.
    Reply(Value),
    /// Nothing to answer (a blank line, a malformed notification).
    Skip,
}

fn read_line(line: &[u8]) -> Incoming {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Incoming::Skip;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            warn!("a line that is not JSON: answered with a parse error ({e})");
            return Incoming::Reply(
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {e}")}}),
            );
        }
    };
    let id = value.get("id").filter(|id| id.is_string() || id.is_number()).cloned();
    let method = value.get("method").and_then(Value::as_str).map(str::to_string);
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        Ok(m) => Incoming::Message(Box::new(m)),
        Err(e) => match (method, id) {
            // A notification: never answered.
            (Some(method), None) => {
                warn!("notification {method} dropped: malformed ({e})");
                Incoming::Skip
            }
            (method, id) => {
                warn!(
                    "invalid request{}: answered with an error ({e})",
                    method.map(|m| format!(" {m}")).unwrap_or_default()
                );
                Incoming::Reply(
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": format!("Invalid request: {e}")}}),
                )
            }
        },
    }
}

/// rmcp's "method not found" carries the bare method name: say what it is.
fn outgoing(mut item: TxJsonRpcMessage<RoleServer>) -> TxJsonRpcMessage<RoleServer> {
    if let JsonRpcMessage::Error(e) = &mut item
        && e.error.code == ErrorCode::METHOD_NOT_FOUND
        && !e.error.message.contains(' ')
    {
        e.error.message = format!("method not found: {}", e.error.message).into();
    }
    item
}

async fn write_line<W: AsyncWrite + Unpin>(write: &Mutex<Option<W>>, mut bytes: Vec<u8>) -> std::io::Result<()> {
    bytes.push(b'\n');
    let mut guard = write.lock().await;
    let w = guard
        .as_mut()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotConnected, "transport closed"))?;
    w.write_all(&bytes).await?;
    w.flush().await
}

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = self.write.clone();
        async move {
            let bytes = serde_json::to_vec(&outgoing(item))?;
            write_line(&write, bytes).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read.read_until(b'\n', &mut self.line).await {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    tracing::error!("reading stdin: {e}");
                    return None;
                }
            }
            let incoming = read_line(self.line.strip_suffix(b"\n").unwrap_or(&self.line));
            self.line.clear();
            match incoming {
                Incoming::Message(m) => return Some(*m),
                Incoming::Skip => {}
                Incoming::Reply(reply) => {
                    let bytes = serde_json::to_vec(&reply).unwrap_or_default();
                    if write_line(&self.write, bytes).await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        if let Some(mut w) = self.write.lock().await.take() {
            w.shutdown().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        assert!(matches!(read_line(b"  "), Incoming::Skip));
        assert!(matches!(
            read_line(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
            Incoming::Message(_)
        ));
        let Incoming::Reply(r) = read_line(b"{ nope") else {
            panic!()
        };
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone()),
            (Value::Null, json!(-32700))
        );
        let Incoming::Reply(r) = read_line(br#"{"id":"a","x":1}"#) else {
            panic!()
        };
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone()),
            (json!("a"), json!(-32600))
        );
        // A notification of a shape no message has: dropped, never answered.
        assert!(matches!(
            read_line(br#"{"jsonrpc":"2.0","method":"notifications/x","params":5}"#),
            Incoming::Skip
        ));
    }
}
