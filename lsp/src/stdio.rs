//! The stdio transport of `dotc lsp`: our own framing in front of `tower-lsp-server`'s.
//!
//! The library's `Server` reads `Content-Length` frames itself, but the first frame it cannot
//! decode ends its input stream: it answers the error and then stops serving, as if the client
//! had gone. So the bytes from the client go through [`Framer`] and [`classify`] first, on a
//! thread of their own:
//!
//! - a header that is not `Content-*: ...`, a missing or unreadable `Content-Length`, and bytes
//!   between frames that are not a header are answered with one `-32700` (parse error) per
//!   run of bad bytes; reading resumes at the next `Content-Length` header;
//! - a body that is not JSON is answered `-32700`; JSON that is not a JSON-RPC 2.0 request,
//!   notification or response is answered `-32600` (invalid request), with the message's `id`
//!   when it has a usable one and `null` otherwise. (LSP has no batches: an array is invalid.)
//! - everything else is re-serialised and handed to the library's `Server` over an in-memory
//!   pipe, so it only ever sees frames it can decode.
//!
//! The server's output is read back frame by frame, on a thread of its own, and written to
//! stdout by one writer, with our error answers, so two frames never interleave. A whole file's
//! semantic tokens (megabytes for a long log) are not serialised by the library on the server's
//! runtime thread, where they would hold up every keystroke for tens of milliseconds: the server
//! writes them on the thread that made them and answers with a stand-in, which the relay
//! replaces ([`LargeAnswers`]).
//!
//! The library handles up to four requests at a time, so a client that writes ahead (as a
//! script or a test does) could see `initialize` overtaken by what follows it, or requests
//! cancelled by an `exit` that overtook them. So nothing after `initialize` is handed on before
//! its answer is out, and `exit` waits until every request before it has been answered (each
//! wait is cut off after [`WAIT_FOR_ANSWERS`], so a stuck request cannot keep the server alive).
//!
//! Exit codes follow the protocol: `exit` after a `shutdown` request ends the process with 0,
//! without one with 1. When the input ends without `exit` (the client went away), the same rule
//! applies: 0 if `shutdown` was received, 1 otherwise. A client whose `Content-Length` is larger
//! than its body makes the server wait for bytes that belong to the next message; that message
//! is then read as part of the body (and answered as a parse error): nothing in the stream
//! says where the real body ended.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower_lsp_server::jsonrpc::{Id, Request, Response};
use tower_lsp_server::{LspService, Server};

use crate::Backend;
use crate::server::LargeAnswers;

/// The longest header block read before it is taken for garbage.
const MAX_HEADER: usize = 8 << 10;
/// The largest body accepted (a bigger `Content-Length` is answered as a parse error).
const MAX_BODY: usize = 64 << 20;

/// How long `initialize` or `exit` waits for the answers to the requests before it.
pub const WAIT_FOR_ANSWERS: Duration = Duration::from_secs(10);

/// JSON-RPC's code for bytes that are not a message.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for JSON that is not a request, notification or response.
pub const INVALID_REQUEST: i64 = -32600;

/// What the framer found.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// The body of a well-framed message.
    Body(Vec<u8>),
    /// Bytes that are not a frame; the framer skips to the next `Content-Length` header.
    Malformed(String),
}

/// Cuts a byte stream into `Content-Length` frames, recovering from bad ones.
#[derive(Debug, Default)]
pub struct Framer {
    buf: Vec<u8>,
    /// After a malformed frame, bytes are dropped silently up to the next `Content-Length`.
    skipping: bool,
}

impl Framer {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next frame, or None until more bytes arrive.
    pub fn next_frame(&mut self) -> Option<Frame> {
        loop {
            // Line breaks and spaces between frames are tolerated.
            let blank = self.buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            self.buf.drain(..blank);
            if self.buf.is_empty() {
                return None;
            }
            if self.skipping {
                match find_ignore_case(&self.buf, b"content-length") {
                    Some(at) => {
                        self.buf.drain(..at);
                        self.skipping = false;
                    }
                    None => {
                        // Keep a tail that could be the start of a header split across reads.
                        let keep = self.buf.len().min(b"content-length".len() - 1);
                        self.buf.drain(..self.buf.len() - keep);
                        return None;
                    }
                }
                continue;
            }
            let prefix = b"content-";
            let n = self.buf.len().min(prefix.len());
            if !self.buf[..n].eq_ignore_ascii_case(&prefix[..n]) {
                return Some(
                    self.malformed(0, "the bytes before a message are not a `Content-Length` header"),
                );
            }
            let searched = &self.buf[..self.buf.len().min(MAX_HEADER + 4)];
            let Some(header_end) = find(searched, b"\r\n\r\n") else {
                if self.buf.len() > MAX_HEADER {
                    return Some(self.malformed(0, "the header does not end (no blank line)"));
                }
                return None;
            };
            let length = match content_length(&self.buf[..header_end]) {
                Ok(length) => length,
                Err(why) => return Some(self.malformed(header_end + 4, &why)),
            };
            let body_start = header_end + 4;
            if self.buf.len() < body_start + length {
                return None;
            }
            let body = self.buf[body_start..body_start + length].to_vec();
            self.buf.drain(..body_start + length);
            return Some(Frame::Body(body));
        }
    }

    /// Drop `consumed` bytes (at least one) and skip to the next header.
    fn malformed(&mut self, consumed: usize, why: &str) -> Frame {
        self.buf.drain(..consumed.clamp(1, self.buf.len()));
        self.skipping = true;
        Frame::Malformed(why.to_string())
    }
}

/// The `Content-Length` of a header block (without its blank line).
fn content_length(header: &[u8]) -> Result<usize, String> {
    let text = std::str::from_utf8(header).map_err(|_| "the header is not text".to_string())?;
    let mut length = None;
    for line in text.split("\r\n") {
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("the header line {line:?} has no `:`"));
        };
        if !name.trim().eq_ignore_ascii_case("content-length") {
            continue;
        }
        let value = value.trim();
        if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("the Content-Length {value:?} is not a number"));
        }
        let n: usize = value.parse().map_err(|_| format!("the Content-Length {value} is too large"))?;
        if n > MAX_BODY {
            return Err(format!("the Content-Length {n} is over the limit of {MAX_BODY} bytes"));
        }
        if length.is_some_and(|l| l != n) {
            return Err("two different Content-Length headers".to_string());
        }
        length = Some(n);
    }
    length.ok_or_else(|| "the header has no Content-Length".to_string())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// What to do with a message body.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// Hand it to the server: the message re-serialised, its method (None for a response) and
    /// its id (as JSON text; None for a notification).
    Forward { message: Vec<u8>, method: Option<String>, id: Option<String> },
    /// Answer it with this error response, and do not hand it on.
    Answer(Value),
}

/// Check a body is a JSON-RPC 2.0 message the server can decode.
pub fn classify(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(e) => {
            return Incoming::Answer(error(&Id::Null, PARSE_ERROR, &format!("Parse error: not JSON ({e})")));
        }
    };
    let id = value.get("id").and_then(|id| serde_json::from_value::<Id>(id.clone()).ok());
    let invalid = |why: &str| {
        Incoming::Answer(error(
            id.as_ref().unwrap_or(&Id::Null),
            INVALID_REQUEST,
            &format!("Invalid request: {why}"),
        ))
    };
    let Some(object) = value.as_object() else {
        return invalid("a message is a JSON object (LSP has no batches)");
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("`jsonrpc` must be \"2.0\"");
    }
    if object.contains_key("id") && id.is_none() {
        return invalid("`id` must be an integer, a string or null");
    }
    let id_key = object.get("id").map(Value::to_string);
    if let Some(method) = object.get("method") {
        let Some(method) = method.as_str().map(str::to_string) else {
            return invalid("`method` must be a string");
        };
        // `null` is taken as no parameters (clients send it for `shutdown`).
        if object.get("params").is_some_and(|p| !(p.is_object() || p.is_array() || p.is_null())) {
            return invalid("`params` must be an object or an array");
        }
        return match serde_json::from_value::<Request>(value) {
            Ok(request) => match serde_json::to_vec(&request) {
                Ok(message) => Incoming::Forward { message, method: Some(method), id: id_key },
                Err(e) => invalid(&e.to_string()),
            },
            Err(e) => invalid(&e.to_string()),
        };
    }
    if id_key.is_some() && (object.contains_key("result") || object.contains_key("error")) {
        return match serde_json::from_value::<Response>(value) {
            Ok(response) => match serde_json::to_vec(&response) {
                Ok(message) => Incoming::Forward { message, method: None, id: id_key },
                Err(e) => invalid(&e.to_string()),
            },
            Err(e) => invalid(&format!("not a response ({e})")),
        };
    }
    invalid("neither a request (no `method`) nor a response (no `id` with `result` or `error`)")
}

/// A JSON-RPC error response.
pub fn error(id: &Id, code: i64, message: &str) -> Value {
    let id = serde_json::to_value(id).unwrap_or(Value::Null);
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// A body with its `Content-Length` header.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// The ids of the requests handed to the server and not answered yet.
#[derive(Debug, Default)]
struct Outstanding {
    ids: Mutex<HashSet<String>>,
    answered: Condvar,
}

impl Outstanding {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.ids.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn add(&self, id: String) {
        self.lock().insert(id);
    }

    fn answer(&self, id: &str) {
        self.lock().remove(id);
        self.answered.notify_all();
    }

    /// Wait until none of the ids `pending` picks is outstanding, at most `limit`.
    fn wait(&self, limit: Duration, pending: impl Fn(&HashSet<String>) -> bool) {
        let deadline = Instant::now() + limit;
        let mut ids = self.lock();
        while pending(&ids) {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else { return };
            ids = match self.answered.wait_timeout(ids, left) {
                Ok((ids, _)) => ids,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

/// What the writer thread is sent.
enum Out {
    Frame(Vec<u8>),
    /// A large answer in three parts, written one after the other rather than copied into one
    /// frame: the header and the answer's start, the result written by the server, and `}`.
    Large {
        head: Vec<u8>,
        result: Vec<u8>,
    },
    /// Everything sent before has been written and flushed: say so.
    Flushed(mpsc::Sender<()>),
}

/// Serve the protocol on `input` and `output` until `exit` or the end of the input; the exit
/// code the protocol asks for (see the module's documentation). Needs a tokio runtime.
pub async fn serve<R, W>(input: R, output: W) -> ExitCode
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let shutdown = Arc::new(AtomicBool::new(false));
    let outstanding = Arc::new(Outstanding::default());
    let (out_tx, out_rx) = mpsc::channel::<Out>();
    std::thread::spawn(move || write_loop(output, out_rx));
    let (forward_tx, mut forward_rx) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
    {
        let (out, shutdown, outstanding) = (out_tx.clone(), shutdown.clone(), outstanding.clone());
        // A plain thread: a blocking read of stdin must not hold up the runtime's shutdown.
        std::thread::spawn(move || read_loop(input, &forward_tx, &out, &shutdown, &outstanding));
    }
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, mut from_server) = tokio::io::duplex(1 << 16);
    let feed = tokio::spawn(async move {
        while let Some(message) = forward_rx.recv().await {
            if to_server.write_all(&frame(&message)).await.is_err() {
                break;
            }
        }
        // Dropping the pipe is the end of the server's input.
    });
    // The server's output is cut into frames and checked on a thread of its own: a long log's
    // answers run to megabytes, and the server's one runtime thread should not read them again.
    let (chunks_tx, chunks_rx) = mpsc::channel::<Vec<u8>>();
    let large_answers = Arc::new(LargeAnswers::default());
    let relay_thread = {
        let (out, outstanding, answers) = (out_tx.clone(), outstanding.clone(), large_answers.clone());
        std::thread::spawn(move || relay_loop(&chunks_rx, &out, &outstanding, &answers))
    };
    let relay = async move {
        let mut chunk = vec![0u8; 1 << 16];
        while let Ok(n) = from_server.read(&mut chunk).await {
            if n == 0 || chunks_tx.send(chunk[..n].to_vec()).is_err() {
                break;
            }
        }
    };
    let (service, socket) = LspService::new(|client| Backend::with_large_answers(client, large_answers));
    let server = Server::new(server_in, server_out, socket).serve(service);
    tokio::join!(server, relay);
    feed.abort();
    // The relay ends with the server's output: its last frames go to the writer before the flush.
    let _ = relay_thread.join();
    let (ack_tx, ack_rx) = mpsc::channel();
    if out_tx.send(Out::Flushed(ack_tx)).is_ok() {
        let _ = ack_rx.recv_timeout(std::time::Duration::from_secs(10));
    }
    if shutdown.load(Ordering::SeqCst) { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// Read frames from the client until `exit` or the end of the input: answer the bad ones, hand
/// the others on.
fn read_loop(
    mut input: impl Read,
    forward: &tokio::sync::mpsc::UnboundedSender<Vec<u8>>,
    out: &mpsc::Sender<Out>,
    shutdown: &AtomicBool,
    outstanding: &Outstanding,
) {
    let mut framer = Framer::default();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        framer.push(&chunk[..n]);
        while let Some(found) = framer.next_frame() {
            let answer = match found {
                Frame::Malformed(why) => error(&Id::Null, PARSE_ERROR, &format!("Parse error: {why}")),
                Frame::Body(body) => match classify(&body) {
                    Incoming::Answer(answer) => answer,
                    Incoming::Forward { message, method, id } => {
                        if crate::trace::on() {
                            let what = format!(
                                "in {} {}",
                                method.as_deref().unwrap_or("-"),
                                id.as_deref().unwrap_or("-")
                            );
                            crate::trace::line(Instant::now(), &what);
                        }
                        let is_request = method.is_some() && id.is_some();
                        if is_request && method.as_deref() == Some("shutdown") {
                            shutdown.store(true, Ordering::SeqCst);
                        }
                        if method.as_deref() == Some("exit") {
                            outstanding.wait(WAIT_FOR_ANSWERS, |ids| !ids.is_empty());
                            let _ = forward.send(message);
                            return;
                        }
                        if let Some(id) = id.clone().filter(|_| is_request) {
                            outstanding.add(id);
                        }
                        if forward.send(message).is_err() {
                            return;
                        }
                        if is_request
                            && method.as_deref() == Some("initialize")
                            && let Some(id) = id
                        {
                            outstanding.wait(WAIT_FOR_ANSWERS, |ids| ids.contains(&id));
                        }
                        continue;
                    }
                },
            };
            let body = serde_json::to_vec(&answer).unwrap_or_default();
            if out.send(Out::Frame(frame(&body))).is_err() {
                return;
            }
        }
    }
}

/// Cut the server's output into frames and pass them to the writer, each stand-in for a large
/// answer replaced by that answer ([`LargeAnswers`]); each answer settles its request.
fn relay_loop(
    chunks: &mpsc::Receiver<Vec<u8>>,
    out: &mpsc::Sender<Out>,
    outstanding: &Outstanding,
    answers: &LargeAnswers,
) {
    /// Whether a message is an answer, and to what: the rest of it is skipped, not kept.
    #[derive(serde::Deserialize)]
    struct Head {
        method: Option<serde::de::IgnoredAny>,
        id: Option<Value>,
    }
    let mut framer = Framer::default();
    for chunk in chunks {
        framer.push(&chunk);
        while let Some(found) = framer.next_frame() {
            let Frame::Body(body) = found else { continue };
            let Some(Head { method: None, id: Some(id) }) = serde_json::from_slice::<Head>(&body).ok() else {
                // A request or notification of the server's own.
                if crate::trace::on() {
                    crate::trace::line(Instant::now(), &format!("out notification {}", body.len()));
                }
                let _ = out.send(Out::Frame(frame(&body)));
                continue;
            };
            if crate::trace::on() {
                crate::trace::line(Instant::now(), &format!("out answer {id} {}", body.len()));
            }
            let message = large_answer(&body, &id, answers).unwrap_or_else(|| Out::Frame(frame(&body)));
            let _ = out.send(message);
            // An answer (not a request of the server's own) settles its request.
            outstanding.answer(&id.to_string());
        }
    }
}

/// The answer to send for an answer of the server's that stands in for a large one: a small
/// answer whose result has a result id and empty data, and whose whole answer was left under
/// that id. None for any other answer.
fn large_answer(body: &[u8], id: &Value, answers: &LargeAnswers) -> Option<Out> {
    /// A stand-in is short; the others are not read again.
    const STAND_IN: usize = 256;
    if body.len() > STAND_IN {
        return None;
    }
    let answer: Value = serde_json::from_slice(body).ok()?;
    let result = answer.get("result")?;
    if result.get("data") != Some(&json!([])) {
        return None;
    }
    let result = answers.take(result.get("resultId")?.as_str()?)?;
    let start = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":");
    let length = start.len() + result.len() + LARGE_END.len();
    let head = format!("Content-Length: {length}\r\n\r\n{start}").into_bytes();
    Some(Out::Large { head, result })
}

/// What ends a large answer after its result.
const LARGE_END: &[u8] = b"}";

fn write_loop(mut output: impl Write, frames: mpsc::Receiver<Out>) {
    let mut broken = false;
    for out in frames {
        let _traced = crate::trace::Stretch::new("write");
        match out {
            Out::Frame(bytes) if !broken => {
                broken = output.write_all(&bytes).and_then(|()| output.flush()).is_err();
            }
            Out::Large { head, result } if !broken => {
                let parts = [head.as_slice(), result.as_slice(), LARGE_END];
                broken = parts
                    .iter()
                    .try_for_each(|part| output.write_all(part))
                    .and_then(|()| output.flush())
                    .is_err();
            }
            Out::Frame(_) | Out::Large { .. } => {}
            Out::Flushed(ack) => {
                let _ = ack.send(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[&[u8]]) -> Vec<Frame> {
        let mut framer = Framer::default();
        let mut out = Vec::new();
        for chunk in input {
            framer.push(chunk);
            while let Some(f) = framer.next_frame() {
                out.push(f);
            }
        }
        out
    }

    fn body(s: &str) -> Frame {
        Frame::Body(s.as_bytes().to_vec())
    }

    fn is_malformed(f: &Frame) -> bool {
        matches!(f, Frame::Malformed(_))
    }

    #[test]
    fn frames_split_anywhere_are_read_whole() {
        let stream = b"Content-Length: 2\r\n\r\n{}\r\nContent-Type: x\r\ncontent-length: 3\r\n\r\n[1]";
        for cut in 0..stream.len() {
            let got = frames(&[&stream[..cut], &stream[cut..]]);
            assert_eq!(got, vec![body("{}"), body("[1]")], "cut at {cut}");
        }
    }

    #[test]
    fn garbage_and_bad_headers_are_one_error_each_and_reading_resumes() {
        let got = frames(&[b"\x00\xffgarbage\r\n\r\nmore garbage Content-Length: 2\r\n\r\n{}"]);
        assert!(is_malformed(&got[0]), "{got:?}");
        assert_eq!(&got[1..], &[body("{}")]);
        let got = frames(&[b"Content-Length: abc\r\n\r\n{\"x\":1}Content-Length: 2\r\n\r\n{}"]);
        assert!(is_malformed(&got[0]) && got[1..] == [body("{}")], "{got:?}");
        let got = frames(&[b"Content-Type: a\r\n\r\n{}Content-Length: 2\r\n\r\n[]"]);
        assert!(is_malformed(&got[0]) && got[1..] == [body("[]")], "{got:?}");
        let got = frames(&[b"Content-Length: 99999999999999999999999\r\n\r\nContent-Length: 2\r\n\r\n[]"]);
        assert!(is_malformed(&got[0]) && got[1..] == [body("[]")], "{got:?}");
        // Garbage arriving a byte at a time is still one error.
        let garbage: Vec<&[u8]> = b"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz".chunks(1).collect();
        let got = frames(&garbage);
        assert_eq!(got.iter().filter(|f| is_malformed(f)).count(), 1);
    }

    #[test]
    fn bodies_are_classified_per_json_rpc() {
        let code = |b: &str| match classify(b.as_bytes()) {
            Incoming::Answer(v) => (v["error"]["code"].as_i64(), v["id"].clone()),
            Incoming::Forward { .. } => (None, Value::Null),
        };
        assert_eq!(code("{not json"), (Some(PARSE_ERROR), Value::Null));
        assert_eq!(code(""), (Some(PARSE_ERROR), Value::Null));
        assert_eq!(code("[]"), (Some(INVALID_REQUEST), Value::Null));
        assert_eq!(code("42"), (Some(INVALID_REQUEST), Value::Null));
        assert_eq!(code(r#"{"id": 3, "method": "hover"}"#), (Some(INVALID_REQUEST), json!(3)));
        assert_eq!(code(r#"{"jsonrpc": "2.0", "id": 4, "method": 5}"#), (Some(INVALID_REQUEST), json!(4)));
        assert_eq!(
            code(r#"{"jsonrpc": "2.0", "id": 1.5, "method": "x"}"#),
            (Some(INVALID_REQUEST), Value::Null)
        );
        assert_eq!(
            code(r#"{"jsonrpc": "2.0", "id": "a", "method": "x", "params": 1}"#),
            (Some(INVALID_REQUEST), json!("a"))
        );
        assert_eq!(code(r#"{"jsonrpc": "2.0", "id": 7}"#), (Some(INVALID_REQUEST), json!(7)));
        assert_eq!(code(r#"{"jsonrpc": "2.0"}"#), (Some(INVALID_REQUEST), Value::Null));
        let forward = classify(br#"{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}"#);
        assert!(
            matches!(forward, Incoming::Forward { method: Some(ref m), id: Some(ref id), .. } if m == "shutdown" && id == "1")
        );
        let response = classify(br#"{"jsonrpc": "2.0", "id": 1, "result": null}"#);
        assert!(matches!(response, Incoming::Forward { method: None, .. }));
    }

    /// Collects what the server writes.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap_or_else(|p| p.into_inner()).extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    async fn conversation(messages: &[&[u8]]) -> (ExitCode, Vec<Value>) {
        let input: Vec<u8> = messages.concat();
        let output = Shared::default();
        let code = serve(std::io::Cursor::new(input), output.clone()).await;
        let written = output.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let mut framer = Framer::default();
        framer.push(&written);
        let mut answers = Vec::new();
        while let Some(found) = framer.next_frame() {
            let Frame::Body(body) = found else { panic!("the server wrote a malformed frame: {found:?}") };
            answers.push(serde_json::from_slice(&body).unwrap_or(Value::Null));
        }
        (code, answers)
    }

    fn message(value: Value) -> Vec<u8> {
        frame(value.to_string().as_bytes())
    }

    #[tokio::test]
    async fn a_conversation_survives_garbage_and_ends_with_the_right_code() {
        let initialize = message(
            json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }),
        );
        let shutdown = message(json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }));
        let exit = message(json!({ "jsonrpc": "2.0", "method": "exit" }));
        let (code, answers) =
            conversation(&[&initialize, b"garbage\r\n\r\n", &frame(b"{"), &shutdown, &exit]).await;
        assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::SUCCESS));
        let codes: Vec<Option<i64>> = answers.iter().map(|a| a["error"]["code"].as_i64()).collect();
        assert_eq!(codes.iter().filter(|c| **c == Some(PARSE_ERROR)).count(), 2, "{answers:#?}");
        assert!(answers.iter().any(|a| a["id"] == json!(1) && a["result"]["capabilities"].is_object()));
        assert!(
            answers.iter().any(|a| a["id"] == json!(2) && a["result"].is_null() && a.get("error").is_none())
        );

        let (code, _) = conversation(&[&initialize, &exit]).await;
        assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::from(1)));
        let (code, _) = conversation(&[&initialize]).await;
        assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::from(1)));
    }

    /// A whole file's semantic tokens are written on the thread that made them and sent by the
    /// transport in place of the server's stand-in ([`LargeAnswers`]): the client gets the
    /// tokens, under the result id the server gave them, for a whole-file request and for a
    /// delta request from an id the server does not know. (The two are of two documents with
    /// the same text: two whole-file requests of one document asked at once are one too many,
    /// and the first is answered `ContentModified`, see `semantic::KeptTokens`.)
    #[tokio::test]
    async fn whole_file_semantic_tokens_are_sent_by_the_transport() {
        let text = include_str!("../../scenarios/tutorial/fence-line.dotc");
        let uri = "file:///stdio/fence-line.dotc";
        let mut ws = crate::workspace::Workspace::new();
        let parsed: tower_lsp_server::ls_types::Uri = uri.parse().expect("a URI");
        ws.open(parsed.clone(), 1, text.to_string());
        let tokens = crate::semantic::semantic_tokens(ws.get(&parsed).expect("open"));
        let want: Vec<u32> = tokens
            .iter()
            .flat_map(|t| [t.delta_line, t.delta_start, t.length, t.token_type, t.token_modifiers_bitset])
            .collect();
        assert!(want.len() > 500, "{} numbers", want.len());

        let request = |id: i64, method: &str, params: Value| {
            message(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
        };
        let (document, copy) = (json!({ "uri": uri }), "file:///stdio/copy/fence-line.dotc");
        let open = |uri: &str| {
            message(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": { "uri": uri, "languageId": "dotc", "version": 1, "text": text } } }))
        };
        let messages = [
            request(1, "initialize", json!({ "capabilities": {} })),
            message(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })),
            open(uri),
            open(copy),
            request(2, "textDocument/semanticTokens/full", json!({ "textDocument": document })),
            request(
                3,
                "textDocument/semanticTokens/full/delta",
                json!({ "textDocument": { "uri": copy }, "previousResultId": "none such" }),
            ),
            request(4, "shutdown", Value::Null),
            message(json!({ "jsonrpc": "2.0", "method": "exit" })),
        ];
        let input: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        let (code, answers) = conversation(&input).await;
        assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::SUCCESS));
        let answer = |id: i64| answers.iter().find(|a| a["id"] == json!(id)).cloned().unwrap_or(Value::Null);
        for id in [2, 3] {
            let result = &answer(id)["result"];
            let data: Vec<u32> = result["data"]
                .as_array()
                .map(|d| d.iter().filter_map(|n| n.as_u64().and_then(|n| u32::try_from(n).ok())).collect())
                .unwrap_or_default();
            assert_eq!(data, want, "answer {id}");
            assert!(result["resultId"].is_string(), "answer {id}: {result}");
        }
        assert_ne!(answer(2)["result"]["resultId"], answer(3)["result"]["resultId"]);
        assert!(answer(4).get("error").is_none());
    }
}
