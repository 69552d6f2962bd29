//! The language server under load, as an editor drives it: a stdio client typing into the
//! generated 100,000-line game log of the benchmarks, one keystroke every `PAUSE`, and measuring
//! how long each keystroke takes to come back as diagnostics (`publishDiagnostics` of its
//! version). Rounds, side by side in one run:
//!
//! - idle: keystrokes alone;
//! - under semantic tokens: before each keystroke the client asks for the whole file's semantic
//!   tokens, and the keystroke is timed while that request is in flight;
//! - under a semantic tokens delta: the same with `semanticTokens/full/delta` from the last
//!   answer's result id (as VS Code asks after every change once the server offers deltas);
//! - under a semantic tokens range: the same with `semanticTokens/range` for the 60 lines around
//!   the typing (one screen, as an editor asks for what it shows);
//! - hover: a hover over a unit's name mid-log after each keystroke, timed to its answer;
//! - after the log's first audit (a whole replay after a pause): keystrokes whose audit is taken
//!   up at once from the replay's checkpoint before the edit (issue 16), each checked to leave
//!   no audit due (no second publication of its version follows), and hovers after them.
//!
//! The server's memory (resident now and at its peak) is read from `/proc` at the end, and its
//! resident memory after each round.
//!
//! Each request is also timed, from its sending to its answer's arrival. A round for a request
//! the server does not offer (an older build) is left out.
//!
//! Run with `cargo build --release && cargo run --release -p dotc-lsp --example load_test
//! [KEYSTROKES] [legal]` (default 200, on the benchmarks' log of random dice; `legal` types
//! into the rules-legal log of `tools/legal_log.rs` instead). It starts `target/release/dotc
//! lsp`, or the build `DOTC_BIN` names; with `DOTC_LSP_TRACE=1` the server's timing trace
//! (`dotc_lsp::trace`) goes to this program's stderr. Results: BENCHMARKS.md, "The language server under
//! load".

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "../../tools/legal_log.rs"]
mod legal;
#[path = "../../lang/benches/support/log.rs"]
#[allow(dead_code)]
mod log;

/// Between keystrokes: a fast typist.
const PAUSE: Duration = Duration::from_millis(60);

/// What the server sent, and when it arrived.
enum Incoming {
    Response(u64, Response),
    Diagnostics { uri: String, version: i64, at: Instant, count: usize },
}

/// A response: when it arrived, its size, and the little the client reads from it.
struct Response {
    at: Instant,
    bytes: usize,
    /// A semantic tokens answer's id.
    result_id: Option<String>,
    /// An initialize answer's semantic tokens capability.
    semantic_tokens: Option<Value>,
}

struct Client {
    stdin: ChildStdin,
    incoming: Receiver<Incoming>,
    next_id: u64,
    /// Responses and diagnostics read while waiting for something else.
    responses: HashMap<u64, Response>,
    diagnostics: Vec<(String, i64, Instant)>,
    /// How many diagnostics each publication held, by (uri, version): the last one's.
    counts: HashMap<(String, i64), usize>,
}

impl Client {
    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.stdin.write_all(framed.as_bytes()).expect("the server reads its input");
        self.stdin.flush().expect("the server reads its input");
    }

    fn request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn pump(&mut self, timeout: Duration) -> bool {
        match self.incoming.recv_timeout(timeout) {
            Ok(Incoming::Response(id, response)) => {
                self.responses.insert(id, response);
                true
            }
            Ok(Incoming::Diagnostics { uri, version, at, count }) => {
                self.counts.insert((uri.clone(), version), count);
                self.diagnostics.push((uri, version, at));
                true
            }
            Err(_) => false,
        }
    }

    /// The response to `id`.
    fn response(&mut self, id: u64) -> Response {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Some(response) = self.responses.remove(&id) {
                return response;
            }
            assert!(Instant::now() < deadline, "no response to request {id}");
            self.pump(Duration::from_millis(100));
        }
    }

    /// When the `nth` (from 1) diagnostics of `uri` at exactly `version` arrived, if they do
    /// within `wait`.
    fn nth_diagnostics_of(&mut self, uri: &str, version: i64, nth: usize, wait: Duration) -> Option<Instant> {
        let deadline = Instant::now() + wait;
        loop {
            let mut of = self.diagnostics.iter().filter(|(u, v, _)| u == uri && *v == version);
            if let Some(&(_, _, at)) = of.nth(nth - 1) {
                return Some(at);
            }
            if Instant::now() >= deadline {
                return None;
            }
            self.pump(Duration::from_millis(5));
        }
    }

    /// When diagnostics of `uri` at `version` (or later) arrived.
    fn diagnostics_of(&mut self, uri: &str, version: i64) -> Instant {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Some(&(_, _, at)) = self.diagnostics.iter().find(|(u, v, _)| u == uri && *v >= version) {
                return at;
            }
            assert!(Instant::now() < deadline, "no diagnostics of version {version}");
            self.pump(Duration::from_millis(100));
        }
    }
}

/// Read framed messages from the server and pass on what the test times. Each message is timed
/// as its last byte is read, and read as JSON on another thread: reading a whole file's semantic
/// tokens takes the client tens of milliseconds, which must not count against the messages
/// behind it.
fn read_messages(stdout: impl Read + Send + 'static) -> Receiver<Incoming> {
    let (bodies_tx, bodies) = channel::<(Vec<u8>, Instant)>();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() || bodies_tx.send((body, Instant::now())).is_err() {
                return;
            }
        }
    });
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for (body, at) in bodies {
            let Ok(message) = serde_json::from_slice::<Value>(&body) else { continue };
            let sent = if let Some(id) = message.get("id").and_then(Value::as_u64)
                && message.get("method").is_none()
            {
                let result = &message["result"];
                let result_id = result["resultId"].as_str().map(String::from);
                let semantic_tokens = result["capabilities"].get("semanticTokensProvider").cloned();
                let bytes = body.len();
                tx.send(Incoming::Response(id, Response { at, bytes, result_id, semantic_tokens }))
            } else if message["method"] == "textDocument/publishDiagnostics" {
                let uri = message["params"]["uri"].as_str().unwrap_or("").to_string();
                let version = message["params"]["version"].as_i64().unwrap_or(-1);
                let count = message["params"]["diagnostics"].as_array().map_or(0, Vec::len);
                tx.send(Incoming::Diagnostics { uri, version, at, count })
            } else {
                Ok(())
            };
            if sent.is_err() {
                return;
            }
        }
    });
    rx
}

/// A round of keystrokes each typed while a request was in flight.
struct Round {
    typed: Vec<Duration>,
    answered: Vec<Duration>,
    /// The answers' mean size.
    bytes: usize,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{what}: n {}, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.99)),
        ms(*times.last().unwrap_or(&Duration::ZERO))
    );
}

fn main() {
    let keystrokes: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(200);
    let is_legal = std::env::args().nth(2).is_some_and(|a| a == "legal");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    // `DOTC_BIN` runs another build of dotc (an older one, for a before-and-after).
    let dotc = std::env::var_os("DOTC_BIN").map_or_else(|| root.join("target/release/dotc"), PathBuf::from);
    assert!(dotc.exists(), "build it first: cargo build --release");
    let dir = std::env::temp_dir().join(format!("dotc-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (text, turns) = if is_legal {
        // The legal log has no remarks: one goes just inside the first turn past its middle.
        let (text, turns) = legal::generate_legal_log(log::TARGET_LINES);
        let middle = text.len() / 2;
        let at = text[middle..]
            .find("\nturn ")
            .and_then(|t| text[middle + t + 1..].find('\n').map(|n| middle + t + n + 2));
        let at = at.expect("a turn past the middle");
        (format!("{}    // the players pause for coffee\n{}", &text[..at], &text[at..]), turns)
    } else {
        log::generate_log(log::TARGET_LINES)
    };
    let scenario = log::scenario_with_turns(turns + 1);
    let log_path = dir.join("bench-game.dotc");
    std::fs::write(dir.join("fence-line.dotc"), &scenario).expect("write the scenario");
    std::fs::write(&log_path, &text).expect("write the log");
    let uri = |p: &Path| format!("file://{}", p.display());
    let (log_uri, scenario_uri) = (uri(&log_path), uri(&dir.join("fence-line.dotc")));

    let mut child = Command::new(&dotc)
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        // With `DOTC_LSP_TRACE=1` the server's timing trace goes to this program's stderr.
        .stderr(if std::env::var_os("DOTC_LSP_TRACE").is_some() { Stdio::inherit() } else { Stdio::null() })
        .spawn()
        .expect("start dotc lsp");
    let incoming = read_messages(child.stdout.take().expect("stdout"));
    let mut client = Client {
        stdin: child.stdin.take().expect("stdin"),
        incoming,
        next_id: 0,
        responses: HashMap::new(),
        diagnostics: Vec::new(),
        counts: HashMap::new(),
    };
    let id =
        client.request("initialize", json!({ "processId": null, "rootUri": uri(&dir), "capabilities": {} }));
    let offered = client.response(id).semantic_tokens.unwrap_or_default();
    let (offers_delta, offers_range) =
        (offered["full"]["delta"] == json!(true), offered["range"] == json!(true));
    client.notify("initialized", json!({}));
    let open = |c: &mut Client, u: &str, t: &str| {
        c.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": u, "languageId": "dotc", "version": 1, "text": t } }),
        )
    };
    open(&mut client, &scenario_uri, &scenario);
    let started = Instant::now();
    open(&mut client, &log_uri, &text);
    let opened = client.diagnostics_of(&log_uri, 1);
    println!(
        "log: {} lines, {} bytes; open to first diagnostics {:.0} ms",
        text.lines().count(),
        text.len(),
        (opened - started).as_secs_f64() * 1000.0
    );

    // A comment line mid-log to type into, and a unit's name on an action line for hovers.
    let lines: Vec<&str> = text.lines().collect();
    let middle = lines.len() / 2;
    let comment =
        (middle..lines.len()).find(|&l| lines[l].trim_start().starts_with("//")).expect("a comment");
    let (hover_line, hover_col) = (middle..lines.len())
        .find_map(|l| lines[l].find("fire \"").map(|c| (l, c + 7)))
        .expect("a fire action");
    let mut version = 1;
    let type_one = |c: &mut Client, version: &mut i64| -> Instant {
        *version += 1;
        // In and out: an `x` typed at the end of the comment, then deleted.
        let len = lines[comment].len();
        let end = if *version % 2 == 0 { len } else { len + 1 };
        let text = if *version % 2 == 0 { "x" } else { "" };
        let range = json!({ "start": { "line": comment, "character": len }, "end": { "line": comment, "character": end } });
        let at = Instant::now();
        c.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": log_uri, "version": *version }, "contentChanges": [{ "range": range, "text": text }] }),
        );
        at
    };

    // The server's resident memory after each round, from `/proc`.
    let resident = || -> String {
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
        let kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).map(|v| v.trim().to_string());
        kb.unwrap_or_else(|| "?".to_string())
    };
    let mut after_rounds: Vec<(&str, String)> = Vec::new();
    let mut idle = Vec::new();
    for _ in 0..keystrokes {
        let sent = type_one(&mut client, &mut version);
        idle.push(client.diagnostics_of(&log_uri, version) - sent);
        std::thread::sleep(PAUSE);
    }
    // Keystrokes each sent while a request is in flight (asked just before, given the last
    // answer's result id): the keystrokes' times, the requests' times and the answers' mean size.
    let under = |client: &mut Client,
                 version: &mut i64,
                 mut last: Option<String>,
                 ask: &dyn Fn(&mut Client, Option<&str>) -> u64| {
        let (mut typed, mut answered, mut bytes) = (Vec::new(), Vec::new(), 0);
        for _ in 0..keystrokes {
            let asked = Instant::now();
            let id = ask(client, last.as_deref());
            let sent = type_one(client, version);
            typed.push(client.diagnostics_of(&log_uri, *version) - sent);
            let response = client.response(id);
            answered.push(response.at - asked);
            bytes += response.bytes;
            last = response.result_id.or(last);
            std::thread::sleep(PAUSE);
        }
        Round { typed, answered, bytes: bytes / keystrokes.max(1) }
    };
    after_rounds.push(("idle", resident()));
    let document = json!({ "uri": log_uri });
    let full = under(&mut client, &mut version, None, &|c, _| {
        c.request("textDocument/semanticTokens/full", json!({ "textDocument": document }))
    });
    after_rounds.push(("full", resident()));
    // A whole file's answer first (not timed), to go on from.
    let delta = offers_delta.then(|| {
        let id = client.request("textDocument/semanticTokens/full", json!({ "textDocument": document }));
        let first = client.response(id).result_id;
        under(&mut client, &mut version, first, &|c, last| {
            let params = json!({ "textDocument": document, "previousResultId": last.unwrap_or_default() });
            c.request("textDocument/semanticTokens/full/delta", params)
        })
    });
    after_rounds.push(("full/delta", resident()));
    // One screen: 30 lines either side of the typing.
    let screen = json!({
        "start": { "line": comment.saturating_sub(30), "character": 0 },
        "end": { "line": comment + 30, "character": 0 },
    });
    let range = offers_range.then(|| {
        under(&mut client, &mut version, None, &|c, _| {
            let params = json!({ "textDocument": document, "range": screen });
            c.request("textDocument/semanticTokens/range", params)
        })
    });
    // A keystroke, its diagnostics, then a hover over the unit, timed to its answer; each time.
    let hovers_while_typing = |client: &mut Client, version: &mut i64| -> Vec<Duration> {
        let mut times = Vec::new();
        for _ in 0..keystrokes {
            type_one(client, version);
            client.diagnostics_of(&log_uri, *version);
            let asked = Instant::now();
            let position = json!({ "line": hover_line, "character": hover_col });
            let id = client.request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": log_uri }, "position": position }),
            );
            times.push(client.response(id).at - asked);
            std::thread::sleep(PAUSE);
        }
        times
    };
    after_rounds.push(("range", resident()));
    let hovers = hovers_while_typing(&mut client, &mut version);
    after_rounds.push(("hovers", resident()));
    // After a pause the audit is replayed (its diagnostics come again at the same version);
    // then hovers while typing carry the replay's events through the edits made since.
    let audited = client.diagnostics.iter().filter(|(u, v, _)| *u == log_uri && *v == version).count();
    let deadline = Instant::now() + Duration::from_secs(120);
    while client.diagnostics.iter().filter(|(u, v, _)| *u == log_uri && *v == version).count() <= audited {
        assert!(Instant::now() < deadline, "the audit never came");
        client.pump(Duration::from_millis(100));
    }
    let audit_came = Instant::now();
    let audited_count = client.counts.get(&(log_uri.clone(), version)).copied().unwrap_or(0);
    // Keystrokes after the audit: each one's audit is taken up from the checkpoint before it,
    // and comes with the keystroke's diagnostics.
    // The keystroke's own diagnostics come first, then again with its audit (a server that
    // takes the audit up with the keystroke, or never, publishes once).
    let first_resumed = version + 1;
    let (mut resumed, mut resumed_audit, mut audited_again) = (Vec::new(), Vec::new(), 0);
    for _ in 0..keystrokes {
        let sent = type_one(&mut client, &mut version);
        let first = client.diagnostics_of(&log_uri, version);
        resumed.push(first - sent);
        let audit = client.nth_diagnostics_of(&log_uri, version, 2, PAUSE);
        audited_again += usize::from(audit.is_some());
        resumed_audit.push(audit.unwrap_or(first) - sent);
        std::thread::sleep(PAUSE);
    }
    after_rounds.push(("after the audit", resident()));
    let replayed_hovers = hovers_while_typing(&mut client, &mut version);
    after_rounds.push(("hovers after the audit", resident()));
    // A keystroke in a comment changes no finding: each publication holds them all, which it
    // does only with the audit taken up (otherwise the findings of the edited turn are dropped
    // until the replay).
    let whole = (first_resumed..first_resumed + keystrokes as i64)
        .filter(|v| client.counts.get(&(log_uri.clone(), *v)) == Some(&audited_count))
        .count();
    let memory = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let field = |name: &str| {
        memory.lines().find_map(|l| l.strip_prefix(name)).map_or("?".to_string(), |v| v.trim().to_string())
    };
    report("keystroke -> diagnostics, idle", idle);
    let rounds = [("full", Some(full)), ("full/delta", delta), ("range (60 lines)", range)];
    for (request, round) in rounds {
        let Some(round) = round else {
            println!("semanticTokens/{request}: not offered by this server");
            continue;
        };
        report(&format!("keystroke -> diagnostics, semanticTokens/{request} in flight"), round.typed);
        report(
            &format!("semanticTokens/{request}, while typing ({} bytes an answer)", round.bytes),
            round.answered,
        );
    }
    report("hover on a unit mid-log, while typing (its audit waiting)", hovers);
    report("keystroke -> diagnostics, after the audit (taken up at each keystroke)", resumed);
    report("keystroke -> its audit's diagnostics (taken up from the checkpoint)", resumed_audit);
    report("hover on a unit mid-log, typing after the audit", replayed_hovers);
    println!("keystrokes after the audit published again with their audit: {audited_again} of {keystrokes}");
    println!(
        "keystrokes after the audit whose diagnostics held all {audited_count} of the audit's: {whole} of {keystrokes}"
    );
    println!(
        "the server's memory after {} keystrokes ({:.0} s of typing since the audit): resident {}, peak {}",
        version - 1,
        audit_came.elapsed().as_secs_f64(),
        field("VmRSS:"),
        field("VmHWM:")
    );

    let rounds: Vec<String> = after_rounds.iter().map(|(r, m)| format!("{r} {m}")).collect();
    println!("the server's resident memory after each round: {}", rounds.join(", "));

    let id = client.request("shutdown", json!(null));
    client.response(id);
    client.notify("exit", json!(null));
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
