//! The lsp class of the hostile corpus (see main.rs); its inputs are in `tests/hostile/lsp/`.
//!
//! Each test writes a whole conversation to a real `dotc lsp` process's standard input, closes
//! it, and reads back every frame the server wrote. Malformed messages must be answered per
//! JSON-RPC (`-32700` for bytes that are not a JSON message, `-32600` for JSON that is not a
//! request) with the server still serving afterwards; the exit code must be 0 after
//! `shutdown` + `exit` and 1 after `exit` alone. When the input simply ends, the server ends
//! as if told `exit`: 1 without a `shutdown` before, 0 with one (the protocol only says what
//! `exit` does; a closed pipe is the client gone, which is the same question).

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Run, corpus, dotc_with};

fn framed(message: &Value) -> Vec<u8> {
    raw(message.to_string().as_bytes())
}

fn raw(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn request(id: i64, method: &str, params: Value) -> Vec<u8> {
    framed(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
}

fn notification(method: &str, params: Value) -> Vec<u8> {
    framed(&json!({ "jsonrpc": "2.0", "method": method, "params": params }))
}

fn initialize() -> Vec<u8> {
    let mut out = request(1, "initialize", json!({ "capabilities": {} }));
    out.extend(notification("initialized", json!({})));
    out
}

fn exit() -> Vec<u8> {
    framed(&json!({ "jsonrpc": "2.0", "method": "exit" }))
}

/// Run `dotc lsp` on a conversation; the frames it wrote, parsed.
fn lsp(input: &[u8]) -> (Run, Vec<Value>) {
    let run = dotc_with(&["lsp"], &corpus(), input, Duration::from_secs(60));
    assert!(!run.timed_out, "the server did not end: {run:?}");
    assert!(run.peak_mb() < 500, "peak RSS {} MB", run.peak_mb());
    let mut messages = Vec::new();
    let mut rest = run.stdout.as_str();
    while !rest.is_empty() {
        let header_end = rest.find("\r\n\r\n").unwrap_or_else(|| panic!("a header in {rest:?}"));
        let length: usize = rest[..header_end]
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a Content-Length in {rest:?}"));
        let body = &rest[header_end + 4..header_end + 4 + length];
        messages.push(serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}")));
        rest = &rest[header_end + 4 + length..];
    }
    (run, messages)
}

fn response(messages: &[Value], id: i64) -> &Value {
    messages
        .iter()
        .find(|m| m["id"] == json!(id))
        .unwrap_or_else(|| panic!("no answer to {id}: {messages:#?}"))
}

fn errors(messages: &[Value], code: i64) -> Vec<&Value> {
    messages.iter().filter(|m| m["error"]["code"] == json!(code)).collect()
}

#[test]
fn malformed_messages_are_answered_and_the_server_goes_on_serving() {
    let uri = "file:///nowhere/hostile.dotc";
    let text = "scenario \"S\" {\n}\n";
    let mut input = initialize();
    input.extend(notification(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dotc", "version": 1, "text": text } }),
    ));
    // Each malformed piece is followed by a valid request (ids from 100), which must be answered
    // as if nothing had happened: a run of bad bytes ends at the next `Content-Length` header.
    let bad_frames: [&[u8]; 5] = [
        // Not JSON.
        &raw(br#"{"jsonrpc": "2.0", "id": 2, "method": "#),
        // A Content-Length that is not a number (the body after it is skipped).
        b"Content-Length: twelve\r\n\r\n{\"jsonrpc\":\"2.0\"}",
        // Garbage bytes, with a blank line in them.
        b"\x00\xff\xfe\x07 GARBAGE\r\n\r\n\x1b[31m ",
        // No Content-Length at all.
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
        // An empty body: not JSON.
        b"Content-Length: 0\r\n\r\n",
    ];
    // JSON that is not a JSON-RPC request: an object without `jsonrpc`, a batch, a number as
    // the method, an id without a method, `params` that is a number.
    let not_requests = [
        json!({ "hello": "world" }),
        json!([{ "jsonrpc": "2.0", "id": 3, "method": "shutdown" }]),
        json!({ "jsonrpc": "2.0", "id": 4, "method": 42 }),
        json!({ "jsonrpc": "2.0", "id": 5, "params": {} }),
        json!({ "jsonrpc": "2.0", "id": "six", "method": "textDocument/hover", "params": 6 }),
    ];
    let probe =
        |id: i64| request(id, "textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    let mut next_id = 100;
    for bad in bad_frames {
        input.extend(bad);
        input.extend(probe(next_id));
        next_id += 1;
    }
    for bad in &not_requests {
        input.extend(framed(bad));
        input.extend(probe(next_id));
        next_id += 1;
    }
    input.extend(request(11, "dotc/noSuchMethod", json!({})));
    input.extend(request(12, "shutdown", Value::Null));
    input.extend(exit());
    let (run, messages) = lsp(&input);

    let parse_errors = errors(&messages, -32700);
    assert_eq!(parse_errors.len(), bad_frames.len(), "{messages:#?}");
    assert!(parse_errors.iter().all(|e| e["id"].is_null()), "{parse_errors:#?}");
    let invalid = errors(&messages, -32600);
    let ids: Vec<&Value> = invalid.iter().map(|e| &e["id"]).collect();
    assert_eq!(ids, [&Value::Null, &Value::Null, &json!(4), &json!(5), &json!("six")], "{messages:#?}");
    assert!(response(&messages, 1)["result"]["capabilities"].is_object());
    for id in 100..next_id {
        // The outline of the open document: its scenario.
        let answer = response(&messages, id);
        assert_eq!(answer["result"][0]["name"], json!("S"), "{answer:#}");
    }
    assert_eq!(response(&messages, 11)["error"]["code"], json!(-32601));
    assert_eq!(response(&messages, 12)["result"], Value::Null);
    assert!(messages.iter().any(|m| m["method"] == "textDocument/publishDiagnostics"));
    assert_eq!(run.code, Some(0), "shutdown then exit: {run:?}");
}

#[test]
fn exit_without_shutdown_is_status_1_and_with_it_0() {
    let mut input = initialize();
    input.extend(exit());
    let (run, messages) = lsp(&input);
    assert!(response(&messages, 1)["result"]["capabilities"].is_object());
    assert_eq!(run.code, Some(1), "exit without shutdown: {run:?}");

    let mut input = initialize();
    input.extend(request(2, "shutdown", Value::Null));
    input.extend(exit());
    let (run, messages) = lsp(&input);
    assert_eq!(response(&messages, 2)["result"], Value::Null);
    assert_eq!(run.code, Some(0), "shutdown then exit: {run:?}");

    // Messages after `exit` are not read.
    let mut input = initialize();
    input.extend(exit());
    input.extend(request(2, "shutdown", Value::Null));
    let (run, messages) = lsp(&input);
    assert!(messages.iter().all(|m| m["id"] != json!(2)), "{messages:#?}");
    assert_eq!(run.code, Some(1), "{run:?}");
}

#[test]
fn closed_input_ends_the_server_as_exit_would() {
    let (run, messages) = lsp(&initialize());
    assert!(response(&messages, 1)["result"]["capabilities"].is_object());
    assert_eq!(run.code, Some(1), "input closed without shutdown: {run:?}");

    let mut input = initialize();
    input.extend(request(2, "shutdown", Value::Null));
    let (run, messages) = lsp(&input);
    assert_eq!(response(&messages, 2)["result"], Value::Null);
    assert_eq!(run.code, Some(0), "input closed after shutdown: {run:?}");

    // Garbage and then nothing: one parse error, and the end.
    let (run, messages) = lsp(b"\xff\xfe not a header at all");
    assert_eq!(errors(&messages, -32700).len(), 1, "{messages:#?}");
    assert_eq!(run.code, Some(1), "{run:?}");
}

/// The tester's case: a file whose lines end in a lone CR. An edit on a late line lands there,
/// and the error it makes is published on that line (not on line 0 at a huge column).
#[test]
fn a_lone_cr_document_is_edited_and_diagnosed_on_the_right_line() {
    let text = std::fs::read_to_string(corpus().join("lsp/lone-cr.dotc")).expect("the corpus file");
    assert!(!text.contains('\n') && text.matches('\r').count() > 30, "the corpus file has lone-CR line ends");
    let lines: Vec<&str> = text.split('\r').collect();
    let line =
        lines.iter().position(|l| l.contains("rifled_musket line at (19.5, 13)")).expect("the 19th Maine");
    let column = lines[line].find("rifled_musket").expect("the weapon") + "rifled_musket".len();
    let uri = "file:///nowhere/lone-cr.dotc";
    let mut input = initialize();
    input.extend(notification(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "dotc", "version": 1, "text": text } }),
    ));
    let at = json!({ "line": line, "character": column });
    input.extend(notification(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 },
                "contentChanges": [{ "range": { "start": at, "end": at }, "text": "t" }] }),
    ));
    // Formatting after the edit: the misspelling is not a syntax error, so the server answers.
    input.extend(request(
        2,
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } }),
    ));
    input.extend(request(3, "shutdown", Value::Null));
    input.extend(exit());
    let (run, messages) = lsp(&input);
    assert_eq!(run.code, Some(0), "{run:?}");
    let published: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .map(|m| &m["params"])
        .collect();
    let first = published.iter().find(|p| p["version"] == json!(1)).expect("diagnostics of version 1");
    assert_eq!(first["diagnostics"], json!([]), "the corpus file checks clean: {first:#}");
    let second = published.iter().find(|p| p["version"] == json!(2)).expect("diagnostics of version 2");
    let diagnostics = second["diagnostics"].as_array().expect("a list");
    assert_eq!(diagnostics.len(), 1, "{second:#}");
    assert_eq!(
        diagnostics[0]["range"],
        json!({ "start": { "line": line, "character": column - 13 }, "end": { "line": line, "character": column + 1 } }),
        "{second:#}"
    );
    // The formatter's edits (if any) replace the whole text: the range ends at the last line.
    if let Some(edits) = response(&messages, 2)["result"].as_array() {
        let end = &edits[0]["range"]["end"];
        assert_eq!(end["line"], json!(lines.len() - 1), "{edits:#?}");
    }
}

/// Issue 15: the language server aborted as soon as a log whose scenario prints for ever was
/// opened. Its audit replays the hook in the server's own process: the hook must be stopped by
/// the sandbox's output limit, the finding published at the log's turn, and the server stay small
/// and go on answering.
#[test]
fn a_log_whose_hook_prints_for_ever_is_audited_in_the_editor_within_bounds() {
    for game in ["endless-print-game.dotc", "endless-award-game.dotc", "contains-loop-game.dotc"] {
        let path = corpus().join("scripts").join(game);
        let text = std::fs::read_to_string(&path).expect("the corpus file");
        let uri = format!("file://{}", path.display());
        let mut input = initialize();
        input.extend(notification(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "dotc", "version": 1, "text": text } }),
        ));
        input.extend(request(
            2,
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": { "line": 7, "character": 2 } }),
        ));
        input.extend(request(3, "shutdown", Value::Null));
        input.extend(exit());
        let (run, messages) = lsp(&input);
        assert_eq!(run.code, Some(0), "{game}: {run:?}");
        assert!(run.peak_mb() < 200, "{game}: peak RSS {} MB", run.peak_mb());
        // Still serving: the hover after the open is answered (with or without a result).
        assert!(response(&messages, 2).get("error").is_none(), "{game}: {messages:#?}");
        let findings: Vec<&Value> = messages
            .iter()
            .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == json!(uri))
            .flat_map(|m| m["params"]["diagnostics"].as_array().into_iter().flatten())
            .filter(|d| d["message"].as_str().is_some_and(|m| m.contains("hook on_turn_start")))
            .collect();
        let finding =
            findings.first().unwrap_or_else(|| panic!("{game}: no script finding in {messages:#?}"));
        // At the turn whose start ran the hook (line 8 of the log, 0-based 7).
        assert_eq!(finding["range"]["start"]["line"], json!(7), "{game}: {finding:#}");
    }
}
