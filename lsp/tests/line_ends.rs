//! Thousands of seeded random edits to documents with `\n`, `\r\n`, lone `\r` and mixed line
//! breaks, sent to the real server in process as `textDocument/didChange` ranges in UTF-16
//! positions. After every change the server's text must equal a reference text the test edits
//! itself, and every diagnostic the server publishes must be where a fresh analysis of that text
//! puts it, converted to positions by a second, deliberately naive line splitter written here.
//!
//! The edits insert and delete every kind of line break, type a `\r` before a `\n` (joining them
//! into one break), type between the `\r` and `\n` of a CRLF (splitting it), put positions past
//! the end of a line or of the text and inside surrogate pairs, send several changes in one
//! notification, replace the whole text, and resend stale versions (which must change nothing).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use dotc_lsp::Backend;
use dotc_lsp::convert;
use dotc_lsp::workspace::Workspace;
use futures::StreamExt;
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use tower::{Service, ServiceExt};
use tower_lsp_server::LspService;
use tower_lsp_server::jsonrpc::Request;
use tower_lsp_server::ls_types::Uri;

/// Edits per document and line-break style (two documents, four styles).
const EDITS: usize = 800;

// ---- a deterministic generator (splitmix64) ----

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % (n.max(1) as u64)) as usize
    }

    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

// ---- the reference: lines split by a plain scan, positions counted char by char ----

/// (start, end of content) of every line; a line ends at `\n`, `\r\n` or a lone `\r`.
fn lines(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push((start, i));
                start = i + 1;
            }
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                out.push((start, i));
                i += 1;
                start = i + 1;
            }
            b'\r' => {
                out.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push((start, bytes.len()));
    out
}

fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The byte offset of a position: a column past the line's end is its end, a line past the
/// last is the end of the text, a column inside a surrogate pair is that character's start.
fn ref_offset(text: &str, lines: &[(usize, usize)], line: usize, character: usize) -> usize {
    let Some(&(start, end)) = lines.get(line) else { return text.len() };
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        units += c.len_utf16();
        if units > character {
            return start + i;
        }
    }
    end
}

/// The position of a byte offset (an offset inside a line break is the end of its line).
fn ref_position(text: &str, lines: &[(usize, usize)], offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = lines.iter().rposition(|&(start, _)| start <= offset).unwrap_or(0);
    let (start, end) = lines[line];
    (line, utf16_len(&text[start..offset.min(end)]))
}

fn position_json((line, character): (usize, usize)) -> Value {
    json!({ "line": line, "character": character })
}

fn range_json(text: &str, lines: &[(usize, usize)], start: usize, end: usize) -> Value {
    json!({ "start": position_json(ref_position(text, lines, start)),
            "end": position_json(ref_position(text, lines, end)) })
}

// ---- the server, in process ----

struct Session {
    service: LspService<Backend>,
    inbox: UnboundedReceiver<Request>,
    published: HashMap<String, Value>,
}

impl Session {
    async fn start() -> Session {
        let (service, mut socket) = LspService::new(Backend::new);
        let (tx, inbox) = unbounded_channel();
        tokio::spawn(async move {
            while let Some(message) = socket.next().await {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let mut session = Session { service, inbox, published: HashMap::new() };
        let init = Request::build("initialize").params(json!({ "capabilities": {} })).id(1).finish();
        assert!(session.send(init).await.is_some());
        session.notify("initialized", json!({})).await;
        session
    }

    async fn send(&mut self, request: Request) -> Option<Value> {
        let service = self.service.ready().await.expect("service ready");
        let response = service.call(request).await.expect("no transport error")?;
        let (_, body) = response.into_parts();
        Some(body.unwrap_or_else(|e| json!({ "error": e.message })))
    }

    async fn notify(&mut self, method: &'static str, params: Value) {
        assert!(self.send(Request::build(method).params(params).finish()).await.is_none());
    }

    /// The latest diagnostics published for `uri` since the last call, if any.
    async fn take_published(&mut self, uri: &str) -> Option<Value> {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        while let Ok(message) = self.inbox.try_recv() {
            let (method, _, params) = message.into_parts();
            if method == "textDocument/publishDiagnostics"
                && let Some(params) = params
                && let Some(for_uri) = params["uri"].as_str()
            {
                self.published.insert(for_uri.to_string(), params);
            }
        }
        self.published.remove(uri)
    }

    fn text(&self, uri: &Uri) -> Option<String> {
        self.service.inner().document_text(uri)
    }
}

// ---- the documents ----

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fixture's text, and the path of a new file beside it (so a game log finds its scenario).
fn fixture(relative: &str, name: &str) -> (PathBuf, String) {
    let path = std::fs::canonicalize(repo().join(relative)).expect("fixture exists");
    let text = std::fs::read_to_string(&path).expect("fixture readable");
    (path.with_file_name(name), text)
}

#[derive(Clone, Copy, Debug)]
enum Style {
    Lf,
    Crlf,
    Cr,
    Mixed,
}

fn with_line_ends(text: &str, style: Style, rng: &mut Rng) -> String {
    let plain = text.replace("\r\n", "\n");
    let mut out = String::with_capacity(plain.len() * 2);
    for c in plain.chars() {
        if c != '\n' {
            out.push(c);
            continue;
        }
        out.push_str(match style {
            Style::Lf => "\n",
            Style::Crlf => "\r\n",
            Style::Cr => "\r",
            Style::Mixed => rng.pick(&["\n", "\r\n", "\r"]),
        });
    }
    out
}

/// What can be typed: line breaks of every kind alone and in pairs, text around them,
/// characters of two and four bytes (one and two UTF-16 units), and bits of the language.
const PIECES: &[&str] = &[
    "",
    "\n",
    "\r\n",
    "\r",
    "\n\r",
    "\r\r",
    "x",
    "a\r",
    "\rb",
    "\r\nz",
    "é",
    "’",
    "𝔄",
    "𝔄\r",
    " ",
    "\"",
    "// note",
    "/*",
    "*/",
    "{",
    "}",
    "fire ",
    "turn 2 union {",
    "\"19th Indiana\"",
    "roll [3, 4]",
    "=> hits 1",
    "stands 5",
    "\"\"\"",
    "`",
    "@allow(dotc::replay-doubtful, \"x\")",
    "\t",
];

/// A (line, UTF-16 column) position.
type Pos = (usize, usize);
/// One change: its range (None: the whole text) and the text put there.
type Change = (Option<(Pos, Pos)>, String);

/// One change made against the reference `text`.
fn random_change(text: &str, rng: &mut Rng) -> Change {
    let lines = lines(text);
    let line_len = |l: usize| lines.get(l).map_or(0, |&(s, e)| utf16_len(&text[s..e]));
    let op = rng.below(100);
    if op < 2 {
        // Replace the whole text with a part of it.
        let cut = rng.below(text.len() + 1);
        let cut = (0..=cut).rev().find(|&c| text.is_char_boundary(c)).unwrap_or(0);
        return (None, text[..cut].to_string());
    }
    if op < 12 {
        // Split a CRLF (replace it with `\r` + something + `\n`), join a lone `\r` with a `\n`
        // typed after it, or type a `\r` before a lone `\n`.
        let candidates: Vec<usize> = (0..lines.len().saturating_sub(1)).collect();
        if !candidates.is_empty() {
            let l = candidates[rng.below(candidates.len())];
            let end_of_line = (l, line_len(l));
            let next_start = (l + 1, 0);
            let terminator = &text[lines[l].1..lines[l + 1].0];
            return match terminator {
                "\r\n" => {
                    let middle = rng.pick(&["", "x", "\r", "\n", "é"]);
                    (Some((end_of_line, next_start)), format!("\r{middle}\n"))
                }
                "\r" => (Some((next_start, next_start)), "\n".to_string()),
                _ => (Some((end_of_line, end_of_line)), "\r".to_string()),
            };
        }
    }
    let at = |rng: &mut Rng| {
        let line = rng.below(lines.len() + 1);
        (line, rng.below(line_len(line) + 3))
    };
    let start = at(rng);
    let end = if rng.percent(35) {
        start
    } else if rng.percent(80) {
        let line = start.0 + rng.below(3);
        (line, rng.below(line_len(line) + 3))
    } else {
        at(rng)
    };
    let offset = |(l, c): (usize, usize)| ref_offset(text, &lines, l, c);
    let (start, end) = if offset(end) < offset(start) { (end, start) } else { (start, end) };
    let mut insert = String::new();
    for _ in 0..=rng.below(3) {
        if rng.percent(15) && !text.is_empty() {
            // A few characters of the text itself.
            let from = rng.below(text.len());
            let piece: String = text[(0..=from).rev().find(|&c| text.is_char_boundary(c)).unwrap_or(0)..]
                .chars()
                .take(rng.below(12))
                .collect();
            insert.push_str(&piece);
        } else {
            insert.push_str(rng.pick(PIECES));
        }
    }
    (Some((start, end)), insert)
}

/// Apply a change the way the protocol says: positions to offsets by the reference lines.
fn apply(text: &mut String, change: &Change) {
    let (range, insert) = change;
    match range {
        None => *text = insert.clone(),
        Some((start, end)) => {
            let lines = lines(text);
            let a = ref_offset(text, &lines, start.0, start.1);
            let b = ref_offset(text, &lines, end.0, end.1);
            text.replace_range(a.min(b)..a.max(b), insert);
        }
    }
}

fn change_json(change: &Change) -> Value {
    match &change.0 {
        None => json!({ "text": change.1 }),
        Some((start, end)) => json!({
            "range": { "start": position_json(*start), "end": position_json(*end) },
            "text": change.1,
        }),
    }
}

/// A comparable form of a diagnostic: range, code, message, related ranges.
fn key(range: &Value, code: &Value, message: &Value, related: &Value) -> String {
    let related: Vec<Value> = related
        .as_array()
        .map(|r| r.iter().map(|i| json!([i["location"]["range"], i["message"]])).collect())
        .unwrap_or_default();
    serde_json::to_string(&json!([range, code, message, related])).unwrap_or_default()
}

/// What a fresh analysis of `text` says, with positions from the reference lines. For a game
/// log that does not check clean, the replay's findings are left out of the comparison: the
/// server keeps the last clean replay's, moved with the text, by design (see workspace.rs).
fn expected(path: &Path, text: &str) -> (Vec<String>, bool) {
    let analyzed = Workspace::new().analyze(path, text);
    let lines = lines(text);
    let stale_audit_allowed = analyzed.is_game() && analyzed.analysis.has_errors();
    let mut out: Vec<String> = analyzed
        .diagnostics()
        .into_iter()
        .map(|d| {
            let related: Vec<Value> = d
                .secondary
                .iter()
                .map(|l| {
                    json!({ "location": { "range": range_json(text, &lines, l.span.start, l.span.end) },
                            "message": l.text })
                })
                .collect();
            key(
                &range_json(text, &lines, d.primary.span.start, d.primary.span.end),
                &json!(d.code),
                &json!(convert::message(d)),
                &json!(related),
            )
        })
        .filter(|k| !(stale_audit_allowed && k.contains("\"dotc::replay-")))
        .collect();
    out.sort();
    (out, stale_audit_allowed)
}

fn published_keys(published: &Value, text: &str, stale_audit_allowed: bool) -> Vec<String> {
    let lines = lines(text);
    let mut out = Vec::new();
    for d in published["diagnostics"].as_array().into_iter().flatten() {
        // Every position is inside the document.
        let ranges = std::iter::once(&d["range"])
            .chain(d["relatedInformation"].as_array().into_iter().flatten().map(|r| &r["location"]["range"]));
        for range in ranges {
            for end in ["start", "end"] {
                let line = range[end]["line"].as_u64().expect("a line") as usize;
                let character = range[end]["character"].as_u64().expect("a character") as usize;
                let (s, e) = lines.get(line).copied().unwrap_or_else(|| panic!("line {line} past the text"));
                assert!(character <= utf16_len(&text[s..e]), "column {character} past line {line}: {d:#}");
            }
        }
        let k = key(&d["range"], &d["code"], &d["message"], &d["relatedInformation"]);
        if !(stale_audit_allowed && k.contains("\"dotc::replay-")) {
            out.push(k);
        }
    }
    out.sort();
    out
}

/// Drive one document through `edits` random changes; returns how many changes were sent.
async fn run(path: &Path, original: &str, style: Style, seed: u64, edits: usize) -> usize {
    let mut rng = Rng(seed);
    let mut text = with_line_ends(original, style, &mut rng);
    let uri_string = format!("file://{}", path.display());
    let uri: Uri = uri_string.parse().expect("a file URI");
    let mut session = Session::start().await;
    let item = json!({ "uri": uri_string, "languageId": "dotc", "version": 1, "text": text });
    session.notify("textDocument/didOpen", json!({ "textDocument": item })).await;
    let first = session.take_published(&uri_string).await.expect("diagnostics on open");
    let (want, stale) = expected(path, &text);
    assert_eq!(published_keys(&first, &text, stale), want, "{style:?} on open");
    let mut version = 1;
    let mut sent = 0;
    for step in 0..edits {
        if rng.percent(3) {
            // A stale version changes nothing and publishes nothing.
            let change = random_change(&text, &mut rng);
            let document = json!({ "uri": uri_string, "version": version - rng.below(2) as i32 });
            let params = json!({ "textDocument": document, "contentChanges": [change_json(&change)] });
            session.notify("textDocument/didChange", params).await;
            assert_eq!(
                session.text(&uri).as_deref(),
                Some(text.as_str()),
                "a stale version changed the text"
            );
            assert!(session.take_published(&uri_string).await.is_none(), "a stale version published");
            continue;
        }
        let count = if rng.percent(15) { 2 + rng.below(2) } else { 1 };
        let before = text.clone();
        let mut changes = Vec::new();
        for _ in 0..count {
            let change = random_change(&text, &mut rng);
            apply(&mut text, &change);
            changes.push(change_json(&change));
        }
        version += 1;
        sent += count;
        let document = json!({ "uri": uri_string, "version": version });
        session
            .notify("textDocument/didChange", json!({ "textDocument": document, "contentChanges": changes }))
            .await;
        let server_text = session.text(&uri).expect("the document is open");
        assert!(
            server_text == text,
            "{style:?} seed {seed} step {step}: the server's text is not the reference\n\
             before: {before:?}\nchanges: {changes:#?}\nserver: {server_text:?}\nreference: {text:?}"
        );
        let Some(published) = session.take_published(&uri_string).await else {
            // Nothing changed (an empty edit) and nothing was published: the last still holds.
            assert_eq!(before, text, "{style:?} seed {seed} step {step}: a change published nothing");
            continue;
        };
        assert_eq!(published["version"], json!(version));
        let (want, stale) = expected(path, &text);
        let got = published_keys(&published, &text, stale);
        assert!(
            got == want,
            "{style:?} seed {seed} step {step}: the published diagnostics are not a fresh analysis's\n\
             changes: {changes:#?}\ntext: {text:?}\npublished: {got:#?}\nfresh: {want:#?}"
        );
    }
    sent
}

#[tokio::test]
async fn random_edits_with_every_line_break_match_a_fresh_analysis() {
    let documents = [
        fixture("tests/fixtures/base-scenario.dotc", "edited-scenario.dotc"),
        fixture("tests/fixtures/examples/e1-buck-and-ball.dotc", "edited-e1-game.dotc"),
    ];
    let started = Instant::now();
    let mut total = 0;
    for (d, (path, text)) in documents.iter().enumerate() {
        for (s, style) in [Style::Lf, Style::Crlf, Style::Cr, Style::Mixed].into_iter().enumerate() {
            let seed = 0x5EED_0000 + (d * 16 + s) as u64;
            total += run(path, text, style, seed, EDITS).await;
        }
    }
    eprintln!("{total} changes in {:.1?}", started.elapsed());
    assert!(total >= 3000, "only {total} changes were sent");
}

/// The tester's case: thirty lines ended by a lone `\r`, an error on the thirtieth is at line 29
/// (not line 0, column 1930), and an edit on line 29 lands there.
#[tokio::test]
async fn an_error_after_lone_cr_lines_is_on_its_line() {
    let (path, text) = fixture("tests/fixtures/base-scenario.dotc", "lone-cr.dotc");
    let text = text.replace("\r\n", "\n").replace('\n', "\r");
    let lines = lines(&text);
    let (line, _) = lines
        .iter()
        .enumerate()
        .find(|(_, (s, e))| text[*s..*e].contains("rifled_musket line at (19.5, 13)"))
        .map(|(i, r)| (i, *r))
        .expect("the 19th Maine's line");
    let uri_string = format!("file://{}", path.display());
    let mut session = Session::start().await;
    let item = json!({ "uri": uri_string, "languageId": "dotc", "version": 1, "text": text });
    session.notify("textDocument/didOpen", json!({ "textDocument": item })).await;
    assert_eq!(session.take_published(&uri_string).await.expect("published")["diagnostics"], json!([]));
    // Misspell the weapon: `rifled_musket` -> `rifled_muskett`, typed at its end.
    let (s, e) = lines[line];
    let column =
        utf16_len(&text[s..s + text[s..e].find("rifled_musket").unwrap_or(0) + "rifled_musket".len()]);
    let at = json!({ "line": line, "character": column });
    let change = json!({ "range": { "start": at, "end": at }, "text": "t" });
    let document = json!({ "uri": uri_string, "version": 2 });
    session
        .notify("textDocument/didChange", json!({ "textDocument": document, "contentChanges": [change] }))
        .await;
    let published = session.take_published(&uri_string).await.expect("published");
    let diagnostics = published["diagnostics"].as_array().cloned().unwrap_or_default();
    assert_eq!(diagnostics.len(), 1, "{published:#}");
    let range = &diagnostics[0]["range"];
    assert_eq!(range["start"], json!({ "line": line, "character": column - 13 }), "{published:#}");
    assert_eq!(range["end"], json!({ "line": line, "character": column + 1 }), "{published:#}");
    let edited = text.replacen("rifled_musket line at (19.5, 13)", "rifled_muskett line at (19.5, 13)", 1);
    let uri: Uri = uri_string.parse().expect("uri");
    assert_eq!(session.text(&uri), Some(edited));
}

/// Apply protocol text edits to a text, through the reference lines (later edits first: the
/// ranges are all in the text before any of them).
fn apply_edits(text: &str, edits: &Value) -> String {
    let lines = lines(text);
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap_or(0) as usize;
        let character = p["character"].as_u64().unwrap_or(0) as usize;
        ref_offset(text, &lines, line, character)
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, &new);
    }
    out
}

/// Hover, rename and formatting answer with ranges in the document's own line breaks: applied
/// to the text, their edits give exactly the renamed or formatted text.
#[tokio::test]
async fn hover_rename_and_formatting_ranges_hold_with_every_line_break() {
    let (path, original) = fixture("tests/fixtures/base-scenario.dotc", "requests.dotc");
    for (s, style) in [Style::Lf, Style::Crlf, Style::Cr, Style::Mixed].into_iter().enumerate() {
        let text = with_line_ends(&original, style, &mut Rng(s as u64));
        let lines = lines(&text);
        let uri = format!("file://{}", path.display());
        let mut session = Session::start().await;
        let item = json!({ "uri": uri, "languageId": "dotc", "version": 1, "text": text });
        session.notify("textDocument/didOpen", json!({ "textDocument": item })).await;
        let at = |needle: &str, shift: usize| {
            let offset = text.find(needle).expect("needle") + shift;
            position_json(ref_position(&text, &lines, offset))
        };
        let request = |id: i64, method: &'static str, params: Value| {
            Request::build(method).params(params).id(id).finish()
        };

        // Hover on a weapon late in the file: the range is that word.
        let position = at("rifled_musket line at (30, 14)", 3);
        let hover = session
            .send(request(
                2,
                "textDocument/hover",
                json!({ "textDocument": { "uri": uri }, "position": position }),
            ))
            .await
            .expect("an answer");
        let range = &hover["range"];
        let (a, b) = (
            ref_offset(
                &text,
                &lines,
                range["start"]["line"].as_u64().unwrap_or(0) as usize,
                range["start"]["character"].as_u64().unwrap_or(0) as usize,
            ),
            ref_offset(
                &text,
                &lines,
                range["end"]["line"].as_u64().unwrap_or(0) as usize,
                range["end"]["character"].as_u64().unwrap_or(0) as usize,
            ),
        );
        assert_eq!(text.get(a..b), Some("rifled_musket"), "{style:?}: {hover:#}");

        // Rename a leader: the edits give the text with the new name and nothing else changed.
        let position = at("Col. Asa Hollister", 2);
        let params = json!({ "textDocument": { "uri": uri }, "position": position, "newName": "Col. Asa “Old” Hollister" });
        let edit = session.send(request(3, "textDocument/rename", params)).await.expect("an answer");
        let renamed = apply_edits(&text, &edit["changes"][uri.as_str()]);
        assert_eq!(
            renamed,
            text.replace("Col. Asa Hollister", "Col. Asa “Old” Hollister"),
            "{style:?}: {edit:#}"
        );

        // Formatting: the edits give the formatter's output.
        let params =
            json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } });
        let edits = session.send(request(4, "textDocument/formatting", params)).await.expect("an answer");
        let formatted = dotc_lang::format::format(&text).expect("the fixture formats");
        assert_eq!(apply_edits(&text, &edits), formatted, "{style:?}: {edits:#}");
    }
}
