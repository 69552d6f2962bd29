//! The server driven in process through its JSON-RPC interface, on the tutorial scenario and its
//! logged game; every answer is an insta snapshot (file URIs redacted to `file:///REPO`).

use std::collections::HashMap;
use std::path::PathBuf;

use dotc_lsp::Backend;
use dotc_lsp::line_index::LineIndex;
use dotc_lsp::workspace::{ResumeGate, Workspace};
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

/// The URI of a file of the repository.
fn ws_uri(relative: &str) -> tower_lsp_server::ls_types::Uri {
    let path = std::fs::canonicalize(repo().join(relative)).expect("a file of the repository");
    format!("file://{}", path.display()).parse().expect("a URI")
}

/// Open a file of the repository in a workspace directly (no server), at version 1.
fn open_in(ws: &mut Workspace, relative: &str) -> tower_lsp_server::ls_types::Uri {
    let uri = ws_uri(relative);
    let path = std::fs::canonicalize(repo().join(relative)).expect("a file of the repository");
    ws.open(uri.clone(), 1, std::fs::read_to_string(&path).expect("readable"));
    uri
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
        Client::start_with(Workspace::new()).await
    }

    /// A server on a workspace set up by the test.
    async fn start_with(workspace: Workspace) -> Client {
        let (service, mut socket) = LspService::new(move |client| Backend::with_workspace(client, workspace));
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

    /// Wait for the next diagnostics published for a document (the server's replay of a long
    /// log's audit runs after a pause). Gives up after a minute.
    async fn next_diagnostics(&mut self, uri: &str) -> Value {
        for _ in 0..600 {
            if let Some(published) = self.diagnostics(uri).await {
                return published;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("no diagnostics were published for {uri}");
    }

    async fn change(&mut self, uri: &str, version: i32, changes: Value) {
        let document = json!({ "uri": uri, "version": version });
        self.notify("textDocument/didChange", json!({ "textDocument": document, "contentChanges": changes }))
            .await;
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
    // After `module`: the modules of Ch13, each with its section, where it acts and how far the
    // replay plays it (the register `dotc_lang::rulings::Module`).
    let modules = client
        .at("textDocument/completion", &scenario_uri, at(&scenario, "module clean_barrels", 0, 7))
        .await;
    let detail = |name: &str| {
        let items = modules.as_array().cloned().unwrap_or_default();
        items.into_iter().find(|i| i["label"] == name).and_then(|i| i["detail"].as_str().map(String::from))
    };
    assert_eq!(
        detail("clean_barrels").as_deref(),
        Some("Ch13 2.0; acts in setup and the fire phase; played")
    );
    assert_eq!(
        detail("hidden_deployment").as_deref(),
        Some("Ch13 4.0; acts in setup and the maneuver, fire and assault phases; played"),
        "{modules:#}"
    );
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

/// After `=>` (and after a `,` inside the claim) completion offers the claim words of the line's
/// verb or step, each with its meaning and rule; after the first word of a phrase, the words that
/// finish it. Hover on a claim word explains it (`dotc_lang::claims`).
#[tokio::test]
async fn claim_words_complete_and_explain() {
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
    let detail = |answer: &Value, label: &str| -> String {
        let items = answer.as_array().cloned().unwrap_or_default();
        let item = items.into_iter().find(|i| i["label"] == label);
        item.and_then(|i| i["detail"].as_str().map(String::from)).unwrap_or_default()
    };
    // Right after `=>` on a `fire` line: the words of a volley's claim.
    let fire_line = "saves [5, 2, 3, 6] => hits 4, saved 2, lost 1";
    let after_arrow = client.at("textDocument/completion", &game_uri, at(&game, fire_line, 0, 22)).await;
    insta::assert_yaml_snapshot!("completion_claim_words_of_fire", labels(&after_arrow));
    assert!(detail(&after_arrow, "hits").starts_with("hits N: "), "{after_arrow:#}");
    assert!(detail(&after_arrow, "disordered").contains("RULE-05-4.2"), "{after_arrow:#}");
    // After a `,` inside the claim, and with a word half typed: the same words.
    let after_comma = client.at("textDocument/completion", &game_uri, at(&game, fire_line, 0, 38)).await;
    assert_eq!(labels(&after_comma), labels(&after_arrow), "{after_comma:#}");
    // At the end of a word being typed: the same words, each replacing it.
    let typed = client.at("textDocument/completion", &game_uri, at(&game, fire_line, 0, 26)).await;
    assert_eq!(labels(&typed), labels(&after_arrow));
    let edit = &typed[0]["textEdit"]["range"];
    let width =
        edit["end"]["character"].as_u64().zip(edit["start"]["character"].as_u64()).map(|(e, s)| e - s);
    assert_eq!(width, Some(4), "{typed:#}");
    // A melee step's claim: its outcomes, not a volley's counts.
    let melee_line = "melee roll [4] vs [3] => attacker wins";
    let melee = client.at("textDocument/completion", &game_uri, at(&game, melee_line, 0, 25)).await;
    let melee = labels(&melee);
    for word in ["attacker wins", "defender wins", "bloody draw", "leader killed", "fell_back"] {
        assert!(melee.contains(&word.to_string()), "{word} missing from {melee:?}");
    }
    assert!(!melee.contains(&"hits".to_string()), "{melee:?}");
    // After the first word of a phrase, the words that finish it.
    let rest = client.at("textDocument/completion", &game_uri, at(&game, melee_line, 0, 34)).await;
    assert_eq!(labels(&rest), vec!["wins".to_string()]);
    // Before `=>` the line completes as before: no claim word.
    let before = client.at("textDocument/completion", &game_uri, at(&game, fire_line, 0, 0)).await;
    assert!(!labels(&before).contains(&"hits".to_string()), "{before:#}");

    // Hover: the phrase's meaning, where it stands and the rule, over the whole phrase.
    let hover = client.at("textDocument/hover", &game_uri, at(&game, melee_line, 0, 36)).await;
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.starts_with("**attacker wins** (claim; on `melee`, `breakthrough`)"), "{hover:#}");
    assert!(text.contains("Ch16 7.3"), "{hover:#}");
    let range = &hover["range"];
    assert_eq!(
        range["end"]["character"].as_u64().zip(range["start"]["character"].as_u64()).map(|(e, s)| e - s),
        Some(13)
    );
    let disordered = "micro 1, disordered";
    let hover = client.at("textDocument/hover", &game_uri, at(&game, disordered, 0, 10)).await;
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.starts_with("**disordered** (claim;"), "{hover:#}");
    assert!(text.contains("Disorder marker") && text.contains("RULE-05-4.2"), "{hover:#}");
    // The verb `fire` before the claim is still a verb.
    let verb = client.at("textDocument/hover", &game_uri, at(&game, "fire \"6th Louisiana\"", 0, 1)).await;
    assert!(verb["contents"]["value"].as_str().unwrap_or_default().contains("log verb"), "{verb:#}");
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

/// Ch16 2.4, RULINGS C9: the colonel who replaces a fallen brigadier has a name a log can use
/// ("Col. replacing" and the brigadier's name when the scenario names no one): completion offers
/// it and hover says who he is (that a log naming him checks clean: `replay/situations.rs`).
#[tokio::test]
async fn ch16_2_4_completion_and_hover_know_the_replacement_colonel() {
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let colonel = "Col. replacing Brig. Gen. Émile Laforêt";
    let game = game.replacen("reserve \"Brig. Gen. Émile Laforêt\"", &format!("reserve \"{colonel}\""), 1);
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let names =
        client.at("textDocument/completion", &game_uri, at(&game, "\"6th Louisiana\" at", 0, 1)).await;
    let labels: Vec<&str> =
        names.as_array().into_iter().flatten().filter_map(|i| i["label"].as_str()).collect();
    assert!(labels.contains(&colonel), "{labels:?}");
    let hover = client.at("textDocument/hover", &game_uri, at(&game, colonel, 0, 3)).await;
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("replacement colonel of") && text.contains("Ch16 2.4"), "{hover:#}");
}

/// The hover on every fire and closing-volley line of the tutorial's log shows the numbers `dotc odds --at` prints
/// for that line (issue 13): the replay's plan of the volley and its exact odds, one wording.
#[tokio::test]
async fn hover_on_a_fire_line_shows_the_odds_of_odds_at() {
    use dotc_runtime::odds::explain::{outcome_line, volley_lines};
    use dotc_runtime::replay::{ReplayOptions, replay};
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let path = std::fs::canonicalize(repo().join("scenarios/tutorial/fence-line-game.dotc")).expect("log");
    let analysis = dotc_lang::analyze(&path, &game, &dotc_lang::FsLoader);
    let lines: Vec<usize> = game
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            l.trim_start().starts_with("fire \"") || l.trim_start().starts_with("closing_volley ")
        })
        .map(|(i, _)| i + 1)
        .collect();
    assert!(lines.len() >= 6, "fire lines and a closing volley: {lines:?}");
    let played =
        replay(&analysis, &ReplayOptions { source: Some(&game), probe: &lines, ..ReplayOptions::default() });
    for &line in &lines {
        let hover = client
            .at("textDocument/hover", &game_uri, json!({ "line": line - 1, "character": game.lines().nth(line - 1).unwrap().find(|c: char| !c.is_whitespace()).unwrap() + 1 }))
            .await;
        let text = hover["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("line {line}: {hover:#}"))
            .to_string();
        let probe = played.probes.iter().find(|p| p.line == line).expect("a probed volley");
        let mut expected: Vec<String> = volley_lines(&probe.plan, &probe.odds);
        expected.push(outcome_line(&probe.odds, probe.outcome.expect("resolved")));
        for l in &expected {
            assert!(text.contains(l.as_str()), "line {line}: the hover lacks `{l}`:\n{text}");
        }
    }
}

/// Issue 20, "odds where you stand", the editor test of its must-show list: a `fire` line typed
/// without dice gets, as an inlay hint at its end, the dice, the to-hit number and the save the
/// engine's plan gives that volley (`plan_volley`, as `dotc odds --at` prices it: RULE-05-2.1,
/// 2.2, 2.3, RULE-05-3.1, Ch16 5.2-5.6); once the dice are typed, the code action writes the
/// claim the rules give for them (RULE-05-2.2, 3.2, 3.3), and the log then audits clean. A wrong
/// claim gets the same rewrite as a quick fix of its diagnostics.
#[tokio::test]
async fn issue_20_a_diceless_fire_line_hints_its_roll_and_an_action_writes_the_claim() {
    use dotc_runtime::replay::{ReplayOptions, replay};
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let shot = "fire \"6th Louisiana\" at \"12th New Jersey\"";
    let dice = " roll [3, 5, 2, 6, 4] saves [5, 2, 3, 6]";
    let logged = format!("{shot}{dice} => hits 4, saved 2, lost 1");
    assert!(game.contains(&logged));
    let line = game.lines().position(|l| l.contains(&logged)).expect("the first volley");
    // The engine's plan of that volley, as `dotc odds --at fence-line-game.dotc:LINE` has it.
    let path = std::fs::canonicalize(repo().join("scenarios/tutorial/fence-line-game.dotc")).expect("log");
    let analysis = dotc_lang::analyze(&path, &game, &dotc_lang::FsLoader);
    let probe = [line + 1];
    let played =
        replay(&analysis, &ReplayOptions { source: Some(&game), probe: &probe, ..ReplayOptions::default() });
    let plan = &played.probes.iter().find(|p| p.line == line + 1).expect("the volley is planned").plan;
    // 5 stands; 4+ at 10.5" made 3+ by clean barrels; 5+ behind the rail fence (the log's comment).
    assert_eq!((plan.dice, plan.to_hit, plan.save.needed()), (5, 3, Some(5)));

    let bare = game.replacen(&logged, shot, 1);
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &bare).await;
    let published = client.diagnostics(&game_uri).await.expect("diagnostics");
    assert!(
        published["diagnostics"]
            .as_array()
            .is_some_and(|d| d.iter().any(|d| d["range"]["start"]["line"] == line)),
        "the line without dice is not applied: {published:#}"
    );
    let whole = json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 200, "character": 0 } });
    let hints = client
        .request("textDocument/inlayHint", json!({ "textDocument": { "uri": game_uri }, "range": whole }))
        .await;
    let on_line: Vec<&Value> =
        hints.as_array().expect("hints").iter().filter(|h| h["position"]["line"] == line).collect();
    let expected =
        format!("roll {}D6 · hit {}+ · save {}+", plan.dice, plan.to_hit, plan.save.needed().unwrap_or(0));
    assert_eq!(on_line.len(), 1, "{hints:#}");
    assert_eq!(on_line[0]["label"], json!(expected));
    assert_eq!(on_line[0]["position"], at(&bare, shot, 0, shot.chars().count()));

    // The player types the dice at the end of the line.
    let end = at(&bare, shot, 0, shot.chars().count());
    let typed = bare.replacen(shot, &format!("{shot}{dice}"), 1);
    client.change(&game_uri, 2, json!([{ "range": { "start": end, "end": end }, "text": dice }])).await;
    let _ = client.diagnostics(&game_uri).await;
    let hints = client
        .request("textDocument/inlayHint", json!({ "textDocument": { "uri": game_uri }, "range": whole }))
        .await;
    let labels: Vec<&Value> = hints
        .as_array()
        .expect("hints")
        .iter()
        .filter(|h| h["position"]["line"] == line)
        .map(|h| &h["label"])
        .collect();
    assert!(!labels.contains(&&json!(expected)), "the dice are typed: {labels:?}");
    let cursor = at(&typed, shot, 0, 2);
    let ask = || json!({ "textDocument": { "uri": game_uri }, "range": { "start": cursor, "end": cursor }, "context": { "diagnostics": [] } });
    let actions = client.request("textDocument/codeAction", ask()).await;
    let action = writes_claim(&actions).unwrap_or_else(|| panic!("no action writes the claim: {actions:#}"));
    assert_eq!(action["title"], json!("Write the result the rules give: `=> hits 4, saved 2, lost 1`"));
    assert_eq!(action["kind"], json!("refactor.rewrite"));
    let edits = action["edit"]["changes"][&game_uri].clone();
    let written = apply(&typed, &edits);
    assert_eq!(written, game, "the line is the logged one again");
    // The client applies the action's edit: a change of the document.
    let changes: Vec<Value> = edits
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| json!({ "range": e["range"], "text": e["newText"] }))
        .collect();
    client.change(&game_uri, 3, Value::Array(changes)).await;
    let text = client.service.inner().document_text(&game_uri.parse().expect("uri")).unwrap_or_default();
    assert_eq!(text, game);
    let published = client.diagnostics(&game_uri).await.expect("diagnostics");
    assert_eq!(published["diagnostics"], json!([]), "{published:#}");
    // With its claim written, the line offers nothing more.
    let actions = client.request("textDocument/codeAction", ask()).await;
    assert!(writes_claim(&actions).is_none(), "{actions:#}");

    // A wrong claim: the audit's finding, and a quick fix for it that writes the rules' claim.
    let wrong = game.replacen(&logged, &format!("{shot}{dice} => hits 3, saved 2"), 1);
    client.change(&game_uri, 4, json!([{ "text": wrong }])).await;
    let published = client.diagnostics(&game_uri).await.expect("diagnostics");
    assert!(published["diagnostics"].as_array().is_some_and(|d| !d.is_empty()), "{published:#}");
    let actions = client.request("textDocument/codeAction", ask()).await;
    let fix = writes_claim(&actions).unwrap_or_else(|| panic!("no quick fix writes the claim: {actions:#}"));
    assert_eq!(fix["kind"], json!("quickfix"));
    assert!(fix["diagnostics"].as_array().is_some_and(|d| !d.is_empty()), "{fix:#}");
    assert_eq!(apply(&wrong, &fix["edit"]["changes"][&game_uri]), game);

    // The hover on the line with its dice says where they fell: the mid-p percentile of each
    // count in the volley's exact distribution, as `dotc luck` judges a roll.
    client.change(&game_uri, 5, json!([{ "text": game }])).await;
    let hover = client.at("textDocument/hover", &game_uri, cursor).await;
    let text = hover["contents"]["value"].as_str().unwrap_or_else(|| panic!("{hover:#}"));
    let probe = played.probes.iter().find(|p| p.line == line + 1).expect("the volley is planned");
    let (hits, unsaved, lost) = probe.outcome.expect("resolved");
    let pct = |dist: &[f64], x: u32| (dotc_runtime::luck::stats(dist, x as usize).percentile * 100.0).round();
    let (h, u, l) =
        (pct(&probe.odds.hits, hits), pct(&probe.odds.unsaved, unsaved), pct(&probe.odds.stands_lost, lost));
    // 4 hits of 5 dice at 3+: P(<4) = 53.9%, P(4) = 32.9%, so the 70th percentile.
    assert_eq!(h, 70.0);
    let luck = format!("luck         hits at the {h}th percentile, unsaved {u}");
    assert!(text.contains(&luck), "the hover lacks `{luck}`:\n{text}");
    assert!(text.contains(&format!("stands lost {l}")), "{text}");
}

/// The code action among `actions` that writes a volley's claim (issue 20), if one is offered.
fn writes_claim(actions: &Value) -> Option<Value> {
    let found = actions
        .as_array()?
        .iter()
        .find(|a| a["title"].as_str().is_some_and(|t| t.starts_with("Write the result")));
    found.cloned()
}

/// A text with a list of protocol text edits applied (from the last, so earlier ranges hold).
fn apply(text: &str, edits: &Value) -> String {
    let index = LineIndex::new(text);
    let mut edits: Vec<(usize, usize, String)> = edits
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| {
            let range: tower_lsp_server::ls_types::Range =
                serde_json::from_value(e["range"].clone()).expect("a range");
            let span = index.span(text, range);
            (span.start, span.end, e["newText"].as_str().expect("new text").to_string())
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, new) in edits {
        out.replace_range(start..end, &new);
    }
    out
}

/// The hover on an `assault` line shows the whole assault's odds, as `dotc odds --at` prints them
/// (Ch16 7.1-7.4).
#[tokio::test]
async fn hover_on_an_assault_line_shows_the_odds_of_the_whole_assault() {
    use dotc_runtime::odds::explain::{assault_lines, assault_outcome_line};
    use dotc_runtime::replay::{ReplayOptions, replay};
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let path = std::fs::canonicalize(repo().join("scenarios/tutorial/fence-line-game.dotc")).expect("log");
    let analysis = dotc_lang::analyze(&path, &game, &dotc_lang::FsLoader);
    let line = game.lines().position(|l| l.trim_start().starts_with("assault \"")).expect("an assault") + 1;
    let played =
        replay(&analysis, &ReplayOptions { source: Some(&game), probe: &[line], ..ReplayOptions::default() });
    let probe = played.assault_probes.iter().find(|p| p.line == line).expect("a probed assault");
    let odds = probe.odds.as_ref().expect("priced");
    let column = game.lines().nth(line - 1).unwrap().find(|c: char| !c.is_whitespace()).unwrap() + 1;
    let hover =
        client.at("textDocument/hover", &game_uri, json!({ "line": line - 1, "character": column })).await;
    let text = hover["contents"]["value"].as_str().unwrap_or_else(|| panic!("{hover:#}")).to_string();
    assert!(text.contains("**odds of this assault**"), "{text}");
    let volley = probe.volley.as_ref().zip(odds.closing_volley.as_ref());
    let mut expected = assault_lines(&probe.charger, &probe.target, odds, volley);
    expected.push(assault_outcome_line(odds, probe.result.expect("resolved")));
    for l in &expected {
        assert!(text.contains(l.as_str()), "the hover lacks `{l}`:\n{text}");
    }
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
        let ranges = [
            json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 9999, "character": 9999 } }),
            json!({ "start": far, "end": far }),
            json!({ "start": { "line": 5, "character": 0 }, "end": { "line": 0, "character": 0 } }),
        ];
        for range in ranges {
            let params = json!({ "textDocument": { "uri": uri }, "range": range });
            let answer = client.request("textDocument/semanticTokens/range", params).await;
            assert!(answer.get("error").is_none(), "range {range} on {text:?}: {answer}");
        }
        for previous in ["", "no such answer", "1"] {
            let params = json!({ "textDocument": { "uri": uri }, "previousResultId": previous });
            let answer = client.request("textDocument/semanticTokens/full/delta", params).await;
            assert!(answer.get("error").is_none(), "delta from {previous:?} on {text:?}: {answer}");
        }
        client.notify("textDocument/didClose", document).await;
    }
}

/// The codes and start lines of published diagnostics.
fn codes_and_lines(published: &Value) -> Vec<(String, u64)> {
    published["diagnostics"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|d| {
                    let code = d["code"].as_str().unwrap_or("(none)").to_string();
                    (code, d["range"]["start"]["line"].as_u64().unwrap_or(u64::MAX))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A server on this workspace with an audit fixture open: the client, the log's URI and its text.
async fn open_audit_fixture(workspace: Workspace, name: &str) -> (Client, String, String) {
    let mut client = Client::start_with(workspace).await;
    let path = std::fs::canonicalize(repo().join("tests/fixtures/audit").join(name)).expect("fixture");
    let uri = format!("file://{}", path.display());
    let text = std::fs::read_to_string(&path).expect("readable");
    client.open(&uri, &text).await;
    (client, uri, text)
}

#[tokio::test]
async fn a_long_logs_audit_is_replayed_after_a_pause_and_the_latest_edit_wins() {
    // Every log counts as long here, and the editor gets at most 3 findings.
    let mut workspace = Workspace::new();
    workspace.deferred_audit_bytes = 0;
    workspace.max_audit_diagnostics = 3;
    // Never taken up at the keystroke (see the test after this one).
    workspace.resume_budget = None;
    let (mut client, uri, text) = open_audit_fixture(workspace, "careless-evening.dotc").await;
    // At once: the language's diagnostics only (none), the audit due.
    let first = client.diagnostics(&uri).await.expect("diagnostics on open");
    assert_eq!(first["version"], 1);
    assert_eq!(codes_and_lines(&first), [], "{first:#}");
    // After the pause: the first 3 findings, and a note counting the rest.
    let audited = client.next_diagnostics(&uri).await;
    assert_eq!(audited["version"], 1);
    let found = codes_and_lines(&audited);
    assert_eq!(found.len(), 4, "{audited:#}");
    assert!(found[..3].iter().all(|(code, _)| code.starts_with("dotc::replay-")), "{found:?}");
    let note = audited["diagnostics"][3]["message"].as_str().unwrap_or("");
    assert!(note.starts_with("14 more audit findings"), "{note}");
    assert!(note.contains("dotc audit careless-evening.dotc"), "{note}");

    // A comment line typed before the first turn: the findings move down a line at once
    // (findings inside a turn being edited are dropped until the replay).
    let insert = at(&text, "turn 1", 0, 0);
    client
        .change(&uri, 2, json!([{ "range": { "start": insert, "end": insert }, "text": "    // a note\n" }]))
        .await;
    let moved = client.diagnostics(&uri).await.expect("diagnostics after the edit");
    assert_eq!(moved["version"], 2);
    let moved_lines: Vec<u64> = codes_and_lines(&moved).iter().map(|(_, l)| *l).collect();
    let old_lines: Vec<u64> = found.iter().map(|(_, l)| *l).collect();
    assert_eq!(moved_lines, old_lines.iter().map(|l| l + 1).collect::<Vec<_>>(), "{moved:#}");

    // Two more edits before the pause ends: only the last version is replayed and published.
    client
        .change(&uri, 3, json!([{ "range": { "start": insert, "end": insert }, "text": "    // b\n" }]))
        .await;
    client
        .change(&uri, 4, json!([{ "range": { "start": insert, "end": insert }, "text": "    // c\n" }]))
        .await;
    let immediate = client.diagnostics(&uri).await.expect("diagnostics after the edits");
    assert_eq!(immediate["version"], 4, "only the latest publication is kept per document");
    let replayed = client.next_diagnostics(&uri).await;
    assert_eq!(replayed["version"], 4);
    let lines: Vec<u64> = codes_and_lines(&replayed).iter().map(|(_, l)| *l).collect();
    assert_eq!(lines, old_lines.iter().map(|l| l + 3).collect::<Vec<_>>(), "{replayed:#}");
    // Nothing for version 2 or 3 comes after it.
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    assert!(client.diagnostics(&uri).await.is_none());
}

/// Issue 16: a document's whole audit waits for the one before it to end (an edit stops that
/// one's replay, but not the parse before it), so that on a busy machine audits of one log do
/// not run side by side, each holding a whole analysis.
#[tokio::test]
async fn issue_16_a_documents_audit_waits_for_its_audit_before_to_end() {
    let mut workspace = Workspace::new();
    workspace.deferred_audit_bytes = 0;
    workspace.resume_budget = None;
    let (mut client, uri, _) = open_audit_fixture(workspace, "careless-evening.dotc").await;
    let first = client.diagnostics(&uri).await.expect("diagnostics on open");
    assert_eq!(codes_and_lines(&first), [], "the audit is due after a pause: {first:#}");
    // The slot held, as by an audit still running: no audit starts, however long the pause.
    let parsed: tower_lsp_server::ls_types::Uri = uri.parse().expect("a URI");
    let slot = client.service.inner().audit_slot(&parsed).expect("the log is open");
    let held = slot.clone().lock_owned().await;
    tokio::time::sleep(dotc_lsp::server::AUDIT_PAUSE * 4).await;
    assert!(client.diagnostics(&uri).await.is_none(), "an audit ran while the one before it held the slot");
    drop(held);
    let audited = client.next_diagnostics(&uri).await;
    assert_eq!(audited["version"], 1);
    assert!(
        codes_and_lines(&audited).iter().any(|(code, _)| code.starts_with("dotc::replay-")),
        "{audited:#}"
    );
    assert!(slot.try_lock().is_ok(), "the audit lets the slot go when it ends");
}

#[tokio::test]
async fn issue_16_a_long_logs_audit_is_taken_up_from_its_checkpoint_at_each_keystroke() {
    // Every log counts as long here: its first audit comes after a pause, the next at once.
    let mut workspace = Workspace::new();
    workspace.deferred_audit_bytes = 0;
    let (mut client, uri, text) = open_audit_fixture(workspace, "careless-evening.dotc").await;
    client.diagnostics(&uri).await.expect("diagnostics on open");
    let audited = codes_and_lines(&client.next_diagnostics(&uri).await);
    assert_eq!(
        audited.iter().filter(|(code, _)| code.starts_with("dotc::replay-")).count(),
        17,
        "{audited:?}"
    );

    // What a whole analysis of a text says (a short log is audited at once).
    async fn whole(uri: &str, text: &str) -> Vec<(String, u64)> {
        let mut fresh = Client::start().await;
        fresh.open(uri, text).await;
        codes_and_lines(&fresh.diagnostics(uri).await.expect("diagnostics"))
    }

    // A remark typed inside turn 2: the audit comes with the keystroke's own diagnostics, every
    // finding after it a line down.
    let inside = at(&text, "    fire {\n        // mistake: smoothbores", 0, 0);
    let remark = "        // the smoke hangs low\n";
    client.change(&uri, 2, json!([{ "range": { "start": inside, "end": inside }, "text": remark }])).await;
    let now = client.diagnostics(&uri).await.expect("diagnostics at the keystroke");
    assert_eq!(now["version"], 2);
    let edited = text.replacen(
        "    fire {\n        // mistake: smoothbores",
        &format!("{remark}    fire {{\n        // mistake: smoothbores"),
        1,
    );
    assert_eq!(codes_and_lines(&now), whole(&uri, &edited).await, "{now:#}");

    // A die of turn 2 changed so that the 12th New Jersey's claim of 2 hits is right: one
    // finding fewer, at once, as a whole replay of the new text says.
    let die = at(&edited, "roll [4, 1, 3, 2]", 0, 9);
    let past = at(&edited, "roll [4, 1, 3, 2]", 0, 10);
    client.change(&uri, 3, json!([{ "range": { "start": die, "end": past }, "text": "5" }])).await;
    let now = client.diagnostics(&uri).await.expect("diagnostics at the keystroke");
    assert_eq!(now["version"], 3);
    let fixed = edited.replacen("roll [4, 1, 3, 2]", "roll [4, 5, 3, 2]", 1);
    let expected = whole(&uri, &fixed).await;
    assert_eq!(codes_and_lines(&now), expected, "{now:#}");
    assert_eq!(
        expected.iter().filter(|(code, _)| code.starts_with("dotc::replay-")).count(),
        16,
        "{expected:?}"
    );
    // Nothing was left due: no whole replay follows.
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    assert!(client.diagnostics(&uri).await.is_none());
}

#[tokio::test]
async fn issue_16_a_resumed_audit_keeps_the_umpires_allowances() {
    // A long log (its audit taken up at each keystroke) with two `@allow`s: one that suppresses
    // the pips finding on line 12, one that suppresses nothing (a warning on line 19).
    let mut workspace = Workspace::new();
    workspace.deferred_audit_bytes = 0;
    let (mut client, uri, text) = open_audit_fixture(workspace, "umpire-allowed.dotc").await;
    client.diagnostics(&uri).await.expect("diagnostics on open");
    let audited = codes_and_lines(&client.next_diagnostics(&uri).await);
    // 0-based lines: the `@allow` that matches nothing (18) and the volley's finding (17).
    let lines = |found: &[(String, u64)]| found.iter().map(|(_, l)| *l).collect::<Vec<_>>();
    assert!(!lines(&audited).contains(&11), "the pips finding is allowed: {audited:?}");
    assert_eq!(
        audited,
        [("dotc::replay-disagrees".to_string(), 17), ("dotc::replay-doubtful".to_string(), 18)]
    );
    // A remark typed at the top of the first turn: the audit taken up has the same findings a
    // line down, the allowance still in force.
    let inside = at(&text, "    command {", 0, 0);
    client
        .change(
            &uri,
            2,
            json!([{ "range": { "start": inside, "end": inside }, "text": "    // a remark\n" }]),
        )
        .await;
    let now = codes_and_lines(&client.diagnostics(&uri).await.expect("diagnostics at the keystroke"));
    let moved: Vec<(String, u64)> = audited.iter().map(|(c, l)| (c.clone(), l + 1)).collect();
    assert_eq!(now, moved);
}

/// What a fresh server says of a text (a short log is audited at once): the codes and lines.
async fn fresh_codes_and_lines(uri: &str, text: &str) -> Vec<(String, u64)> {
    let mut fresh = Client::start().await;
    fresh.open(uri, text).await;
    codes_and_lines(&fresh.diagnostics(uri).await.expect("diagnostics"))
}

#[tokio::test]
async fn issue_16_a_hover_right_after_a_keystroke_is_answered_before_its_audit() {
    // A long log whose audits taken up at the keystroke are held at a gate until the test opens
    // it: the hover below is answered while the keystroke's audit is still being taken up.
    let gate = ResumeGate::closed();
    let mut workspace = Workspace::new();
    workspace.deferred_audit_bytes = 0;
    workspace.resume_gate = Some(gate.clone());
    let (mut client, uri, text) = open_audit_fixture(workspace, "careless-evening.dotc").await;
    client.diagnostics(&uri).await.expect("diagnostics on open");
    client.next_diagnostics(&uri).await;

    // A remark typed inside turn 2; the notification is handled on a task of its own, as the
    // library does, and does not end until the keystroke's audit is published.
    let inside = at(&text, "    fire {\n        // mistake: smoothbores", 0, 0);
    let remark = "        // the smoke hangs low\n";
    let edited = text.replacen(
        "    fire {\n        // mistake: smoothbores",
        &format!("{remark}    fire {{\n        // mistake: smoothbores"),
        1,
    );
    let change = Request::build("textDocument/didChange")
        .params(json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "range": { "start": inside, "end": inside }, "text": remark }],
        }))
        .finish();
    let service = client.service.ready().await.expect("service ready");
    let change = tokio::spawn(service.call(change));
    // The keystroke's own diagnostics come out; its audit is held.
    let own = client.next_diagnostics(&uri).await;
    assert_eq!(own["version"], 2);

    // A hover over a unit on a turn 3 line reads the replay's state there: answered now.
    let unit = at(&edited, "fire \"6th Louisiana\" at \"12th New Jersey\" roll [4, 6", 0, 7);
    let hover = client.at("textDocument/hover", &uri, unit.clone()).await;
    let shown = hover["contents"]["value"].as_str().unwrap_or("").to_string();
    assert!(shown.contains("At this line of the game (turn 3"), "{hover:#}");
    assert!(!change.is_finished(), "the keystroke's audit is still held");
    assert!(client.diagnostics(&uri).await.is_none(), "no audit was published yet");

    // Let the audit through: it comes at the same version, as a whole analysis has it, and the
    // hover then says what it said while the audit was being taken up.
    gate.open();
    change.await.expect("the notification's task").expect("no transport error");
    let audited = client.diagnostics(&uri).await.expect("the keystroke's audit");
    assert_eq!(audited["version"], 2);
    assert_eq!(codes_and_lines(&audited), fresh_codes_and_lines(&uri, &edited).await);
    let again = client.at("textDocument/hover", &uri, unit).await;
    assert_eq!(again, hover);
}

/// A remark typed at the start of a line inside turn 2 of the careless-evening log open as `log`.
fn remark_in_turn_two(
    ws: &Workspace,
    log: &tower_lsp_server::ls_types::Uri,
) -> Vec<tower_lsp_server::ls_types::TextDocumentContentChangeEvent> {
    use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};
    let text = ws.get(log).expect("open").text.to_string();
    let line = text.lines().position(|l| l.contains("// mistake: smoothbores")).expect("the line");
    let start = Position { line: line as u32, character: 0 };
    vec![TextDocumentContentChangeEvent {
        range: Some(Range { start, end: start }),
        range_length: None,
        text: "        // typed\n".to_string(),
    }]
}

/// A resume job still running when the next keystroke comes is waited for by it: its result is
/// kept (the new keystroke's audit goes on from it) but never published, and the diagnostics
/// are those of a fresh analysis. A job whose document is edited through its scenario, or
/// closed, while it runs is dropped (issue 16).
#[test]
fn issue_16_a_resume_overtaken_by_a_keystroke_is_kept_but_never_published() {
    use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};
    let mut ws = Workspace::new();
    ws.deferred_audit_bytes = 0;
    let log = open_in(&mut ws, "tests/fixtures/audit/careless-evening.dotc");
    let scenario = open_in(&mut ws, "scenarios/tutorial/fence-line.dotc");
    let job = ws.audit_job(&log, 1).expect("the audit is due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&log, &job, analyzed).expect("taken");
    let remark = |ws: &Workspace| remark_in_turn_two(ws, &log);
    let fresh = |text: &str| {
        let mut fresh = Workspace::new();
        let uri = ws_uri("tests/fixtures/audit/careless-evening.dotc");
        fresh.open(uri.clone(), 1, text.to_string());
        let doc = fresh.get(&uri).expect("open");
        dotc_lsp::convert::diagnostics(doc, usize::MAX)
    };

    let published = ws.change(&log, 2, remark(&ws)).expect("a newer version");
    assert!(published[0].resume_due);
    let job = ws.start_resume(&log, 2).expect("a resume job");
    let ticket = job.ticket();
    let running = std::thread::spawn(move || job.run());
    // The next keystroke, while the job may still run: it waits for the job.
    let published = ws.change(&log, 3, remark(&ws)).expect("a newer version");
    assert!(published[0].resume_due, "version 3's audit is taken up from version 2's");
    running.join().expect("the job's thread");
    assert!(ws.finish_resume(&log, ticket).is_empty(), "a stale job is never published");
    let published = ws.resume(&log, 3);
    assert_eq!(published.len(), 1);
    assert!(!published[0].audit_due && !published[0].resume_due);
    let doc = ws.get(&log).expect("open");
    assert_eq!(dotc_lsp::convert::diagnostics(doc, usize::MAX), fresh(&doc.text));

    // The scenario edited while a job runs: the log is analysed afresh, the job's result dropped.
    ws.change(&log, 4, remark(&ws)).expect("a newer version");
    let job = ws.start_resume(&log, 4).expect("a resume job");
    let ticket = job.ticket();
    let end = Position { line: 100_000, character: 0 };
    let comment = TextDocumentContentChangeEvent {
        range: Some(Range { start: end, end }),
        range_length: None,
        text: "\n// a note\n".to_string(),
    };
    ws.change(&scenario, 2, vec![comment]).expect("a newer version");
    job.run();
    assert!(ws.finish_resume(&log, ticket).is_empty());
    assert!(ws.get(&log).expect("open").analyzed.audit_due, "the fresh analysis waits for its audit");

    // Closed while a job runs: nothing to publish, nothing panics.
    let job = ws.audit_job(&log, 4).expect("the audit is due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&log, &job, analyzed).expect("taken");
    ws.change(&log, 5, remark(&ws)).expect("a newer version");
    let job = ws.start_resume(&log, 5).expect("a resume job");
    let ticket = job.ticket();
    ws.close(&log);
    job.run();
    assert!(ws.finish_resume(&log, ticket).is_empty());
}

/// Issue 16: a keystroke that comes while its document's resume job runs stops the job before
/// its next turn (a niced job cannot be raised back to the keystroke's priority, and on a busy
/// machine the keystroke waited for all of it), then takes the audit up from the edits before
/// and its own together: the same diagnostics as a fresh analysis.
#[test]
fn issue_16_a_keystroke_stops_the_resume_job_it_waits_for() {
    use std::sync::atomic::Ordering;
    let mut ws = Workspace::new();
    ws.deferred_audit_bytes = 0;
    let gate = ResumeGate::closed();
    ws.resume_gate = Some(gate.clone());
    let log = open_in(&mut ws, "tests/fixtures/audit/careless-evening.dotc");
    let job = ws.audit_job(&log, 1).expect("the audit is due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&log, &job, analyzed).expect("taken");
    let remark = |ws: &Workspace| remark_in_turn_two(ws, &log);
    ws.change(&log, 2, remark(&ws)).expect("a newer version");
    let job = ws.start_resume(&log, 2).expect("a resume job");
    let (ticket, stop) = (job.ticket(), job.stop_switch());
    let running = std::thread::spawn(move || job.run());
    // The job is held at the gate until the keystroke has asked it to stop (or 30 s pass).
    let opener = std::thread::spawn(move || {
        let asked = (0..30_000).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(1));
            stop.load(Ordering::Relaxed)
        });
        gate.open();
        asked
    });
    let published = ws.change(&log, 3, remark(&ws)).expect("a newer version");
    assert!(opener.join().expect("the opener"), "the keystroke did not stop the job it waited for");
    running.join().expect("the job's thread");
    assert!(published[0].resume_due, "version 3's audit is taken up from the replay the job left");
    // Stopped, the job left the replay of version 1: both edits since are still to be replayed
    // (a job that ran to its end would have left version 2's, and one edit).
    assert_eq!(ws.get(&log).expect("open").analyzed.replay_edits.len(), 2);
    assert!(ws.finish_resume(&log, ticket).is_empty(), "a stopped job is never published");
    let published = ws.resume(&log, 3);
    assert!(!published[0].audit_due && !published[0].resume_due, "taken up, not given up");
    let doc = ws.get(&log).expect("open");
    let mut fresh = Workspace::new();
    let uri = ws_uri("tests/fixtures/audit/careless-evening.dotc");
    fresh.open(uri.clone(), 1, doc.text.to_string());
    let fresh = dotc_lsp::convert::diagnostics(fresh.get(&uri).expect("open"), usize::MAX);
    assert_eq!(dotc_lsp::convert::diagnostics(doc, usize::MAX), fresh);
}

#[tokio::test]
async fn rename_and_references_reach_logs_that_are_not_open() {
    // A copy of the tutorial in a folder of its own; only the scenario is opened.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let ((_, scenario), (_, game)) = fence_line();
    std::fs::write(dir.path().join("fence-line.dotc"), &scenario).expect("write");
    std::fs::create_dir(dir.path().join("club")).expect("mkdir");
    // A log in a subfolder names the scenario by a relative path; another log plays elsewhere.
    let nested = game.replace("scenario \"fence-line.dotc\"", "scenario \"../fence-line.dotc\"");
    std::fs::write(dir.path().join("club/night-two.dotc"), &nested).expect("write");
    let unrelated = game.replace("scenario \"fence-line.dotc\"", "scenario \"other.dotc\"");
    std::fs::write(dir.path().join("club/other-game.dotc"), unrelated).expect("write");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let scenario_uri = format!("file://{}/fence-line.dotc", root.display());
    let log_uri = format!("file://{}/club/night-two.dotc", root.display());
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    let position = at(&scenario, "\"19th Maine\"", 0, 3);
    let edit = client
        .request(
            "textDocument/rename",
            json!({ "textDocument": { "uri": scenario_uri }, "position": position, "newName": "19th Maine Volunteers" }),
        )
        .await;
    let changes = edit["changes"].as_object().expect("changes by file");
    let mut files: Vec<&String> = changes.keys().collect();
    files.sort();
    let mut want = [&scenario_uri, &log_uri];
    want.sort();
    assert_eq!(files, want, "only the scenario and the log played on it: {edit:#}");
    let in_log = changes[&log_uri].as_array().map_or(0, Vec::len);
    assert_eq!(in_log, nested.matches("\"19th Maine\"").count(), "every mention in the log is renamed");
    let found = client
        .request(
            "textDocument/references",
            json!({ "textDocument": { "uri": scenario_uri }, "position": position, "context": { "includeDeclaration": true } }),
        )
        .await;
    let in_log = found.as_array().map_or(0, |all| all.iter().filter(|l| l["uri"] == json!(log_uri)).count());
    assert_eq!(in_log, nested.matches("\"19th Maine\"").count());
}

/// A deferred audit is stopped and its result refused when its document changes while it runs:
/// an edit to the log, an edit to the scenario it is played on, or a newer job for the same
/// version. Unchanged, its result is taken (issue 16: a stale audit is cancelled).
#[test]
fn a_stale_audit_is_cancelled_and_its_result_refused() {
    use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};
    let mut ws = Workspace::new();
    ws.deferred_audit_bytes = 0;
    let log = open_in(&mut ws, "tests/fixtures/audit/careless-evening.dotc");
    let scenario = open_in(&mut ws, "scenarios/tutorial/fence-line.dotc");
    let comment = |at: u32| {
        let start = Position { line: at, character: 0 };
        vec![TextDocumentContentChangeEvent {
            range: Some(Range { start, end: start }),
            range_length: None,
            text: "// x\n".to_string(),
        }]
    };

    // An edit to the log while the job runs: stopped, refused.
    let job = ws.audit_job(&log, 1).expect("the audit is due");
    assert!(!job.cancelled());
    ws.change(&log, 2, comment(0)).expect("a newer version");
    assert!(job.cancelled());
    assert!(job.run().is_none(), "a cancelled job keeps nothing");

    // An edit to its scenario: the log is analysed again at the same version, and the job made
    // before that is stopped too.
    let job = ws.audit_job(&log, 2).expect("the audit is due again");
    ws.change(&scenario, 2, comment(0)).expect("a newer version");
    assert!(job.cancelled(), "the scenario changed under the audit");

    // A newer job for the same version stops the older one, whose result is refused even if
    // it had finished.
    let older = ws.audit_job(&log, 2).expect("due");
    let newer = ws.audit_job(&log, 2).expect("due");
    assert!(older.cancelled() && !newer.cancelled());

    // Unchanged: taken.
    let analyzed = newer.run().expect("not cancelled");
    assert!(!analyzed.audit.is_empty(), "the careless log has findings");
    assert!(ws.finish_audit(&log, &newer, analyzed).is_some());
    // And a job of a document whose audit was taken is no longer due.
    assert!(ws.audit_job(&log, 2).is_none());
}

/// Semantic tokens are made from a snapshot that does not keep the document's analysis, so an
/// edit that comes in while they are being made still updates the analysis in place (the same
/// allocation, not a whole new analysis of the file), and the tokens are those of the text the
/// snapshot was taken of (issue 16: semantic tokens without blocking edits).
#[test]
fn a_semantic_tokens_snapshot_leaves_edits_in_place() {
    use std::sync::Arc;

    use dotc_lsp::semantic::{TokenInputs, semantic_tokens};
    use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};
    let mut ws = Workspace::new();
    let uri = open_in(&mut ws, "scenarios/tutorial/fence-line-game.dotc");
    let before = ws.get(&uri).expect("open").clone();
    let snapshot = TokenInputs::of(&before);
    let expected = semantic_tokens(&before);
    drop(before);
    let analysis = Arc::as_ptr(&ws.get(&uri).expect("open").analyzed);
    // A comment typed on the last line, while the snapshot is held.
    let end = Position { line: 200_000, character: 0 };
    let change = TextDocumentContentChangeEvent {
        range: Some(Range { start: end, end }),
        range_length: None,
        text: "\n// typed\n".to_string(),
    };
    ws.change(&uri, 2, vec![change]).expect("a newer version");
    let after = ws.get(&uri).expect("open");
    assert!(after.text.ends_with("// typed\n"));
    assert_eq!(Arc::as_ptr(&after.analyzed), analysis, "the edit was applied in place");
    assert_eq!(snapshot.tokens(), expected);
    assert_ne!(semantic_tokens(after), expected, "the new comment is a token");
}

/// The replay events' spans kept up to date edit by edit (what hovers and inlay hints read) are
/// those found by moving each event's span through every edit since the replay, after each of
/// 300 seeded random edits to a log whose audit is deferred (issue 16: hover without walking
/// every event through every edit).
#[test]
fn the_events_kept_in_step_with_the_edits_are_where_every_edit_puts_them() {
    use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};
    let mut ws = Workspace::new();
    ws.deferred_audit_bytes = 0;
    // The replay is left as it was at each edit (not taken up again at the keystroke).
    ws.resume_budget = None;
    let uri = open_in(&mut ws, "scenarios/tutorial/fence-line-game.dotc");
    let job = ws.audit_job(&uri, 1).expect("the audit is due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&uri, &job, analyzed).expect("taken");
    let events = ws.get(&uri).and_then(|d| d.analyzed.replay.as_ref()).map_or(0, |r| r.events.len());
    assert!(events > 50, "{events} events");
    let mut seed: u64 = 0x5eed_2026_1204;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let (mut dropped, mut compared) = (0, 0);
    for version in 2..302 {
        let doc = ws.get(&uri).expect("open");
        // Edits inside the turns, which the server applies in place (keeping the replay).
        let lines = doc.text.lines().count() as u64;
        let first_turn = doc.text.lines().position(|l| l.starts_with("turn ")).unwrap_or(0) as u64 + 1;
        let line = (first_turn + next(lines - first_turn)) as u32;
        let content: Vec<char> = doc.text.lines().nth(line as usize).unwrap_or("").chars().collect();
        let width = content.len() as u64;
        // A comment line typed above a line (everything after it moves), or part of a line
        // typed over with the same text (the events on it are replaced): the log stays valid.
        let (from, to, text) = if next(2) == 0 {
            (0, 0, "// note\n".to_string())
        } else {
            let (a, b) = (next(width + 1) as usize, next(width + 1) as usize);
            let (a, b) = (a.min(b), a.max(b));
            (a as u32, b as u32, content[a..b].iter().collect())
        };
        let change = TextDocumentContentChangeEvent {
            range: Some(Range {
                start: Position { line, character: from },
                end: Position { line, character: to },
            }),
            range_length: None,
            text,
        };
        ws.change(&uri, version, vec![change]).expect("a newer version");
        // An edit the server cannot apply in place analyses the log afresh, its audit due: the
        // server replays it after a pause, and so does the test (when the log checks clean).
        if ws.get(&uri).is_some_and(|d| d.analyzed.replay.is_none())
            && let Some(job) = ws.audit_job(&uri, version)
            && let Some(analyzed) = job.run()
        {
            ws.finish_audit(&uri, &job, analyzed);
        }
        let analyzed = &ws.get(&uri).expect("open").analyzed;
        let Some(replay) = analyzed.replay.as_ref() else { continue };
        let view = analyzed.view.as_ref().expect("a replay's view");
        let kept: Vec<_> = view.events().iter().map(|e| e.span()).collect();
        let moved: Vec<_> = replay.events.iter().map(|e| analyzed.current_span(e.span)).collect();
        assert_eq!(kept, moved, "after edit {version}");
        dropped = kept.iter().filter(|s| s.is_none()).count();
        compared += 1;
    }
    eprintln!("compared after {compared} of 300 edits");
    // Most edits are compared (not those that leave the log unable to be replayed).
    assert!(compared >= 250, "{compared}");
    assert!(dropped > 0, "some edits replaced events' text");
}

/// The numbers of a semantic tokens answer's `data` (or of an edit's).
fn numbers(data: &Value) -> Vec<u64> {
    data.as_array().map(|d| d.iter().filter_map(Value::as_u64).collect()).unwrap_or_default()
}

/// Semantic tokens by range and by delta (issue 16): the server offers both; a whole-file
/// answer has a result id; a delta from it after an edit is one edit that turns it into the
/// whole file's tokens now; a delta from an id the server does not know is the whole file's
/// tokens; a range is the whole file's tokens of its lines; closing the document drops what was
/// kept for it.
#[tokio::test]
async fn semantic_tokens_by_range_and_by_delta() {
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    let capabilities = serde_json::to_value(dotc_lsp::server::capabilities()).expect("json");
    let offered = &capabilities["semanticTokensProvider"];
    assert_eq!((&offered["full"]["delta"], &offered["range"]), (&json!(true), &json!(true)), "{offered}");
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let document = json!({ "textDocument": { "uri": game_uri } });
    let first = client.request("textDocument/semanticTokens/full", document.clone()).await;
    let first_id = first["resultId"].as_str().expect("a result id").to_string();
    let before = numbers(&first["data"]);
    assert!(before.len() > 1000, "{} numbers", before.len());

    // A comment line typed above the first turn: the tokens after it move down a line.
    let insert = at(&game, "turn 1", 0, 0);
    let typed = json!([{ "range": { "start": insert, "end": insert }, "text": "// a note\n" }]);
    client.change(&game_uri, 2, typed).await;
    let delta_params = json!({ "textDocument": { "uri": game_uri }, "previousResultId": first_id });
    let delta = client.request("textDocument/semanticTokens/full/delta", delta_params).await;
    let delta_id = delta["resultId"].as_str().expect("a result id").to_string();
    assert_ne!(delta_id, first_id);
    let edits = delta["edits"].as_array().expect("edits, not a whole answer");
    assert_eq!(edits.len(), 1, "{delta}");
    let (start, deleted) =
        (edits[0]["start"].as_u64().unwrap_or(0), edits[0]["deleteCount"].as_u64().unwrap_or(0));
    let inserted = numbers(&edits[0]["data"]);
    assert!(start % 5 == 0 && deleted % 5 == 0 && inserted.len() <= 10, "a small edit: {delta}");
    let mut after = before.clone();
    after.splice(start as usize..(start + deleted) as usize, inserted);
    let now = client.request("textDocument/semanticTokens/full", document.clone()).await;
    assert_eq!(after, numbers(&now["data"]));

    // From an id the server does not know (or no longer keeps): the whole file.
    let unknown = json!({ "textDocument": { "uri": game_uri }, "previousResultId": "no such answer" });
    let whole = client.request("textDocument/semanticTokens/full/delta", unknown).await;
    assert_eq!(numbers(&whole["data"]), after);
    assert!(whole["resultId"].is_string());

    // Lines 28 to 37 (the first turn's command phase, moved down a line): the whole file's
    // tokens of those lines, the first counted from the start of the text.
    let range = json!({ "start": { "line": 28, "character": 4 }, "end": { "line": 38, "character": 0 } });
    let answer = client
        .request(
            "textDocument/semanticTokens/range",
            json!({ "textDocument": { "uri": game_uri }, "range": range }),
        )
        .await;
    let (mut line, mut rows) = (0, Vec::new());
    for token in after.chunks(5) {
        line += token[0];
        if (28..=37).contains(&line) {
            rows.push((line, token.to_vec()));
        }
    }
    let mut want: Vec<u64> = rows.iter().flat_map(|(_, token)| token.clone()).collect();
    want[0] = rows[0].0;
    assert_eq!(numbers(&answer["data"]), want);
    assert!(answer.get("resultId").is_none());

    assert_eq!(client.service.inner().documents_with_tokens(), 1);
    client.notify("textDocument/didClose", document).await;
    assert_eq!(client.service.inner().documents_with_tokens(), 0, "closing drops the kept tokens");
}

/// Issue 16: whole-file token requests made one after another faster than they are answered
/// do not pile up. When the document's tokens come free, a request with a newer one waiting is
/// answered `ContentModified` (-32801) without being made, and the newer one gets the tokens.
#[tokio::test]
async fn issue_16_a_whole_file_tokens_request_with_a_newer_one_waiting_is_answered_content_modified() {
    let mut client = Client::start().await;
    let ((scenario_uri, scenario), (game_uri, game)) = fence_line();
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let document = json!({ "textDocument": { "uri": game_uri } });
    let uri: tower_lsp_server::ls_types::Uri = game_uri.parse().expect("a URI");
    let kept = client.service.inner().kept_tokens(&uri);
    let asked = kept.whole_asked();
    let mut calls = Vec::new();
    for (id, method) in
        [(901, "textDocument/semanticTokens/full"), (902, "textDocument/semanticTokens/full/delta")]
    {
        let params = if id == 901 {
            document.clone()
        } else {
            json!({ "textDocument": { "uri": game_uri }, "previousResultId": "" })
        };
        let request = Request::build(method).params(params).id(id).finish();
        let service = client.service.ready().await.expect("service ready");
        calls.push(service.call(request));
    }
    // The document's tokens are busy (as with a request still being answered) until both
    // requests have been asked.
    let held = kept.lock();
    let second = calls.pop().expect("two calls");
    let first = calls.pop().expect("two calls");
    let release = async {
        while kept.whole_asked() < asked + 2 {
            tokio::task::yield_now().await;
        }
        drop(held);
    };
    let (first, second, ()) = tokio::join!(first, second, release);
    let answer = |response: Result<Option<tower_lsp_server::jsonrpc::Response>, _>| {
        response.expect("no transport error").expect("an answer").into_parts().1
    };
    let error = answer(first).expect_err("the older request is superseded");
    assert_eq!(error.code.code(), -32801, "{error:?}");
    let tokens = answer(second).expect("the newer request is answered");
    assert!(numbers(&tokens["data"]).len() > 100, "{tokens}");
    // Alone, a request is answered as before.
    let again = client.request("textDocument/semanticTokens/full", document).await;
    assert_eq!(numbers(&again["data"]), numbers(&tokens["data"]));
}

/// Ch13 4.0: hover on a blind's name, in its scenario and in a log's `move` and `reveal` lines:
/// its side, where it is deployed, and the brigade it hides or that it is a dummy, citing the
/// module's section.
#[tokio::test]
async fn ch13_4_0_hover_on_a_blind_says_its_side_place_and_what_it_hides() {
    let read = |file: &str| {
        let path = std::fs::canonicalize(repo().join("tests/rules/modules").join(file)).expect("suite file");
        (format!("file://{}", path.display()), std::fs::read_to_string(&path).expect("readable"))
    };
    let (scenario_uri, scenario) = read("hidden_deployment.dotc");
    let (game_uri, game) = read("hidden_deployment-game.dotc");
    let mut client = Client::start().await;
    client.open(&scenario_uri, &scenario).await;
    client.open(&game_uri, &game).await;
    let text = |hover: &Value| hover["contents"]["value"].as_str().unwrap_or_default().to_string();
    let real = client.at("textDocument/hover", &scenario_uri, at(&scenario, "blind \"B1\"", 0, 8)).await;
    let real = text(&real);
    assert!(real.starts_with("**B1**: blind of North (Hidden Deployment, Ch13 4.0)"), "{real}");
    assert!(real.contains("at (20, 10)") && real.contains("hides the brigade Ames"), "{real}");
    assert!(real.contains("`Ch13 4.0`"), "{real}");
    let dummy = client.at("textDocument/hover", &game_uri, at(&game, "reveal \"CD1\"", 0, 9)).await;
    let dummy = text(&dummy);
    assert!(dummy.starts_with("**CD1**: blind of South"), "{dummy}");
    assert!(dummy.contains("at (29, 34)") && dummy.contains("a dummy"), "{dummy}");
    let moved = client.at("textDocument/hover", &game_uri, at(&game, "move \"CB\"", 0, 7)).await;
    assert!(text(&moved).contains("hides the brigade Doles"), "{moved:#}");
}

/// Issue 18: a campaign's findings come after a pause (it is never played at a keystroke), and
/// prepare-rename on what a campaign cannot rename is refused with the reason.
#[tokio::test]
async fn ch14_a_campaigns_findings_are_published_after_a_pause() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let copy = |from: &str, to: &str| {
        let text = std::fs::read_to_string(repo().join(from)).expect("a file of the repository");
        std::fs::write(dir.path().join(to), text).expect("written");
    };
    copy("scenarios/tutorial/fence-line.dotc", "fence-line.dotc");
    copy("scenarios/tutorial/fence-line-game.dotc", "fence-line-game.dotc");
    copy("tests/campaign/fence-line-won.dotc", "fence-line-won.dotc");
    copy("tests/campaign/fence-line-won-game.dotc", "fence-line-won-game.dotc");
    let road = std::fs::read_to_string(repo().join("tests/campaign/road.dotc")).expect("road");
    // A wrong Surgeon's claim (Ch14 2.0): the 1 is lost for good, not returned.
    let text =
        road.replace("../../scenarios/tutorial/", "").replace("roll [1] => lost 1", "roll [1] => returns 1");
    let path = dir.path().join("road.dotc");
    std::fs::write(&path, &text).expect("written");
    let uri = format!("file://{}", path.display());
    let mut client = Client::start().await;
    client.open(&uri, &text).await;
    let first = client.diagnostics(&uri).await.expect("diagnostics on open");
    assert_eq!(codes_and_lines(&first), [], "{first:#}");
    let played = client.next_diagnostics(&uri).await;
    let line = text[..text.find("roll [1] => returns 1").expect("the claim")].matches('\n').count() as u64;
    // The finding, and the notes of what the roster changes in battles 2 and 3 (Ch14 1.0).
    let found = codes_and_lines(&played);
    let roster = found.iter().filter(|(code, _)| code == "dotc::campaign-roster").count();
    assert_eq!((found.len(), roster), (3, 2), "{played:#}");
    assert_eq!(found[0], ("dotc::replay-disagrees".to_string(), line));
    assert!(played["diagnostics"][0]["message"].as_str().unwrap_or("").contains("Ch14 2.0"), "{played:#}");
    let refused =
        client.at("textDocument/prepareRename", &uri, at(&text, "\"The Fence Line again\"", 0, 2)).await;
    assert_eq!(refused["error"], "a battle's name is the campaign's own: edit it in place");
}

/// Issue 19: a game log that names its campaign battle (`campaign "FILE" battle "NAME"`, Ch14
/// 1.0) is audited in the editor as `dotc audit` audits it, with the campaign's roster as the
/// battle began (dotc D42, D44): after the audit's pause, the shipped log has no finding (with
/// its scenario's strengths the replay disagrees with the log's dice); a wrong claim gets
/// exactly the finding `dotc audit` gives for it; and an edit of the campaign audits the open
/// log again.
#[tokio::test]
async fn issue_19_a_campaign_battles_log_is_audited_with_the_campaigns_roster() {
    let relative = "scenarios/gettysburg-day1/gettysburg-day1-campaign-mcpherson-game.dotc";
    let uri = ws_uri(relative).as_str().to_string();
    let text = std::fs::read_to_string(repo().join(relative)).expect("readable");
    let mut client = Client::start().await;
    client.open(&uri, &text).await;
    // At once: the language's diagnostics only; the order of battle is looked up after a pause.
    let first = client.diagnostics(&uri).await.expect("diagnostics on open");
    assert_eq!(codes_and_lines(&first), [], "{first:#}");
    let audited = client.next_diagnostics(&uri).await;
    assert_eq!(audited["version"], 1);
    assert_eq!(codes_and_lines(&audited), [], "{audited:#}");
    // The hover on its volley prices the roster's five stands, as `dotc odds --at` does.
    let hover = client
        .at("textDocument/hover", &uri, at(&text, "fire \"24th Michigan\" at \"26th North", 0, 1))
        .await;
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("dice         5D6 from 5 stands"), "{hover:#}");

    // The 24th Michigan's five stands of the roster fire five dice (as the shipped log rolls);
    // a log that rolls four is told what `dotc audit` tells it.
    let claim = "fire \"24th Michigan\" at \"26th North Carolina\" roll [3, 5, 3, 1, 4]";
    let wrong = "fire \"24th Michigan\" at \"26th North Carolina\" roll [3, 5, 3, 1]";
    assert!(text.contains(claim), "the shipped log's volley");
    client.change(&uri, 2, json!([{ "text": text.replace(claim, wrong) }])).await;
    let mut published = client.next_diagnostics(&uri).await;
    while codes_and_lines(&published).is_empty() {
        published = client.next_diagnostics(&uri).await;
    }
    assert_eq!(published["version"], 2);
    let line = text[..text.find(claim).expect("the claim")].matches('\n').count() as u64;
    assert_eq!(codes_and_lines(&published), [("dotc::replay-disagrees".to_string(), line)], "{published:#}");
    // `dotc audit` on this text (scenarios/gettysburg-day1, line 101): word for word.
    let message = published["diagnostics"][0]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with(
            "the to-hit roll (RULE-05-2.1, 2.2, 2.3) needs 5 to_hit dice, but the log records 4: add 1 die at \
             the end of `roll [...]` (5 in all); the action is not applied"
        ),
        "{message}"
    );

    // The campaign opened and its battle renamed: the log's battle is no longer in it, and the
    // log is audited again (an error at its `campaign` line, Ch14 1.0).
    client.change(&uri, 3, json!([{ "text": text.clone() }])).await;
    let campaign_relative = "scenarios/gettysburg-day1/gettysburg-day1-campaign.dotc";
    let campaign_uri = ws_uri(campaign_relative).as_str().to_string();
    let campaign = std::fs::read_to_string(repo().join(campaign_relative)).expect("readable");
    let (file, battle) = text
        .lines()
        .find_map(|l| {
            let rest = l.trim_start().strip_prefix("campaign \"")?;
            let (file, rest) = rest.split_once('"')?;
            let battle = rest.trim_start().strip_prefix("battle \"")?.split('"').next()?;
            Some((file.to_string(), battle.to_string()))
        })
        .expect("the header's campaign line");
    assert_eq!(file, "gettysburg-day1-campaign.dotc");
    let named = format!("battle \"{battle}\"");
    assert!(campaign.contains(&named), "{named}");
    client.open(&campaign_uri, &campaign.replacen(&named, "battle \"Renamed\"", 1)).await;
    let header = text[..text.find("campaign \"").expect("the line")].matches('\n').count() as u64;
    let mut published = client.next_diagnostics(&uri).await;
    while codes_and_lines(&published).iter().all(|(_, l)| *l != header) {
        published = client.next_diagnostics(&uri).await;
    }
    assert_eq!(published["version"], 3);
    let message = published["diagnostics"][0]["message"].as_str().unwrap_or("");
    let expected = format!("the campaign \"{file}\" has no battle \"{battle}\"");
    assert!(message.starts_with(&expected), "{published:#}");
}
