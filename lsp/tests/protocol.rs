//! The server driven in process through its JSON-RPC interface, on the tutorial scenario and its
//! logged game; every answer is an insta snapshot (file URIs redacted to `file:///REPO`).

use std::collections::HashMap;
use std::path::PathBuf;

use dotc_lsp::Backend;
use dotc_lsp::line_index::LineIndex;
use futures::StreamExt;
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use tower::{Service, ServiceExt};
use tower_lsp_server::LspService;
use tower_lsp_server::jsonrpc::Request;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn repo_uri() -> String {
    let root = std::fs::canonicalize(repo()).unwrap_or_else(|_| repo());
    format!("file://{}", root.display())
}

fn tutorial(file: &str) -> (String, String) {
    let path = std::fs::canonicalize(repo().join("scenarios/tutorial").join(file)).expect("tutorial file");
    let text = std::fs::read_to_string(&path).expect("readable");
    (format!("file://{}", path.display()), text)
}

/// The scenario and the game log of the tutorial.
fn fence_line() -> ((String, String), (String, String)) {
    (tutorial("fence-line.dotc"), tutorial("fence-line-game.dotc"))
}

/// The protocol position of the `nth` occurrence of `needle`, `shift` characters into it.
fn at(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let offset = text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("needle in text");
    let offset = offset + needle.char_indices().nth(shift).map_or(needle.len(), |(i, _)| i);
    let position = LineIndex::new(text).position(text, offset);
    json!({ "line": position.line, "character": position.character })
}

/// A server in process, with the client's side of the conversation collected.
struct Client {
    service: LspService<Backend>,
    inbox: UnboundedReceiver<Request>,
    published: HashMap<String, Value>,
    next_id: i64,
}

impl Client {
    async fn start() -> Client {
        let (service, mut socket) = LspService::new(Backend::new);
        let (tx, inbox) = unbounded_channel();
        tokio::spawn(async move {
            while let Some(message) = socket.next().await {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Client { service, inbox, published: HashMap::new(), next_id: 1 };
        let init = client.request("initialize", json!({ "capabilities": {} })).await;
        assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap_or(false));
        client.notify("initialized", json!({})).await;
        client
    }

    async fn send(&mut self, request: Request) -> Option<Value> {
        let service = self.service.ready().await.expect("service ready");
        let response = service.call(request).await.expect("no transport error")?;
        let (_, body) = response.into_parts();
        Some(body.unwrap_or_else(|e| json!({ "error": e.message })))
    }

    async fn request(&mut self, method: &'static str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let request = Request::build(method).params(params).id(id).finish();
        self.send(request).await.expect("a response")
    }

    async fn notify(&mut self, method: &'static str, params: Value) {
        let request = Request::build(method).params(params).finish();
        assert!(self.send(request).await.is_none());
    }

    async fn open(&mut self, uri: &str, text: &str) {
        let item = json!({ "uri": uri, "languageId": "dotc", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": item })).await;
    }

    /// The latest diagnostics published for a document since the last call for it.
    async fn diagnostics(&mut self, uri: &str) -> Option<Value> {
        // Let the task that drains the client socket run.
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

    async fn at(&mut self, method: &'static str, uri: &str, position: Value) -> Value {
        self.request(method, json!({ "textDocument": { "uri": uri }, "position": position })).await
    }
}

/// UTF-16 units back to a string.
trait PipeUtf16 {
    fn pipe_utf16(self) -> String;
}

impl PipeUtf16 for Vec<u16> {
    fn pipe_utf16(self) -> String {
        String::from_utf16_lossy(&self)
    }
}

/// An answer with the machine's paths taken out.
fn redact(value: &Value) -> Value {
    let text = serde_json::to_string(value).expect("json").replace(&repo_uri(), "file:///REPO");
    serde_json::from_str(&text).expect("json")
}

fn sorted_changes(edit: &Value) -> Value {
    let mut files: Vec<(String, Value)> = edit["changes"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Value::Array(files.into_iter().map(|(uri, edits)| json!({ "uri": uri, "edits": edits })).collect())
}

#[tokio::test]
async fn shipped_files_have_no_diagnostics() {
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let published = client.diagnostics(&scenario_uri).await.expect("scenario diagnostics published");
    assert_eq!(published["diagnostics"], json!([]), "{published:#}");
    let published = client.diagnostics(&game_uri).await.expect("game diagnostics published");
    insta::assert_yaml_snapshot!("game_diagnostics", redact(&published));
}

#[tokio::test]
async fn a_typo_is_reported_with_its_code_and_fixed_by_a_quick_fix() {
    let ((uri, scenario), _) = fence_line();
    let broken = scenario.replacen(
        "veteran rifled_musket line at (19.5, 13)",
        "veteran rifled_muskett line at (19.5, 13)",
        1,
    );
    let mut client = Client::start().await;
    client.open(&uri, &broken).await;
    let published = client.diagnostics(&uri).await.expect("diagnostics");
    insta::assert_yaml_snapshot!("typo_diagnostics", redact(&published));
    let position = at(&broken, "rifled_muskett", 0, 3);
    let range = json!({ "start": position, "end": position });
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri }, "range": range, "context": { "diagnostics": [] } }),
        )
        .await;
    insta::assert_yaml_snapshot!("typo_code_action", redact(&actions));
}

#[tokio::test]
async fn edits_apply_in_order_and_stale_versions_are_ignored() {
    let ((uri, scenario), _) = fence_line();
    let mut client = Client::start().await;
    client.open(&uri, &scenario).await;
    client.diagnostics(&uri).await;
    // Version 2 misspells a trait in the line with the curly apostrophes and the accents, by
    // an incremental edit in UTF-16 columns.
    let start = at(&scenario, "rebel_yell, iron_discipline", 0, 0);
    let end = at(&scenario, "rebel_yell, iron_discipline", 0, 10);
    let change = json!({ "range": { "start": start, "end": end }, "text": "rebel_yel" });
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [change] }),
        )
        .await;
    let published = client.diagnostics(&uri).await.expect("diagnostics after the edit");
    assert_eq!(published["version"], 2);
    let codes: Vec<&Value> = published["diagnostics"]
        .as_array()
        .map(|d| d.iter().map(|d| &d["code"]).collect())
        .unwrap_or_default();
    assert_eq!(codes, [&json!("dotc::unknown-trait")], "{published:#}");
    assert_eq!(published["diagnostics"][0]["range"]["start"], start);
    // A stale version 2 (a repeat) changes nothing and publishes nothing.
    let undo = json!({ "text": scenario });
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [undo.clone()] }),
        )
        .await;
    assert!(client.diagnostics(&uri).await.is_none());
    let text = client.service.inner().document_text(&uri.parse().expect("uri")).unwrap_or_default();
    assert!(text.contains("rebel_yel, iron_discipline"));
    // Version 3 applies two edits in order: the second range is read after the first edit.
    let changes = json!([undo, { "range": { "start": start, "end": start }, "text": "x" }]);
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 3 }, "contentChanges": changes }),
        )
        .await;
    let text = client.service.inner().document_text(&uri.parse().expect("uri")).unwrap_or_default();
    assert!(text.contains("traits xrebel_yell, iron_discipline"));
}

#[tokio::test]
async fn completion_in_context() {
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let labels = |answer: &Value| -> Vec<String> {
        answer
            .as_array()
            .map(|items| items.iter().filter_map(|i| i["label"].as_str().map(String::from)).collect())
            .unwrap_or_default()
    };
    // The start of a line in a fire phase: the verbs of the fire phase.
    let verbs = client
        .at("textDocument/completion", &game_uri, at(&game, "        fire \"6th Louisiana\"", 0, 8))
        .await;
    insta::assert_yaml_snapshot!("completion_fire_phase_verbs", labels(&verbs));
    // Inside a quote in a log: the scenario's names.
    let names =
        client.at("textDocument/completion", &game_uri, at(&game, "\"6th Louisiana\" at", 0, 1)).await;
    insta::assert_yaml_snapshot!("completion_names_in_log", redact(&names[0]));
    assert!(labels(&names).contains(&"Brig. Gen. Émile Laforêt".to_string()));
    // After `traits` in a unit body: the traits.
    let traits =
        client.at("textDocument/completion", &scenario_uri, at(&scenario, "traits steady", 0, 7)).await;
    insta::assert_yaml_snapshot!("completion_traits", labels(&traits));
    // A half-typed line at the end of a turn still completes: the verb, then a name.
    let half = game.replacen(
        "        fire \"51st Georgia\"",
        "        formation \"9th Louisiana\" li\n        fire \"51st Georgia\"",
        1,
    );
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": game_uri, "version": 2 }, "contentChanges": [{ "text": half }] }),
        )
        .await;
    let formations =
        client.at("textDocument/completion", &game_uri, at(&half, "\"9th Louisiana\" li", 0, 18)).await;
    assert!(labels(&formations).contains(&"line".to_string()), "{formations:#}");
    insta::assert_yaml_snapshot!("completion_half_typed_formation", labels(&formations));
}

#[tokio::test]
async fn hover_on_units_weapons_and_verbs() {
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let unit_in_log =
        client.at("textDocument/hover", &game_uri, at(&game, "at \"12th New Jersey\"", 1, 6)).await;
    insta::assert_yaml_snapshot!("hover_unit_in_log", unit_in_log);
    let weapon = client
        .at("textDocument/hover", &scenario_uri, at(&scenario, "rifled_musket line at (19.5, 13)", 0, 2))
        .await;
    insta::assert_yaml_snapshot!("hover_weapon", weapon);
    let verb = client.at("textDocument/hover", &game_uri, at(&game, "fire \"6th Louisiana\"", 0, 1)).await;
    insta::assert_yaml_snapshot!("hover_verb", verb);
    let leader = client
        .at("textDocument/hover", &scenario_uri, at(&scenario, "Émile Laforêt\" aggressive", 0, 3))
        .await;
    insta::assert_yaml_snapshot!("hover_leader", leader);
}

#[tokio::test]
async fn definition_references_and_rename() {
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let unit = at(&game, "fire \"6th Louisiana\"", 0, 8);
    let definition = client.at("textDocument/definition", &game_uri, unit.clone()).await;
    insta::assert_yaml_snapshot!("definition_unit", redact(&definition));
    let weapon = at(&scenario, "rifled_musket line at (19.5, 13)", 0, 2);
    let definition = client.at("textDocument/definition", &scenario_uri, weapon).await;
    insta::assert_yaml_snapshot!("definition_stdlib_weapon", redact(&definition));
    let references = client
        .request(
            "textDocument/references",
            json!({ "textDocument": { "uri": game_uri }, "position": unit, "context": { "includeDeclaration": true } }),
        )
        .await;
    insta::assert_yaml_snapshot!("references_unit", redact(&references));
    let leader = at(&game, "\"Col. Asa Hollister\"", 0, 3);
    let prepared = client.at("textDocument/prepareRename", &game_uri, leader.clone()).await;
    insta::assert_yaml_snapshot!("prepare_rename_leader", prepared);
    let edit = client
        .request(
            "textDocument/rename",
            json!({ "textDocument": { "uri": game_uri }, "position": leader, "newName": "Col. Asa “Old Ironsides” Hollister" }),
        )
        .await;
    insta::assert_yaml_snapshot!("rename_leader", redact(&sorted_changes(&edit)));
}

#[tokio::test]
async fn symbols_folding_formatting_tokens_and_hints() {
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let document = |uri: &str| json!({ "textDocument": { "uri": uri } });
    let symbols = client.request("textDocument/documentSymbol", document(&scenario_uri)).await;
    insta::assert_yaml_snapshot!("symbols_scenario", symbols);
    let symbols = client.request("textDocument/documentSymbol", document(&game_uri)).await;
    insta::assert_yaml_snapshot!("symbols_game", symbols);
    let folding = client.request("textDocument/foldingRange", document(&game_uri)).await;
    insta::assert_yaml_snapshot!("folding_game", folding);
    let formatting =
        json!({ "textDocument": { "uri": scenario_uri }, "options": { "tabSize": 4, "insertSpaces": true } });
    assert_eq!(
        client.request("textDocument/formatting", formatting).await,
        Value::Null,
        "the tutorial is formatted"
    );
    let tokens = client.request("textDocument/semanticTokens/full", document(&game_uri)).await;
    let data: Vec<u64> =
        tokens["data"].as_array().map(|d| d.iter().filter_map(Value::as_u64).collect()).unwrap_or_default();
    assert_eq!(data.len() % 5, 0);
    // Decoded to absolute positions, with the text and type, for the first turn's command phase.
    let names =
        ["keyword", "string", "number", "comment", "function", "enumMember", "variable", "operator", "macro"];
    let lines: Vec<&str> = game.lines().collect();
    let (mut line, mut start) = (0u64, 0u64);
    let mut rows = Vec::new();
    for chunk in data.chunks(5) {
        line += chunk[0];
        start = if chunk[0] == 0 { start + chunk[1] } else { chunk[1] };
        if (27..=36).contains(&line) {
            let text: String = lines[line as usize]
                .encode_utf16()
                .skip(start as usize)
                .take(chunk[2] as usize)
                .collect::<Vec<u16>>()
                .pipe_utf16();
            rows.push(format!("{}:{} {} {}", line, start, names[chunk[3] as usize], text));
        }
    }
    insta::assert_yaml_snapshot!("semantic_tokens_turn_one_command", rows);
    let whole = json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 200, "character": 0 } });
    let hints = client
        .request("textDocument/inlayHint", json!({ "textDocument": { "uri": game_uri }, "range": whole }))
        .await;
    insta::assert_yaml_snapshot!("inlay_hints_game", hints);
}

#[tokio::test]
async fn formatting_rewrites_an_untidy_file() {
    let mut client = Client::start().await;
    let uri = format!("{}/scenarios/tutorial/untidy-game.dotc", repo_uri());
    let text = "game   \"Untidy\" {\n  scenario \"fence-line.dotc\"\n        seed 7\n}\n";
    client.open(&uri, text).await;
    let formatting =
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } });
    let edits = client.request("textDocument/formatting", formatting).await;
    insta::assert_yaml_snapshot!("formatting_untidy", edits);
}

#[tokio::test]
async fn requests_never_fail_on_odd_input() {
    let mut client = Client::start().await;
    let uri = format!("{}/scenarios/tutorial/odd.dotc", repo_uri());
    // Not open: no answer, no error.
    let far = json!({ "line": 9999, "character": 9999 });
    assert_eq!(client.at("textDocument/hover", &uri, far.clone()).await, Value::Null);
    for text in [
        "",
        "scenario \"X\" {{{{",
        "\u{feff}turn 1 x { fire { fire \"",
        "game \"é’\" { scenario \"nowhere.dotc\" }\nturn 1 union { fire { fire \"A\" at \"B\" } }",
    ] {
        client.open(&uri, text).await;
        assert!(client.diagnostics(&uri).await.is_some());
        for method in ["textDocument/hover", "textDocument/completion", "textDocument/definition"] {
            let answer = client.at(method, &uri, far.clone()).await;
            assert!(answer.get("error").is_none(), "{method} on {text:?}: {answer}");
            let end = LineIndex::new(text).position(text, text.len());
            let answer =
                client.at(method, &uri, json!({ "line": end.line, "character": end.character })).await;
            assert!(answer.get("error").is_none(), "{method} on {text:?}: {answer}");
        }
        let document = json!({ "textDocument": { "uri": uri } });
        for method in
            ["textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/semanticTokens/full"]
        {
            let answer = client.request(method, document.clone()).await;
            assert!(answer.get("error").is_none(), "{method} on {text:?}: {answer}");
        }
        client.notify("textDocument/didClose", document).await;
    }
}
