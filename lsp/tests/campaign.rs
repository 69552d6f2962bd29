//! Campaign files (Ch14) in the language server (issue 18): diagnostics (the campaign's own
//! findings, played off the editing path), hover, completion, definition and rename, on a copy
//! of the road campaign (tests/campaign/road.dotc) in a temporary folder.

use std::path::{Path, PathBuf};

use dotc_lang::Span;
use dotc_lsp::ls_types::{
    CompletionTextEdit, Position, Range, TextDocumentContentChangeEvent, Uri, WorkspaceEdit,
};
use dotc_lsp::workspace::Workspace;
use dotc_lsp::{campaign, completion, hover, navigate};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The road campaign, its scenarios and logs copied into one folder, the campaign's paths made
/// to point at the copies. Returns the folder.
fn road(dir: &Path) -> PathBuf {
    let copy = |from: &str, to: &str| {
        let text = std::fs::read_to_string(repo().join(from)).expect("a file of the repository");
        std::fs::write(dir.join(to), text).expect("written");
    };
    copy("scenarios/tutorial/fence-line.dotc", "fence-line.dotc");
    copy("scenarios/tutorial/fence-line-game.dotc", "fence-line-game.dotc");
    copy("tests/campaign/fence-line-won.dotc", "fence-line-won.dotc");
    copy("tests/campaign/fence-line-won-game.dotc", "fence-line-won-game.dotc");
    let text = std::fs::read_to_string(repo().join("tests/campaign/road.dotc")).expect("road");
    let text = text.replace("../../scenarios/tutorial/", "");
    std::fs::write(dir.join("road.dotc"), text).expect("written");
    dir.to_path_buf()
}

fn uri(path: &Path) -> Uri {
    Uri::from_file_path(path).expect("a file URI")
}

/// Open a file of the folder, at version 1.
fn open(ws: &mut Workspace, dir: &Path, name: &str) -> Uri {
    let path = dir.join(name);
    let uri = uri(&path);
    ws.open(uri.clone(), 1, std::fs::read_to_string(&path).expect("readable"));
    uri
}

/// Open the campaign and play it as the server does after a pause (its audit job).
fn open_played(ws: &mut Workspace, dir: &Path, name: &str) -> Uri {
    let uri = open(ws, dir, name);
    assert!(ws.get(&uri).expect("open").analyzed.audit_due, "a campaign is never played at a keystroke");
    let job = ws.audit_job(&uri, 1).expect("the campaign's play is due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&uri, &job, analyzed).expect("taken");
    uri
}

/// The byte offset of the `nth` occurrence of `needle`, `shift` bytes into it.
fn at(text: &str, needle: &str, nth: usize, shift: usize) -> usize {
    text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("needle in text") + shift
}

fn hover_at(ws: &Workspace, uri: &Uri, needle: &str, nth: usize, shift: usize) -> Option<String> {
    let doc = ws.get(uri).expect("open");
    hover::hover(doc, at(&doc.text, needle, nth, shift)).map(|(text, _)| text)
}

/// What a hover says before the summaries of the sections it cites, and the ids it cites.
fn split_hover(text: &str) -> (String, Vec<String>) {
    let (own, cited) = text.split_once("\n\n`").map_or((text, ""), |(a, b)| (a, b));
    let ids = format!("`{cited}")
        .split("\n\n`")
        .filter_map(|part| part.trim_start_matches('`').split_once('`').map(|(id, _)| id.to_string()))
        .collect();
    (own.to_string(), ids)
}

#[test]
fn ch14_a_campaign_is_played_off_the_editing_path_and_its_findings_are_diagnostics() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = road(dir.path());
    // The 9th Louisiana's 1 after battle 1 is lost for good (Ch14 2.0): claim it returned.
    let text = std::fs::read_to_string(dir.join("road.dotc")).expect("road");
    let wrong = text.replace("roll [1] => lost 1", "roll [1] => returns 1");
    assert_ne!(wrong, text);
    std::fs::write(dir.join("wrong.dotc"), &wrong).expect("written");

    let mut ws = Workspace::new();
    // The road as written: clean, played only by its audit job.
    let road = open(&mut ws, &dir, "road.dotc");
    let doc = ws.get(&road).expect("open");
    assert!(doc.analyzed.audit_due && doc.analyzed.campaign.is_none(), "never played at a keystroke");
    assert!(doc.analyzed.diagnostics().is_empty(), "{:?}", doc.analyzed.diagnostics());
    let job = ws.audit_job(&road, 1).expect("due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&road, &job, analyzed).expect("taken");
    let doc = ws.get(&road).expect("open");
    assert!(doc.analyzed.campaign.is_some() && !doc.analyzed.audit_due);
    // Played: no finding, only the notes of what the roster changes in battles 2 and 3 (Ch14
    // 1.0, dotc D42), advice at each battle's scenario line.
    let notes: Vec<_> =
        doc.analyzed.diagnostics().into_iter().map(|d| (d.code, d.severity, d.message.clone())).collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes.iter().all(
            |(code, severity, _)| *code == "dotc::campaign-roster" && format!("{severity:?}") == "Advice"
        ),
        "{notes:?}"
    );
    assert!(
        notes[0].2.starts_with("battle 2 \"The Fence Line again\" is fought with the roster"),
        "{notes:?}"
    );

    // The wrong claim: one error on its line, citing Ch14 2.0.
    let wrong_uri = open_played(&mut ws, &dir, "wrong.dotc");
    let doc = ws.get(&wrong_uri).expect("open");
    let found: Vec<(String, u32, Option<String>)> = dotc_lsp::convert::diagnostics(doc, usize::MAX)
        .into_iter()
        .map(|d| (format!("{:?}", d.severity), d.range.start.line, d.code.map(|c| format!("{c:?}"))))
        .filter(|(_, _, code)| !code.as_deref().is_some_and(|c| c.contains("campaign-roster")))
        .collect();
    let line = doc.text[..at(&doc.text, "roll [1] => returns 1", 0, 0)].matches('\n').count() as u32;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, line);
    assert_eq!(found[0].0, "Some(Error)");
    let error = doc.analyzed.audit.iter().find(|d| d.code != "dotc::campaign-roster").expect("the finding");
    let rule = error.rule.clone().unwrap_or_default();
    assert!(rule.contains("Ch14 2.0"), "{rule}");

    // A comment typed above it: the finding moves down a line at once, the play due again.
    let start = Position { line: 0, character: 0 };
    let comment = |text: &str| {
        vec![TextDocumentContentChangeEvent {
            range: Some(Range { start, end: start }),
            range_length: None,
            text: text.to_string(),
        }]
    };
    let job = ws.audit_job(&wrong_uri, 1);
    assert!(job.is_none(), "played already");
    ws.change(&wrong_uri, 2, comment("// a note\n")).expect("a newer version");
    let doc = ws.get(&wrong_uri).expect("open");
    assert!(doc.analyzed.audit_due);
    // The finding and the two roster notes (battles 2 and 3), each a line down.
    let lines: Vec<u32> =
        dotc_lsp::convert::diagnostics(doc, usize::MAX).iter().map(|d| d.range.start.line).collect();
    let battle = |name: &str| doc.text[..at(&doc.text, name, 0, 0)].matches('\n').count() as u32 + 1;
    assert_eq!(
        lines,
        [line + 1, battle("battle \"The Fence Line again\""), battle("battle \"Falling Waters\"")]
    );

    // An edit while its play runs: stopped, its result refused.
    let job = ws.audit_job(&wrong_uri, 2).expect("due");
    ws.change(&wrong_uri, 3, comment("// b\n")).expect("a newer version");
    assert!(job.cancelled());
    assert!(job.run().is_none());

    // A scenario of the campaign edited: the campaign is analysed again, its play due.
    let scenario = open(&mut ws, &dir, "fence-line-won.dotc");
    let job = ws.audit_job(&wrong_uri, 3).expect("due");
    let analyzed = job.run().expect("not cancelled");
    ws.finish_audit(&wrong_uri, &job, analyzed).expect("taken");
    let published = ws.change(&scenario, 2, comment("// c\n")).expect("a newer version");
    let uris: Vec<&Uri> = published.iter().map(|p| &p.uri).collect();
    assert!(uris.contains(&&wrong_uri) && uris.contains(&&road), "{uris:?}");
    assert!(ws.get(&wrong_uri).expect("open").analyzed.audit_due);
}

#[test]
fn ch14_hover_shows_a_units_a_brigadiers_and_a_battles_campaign_state() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = road(dir.path());
    let mut ws = Workspace::new();
    // Before the campaign is played, a hover says so.
    let road = open(&mut ws, &dir, "road.dotc");
    let early = hover_at(&ws, &road, "\"19th Maine\" roll", 1, 1).expect("a hover");
    assert_eq!(
        early,
        "**19th Maine**: regiment, in battle 2 \"The Fence Line again\"\n\nThe campaign is being played \
         (it replays every battle's log); hover again in a moment."
    );
    let road = open_played(&mut ws, &dir, "road.dotc");

    // The 19th Maine in battle 2: 5 stands at the start of the campaign; after battle 1 one
    // stand in hospital (a 3, Ch14 2.0) back for battle 3; in battle 2 it loses one more (a 1,
    // +1 for the field: hospital, back for battle 4) and gets the first back for battle 3.
    let (own, cited) = split_hover(&hover_at(&ws, &road, "\"19th Maine\" roll", 1, 1).expect("a hover"));
    assert_eq!(
        own,
        "**19th Maine**: regiment, union, in battle 2 \"The Fence Line again\"\n\n\
         *As battle 2 began* (Ch14 1.0):\n\
         - 4 of its 5 stands on the roster\n\
         - 1 in hospital, back for battle 3 (Ch14 2.0)\n\
         - 2 XP, veteran (Ch14 3.0)\n\n\
         *After its post-battle sequence, as battle 3 began*:\n\
         - 4 of its 5 stands on the roster\n\
         - 1 in hospital, back for battle 4 (Ch14 2.0)\n\
         - 2 XP, veteran (Ch14 3.0)\n\n\
         (with the stands back from hospital for that battle, Ch14 2.0)"
    );
    assert_eq!(cited, ["Ch14 2.0", "Ch14 3.0", "Ch14 5.0"]);

    // The 9th Louisiana in battle 2: one stand lost for good after battle 1 (a 1), 2 XP and
    // Sharpshooters; after battle 2 one captured (a 6 on the losing side, dotc D32), 3 XP, and
    // a draft of 2 stands that dilutes the Veteran to Regular for battle 3 (Ch14 5.0).
    let (own, _) = split_hover(&hover_at(&ws, &road, "\"9th Louisiana\" 2", 0, 1).expect("a hover"));
    assert_eq!(
        own,
        "**9th Louisiana**: regiment, confederate, in battle 2 \"The Fence Line again\"\n\n\
         *As battle 2 began* (Ch14 1.0):\n\
         - 3 of its 4 stands on the roster\n\
         - lost for good: 1, taken prisoner: 0 (Ch14 2.0)\n\
         - 2 XP, veteran (Ch14 3.0)\n\
         - traits from the campaign: sharpshooters\n\n\
         *After its post-battle sequence, as battle 3 began*:\n\
         - 4 of its 4 stands on the roster\n\
         - lost for good: 1, taken prisoner: 1 (Ch14 2.0)\n\
         - 3 XP, veteran (Ch14 3.0)\n\
         - traits from the campaign: sharpshooters\n\
         - 2 replacement stands taken in drafts (Ch14 5.0)\n\
         - diluted by recruits: fights battle 3 as regular (Ch14 5.0)"
    );

    // Hollister rolled 5 for promotion after battle 2 (Ch14 4.0): reliable -> aggressive.
    let (own, cited) = split_hover(&hover_at(&ws, &road, "\"Col. Asa Hollister\"", 0, 1).expect("a hover"));
    assert_eq!(
        own,
        "**Col. Asa Hollister**: brigadier, union, in battle 2 \"The Fence Line again\"\n\n\
         *As battle 2 began*:\n\
         - rating reliable\n\
         - brigade: Hollister’s Brigade\n\n\
         *After its post-battle sequence, as battle 3 began*:\n\
         - rating aggressive\n\
         - brigade: Hollister’s Brigade\n\
         - promoted after battle 2 (Ch14 4.0)"
    );
    assert_eq!(cited, ["Ch14 4.0"]);

    // The battles: battle 2's result and field from its replay; battle 3 not played.
    let (own, cited) = split_hover(&hover_at(&ws, &road, "\"The Fence Line again\"", 0, 1).expect("a hover"));
    assert_eq!(
        own,
        "**The Fence Line again**: battle 2 of the campaign (Ch14 1.0)\n\n\
         - result by the scenario's victory conditions: union minor\n\
         - holding the field after the replay: union\n\
         - its post-battle sequence is recorded (`after`)"
    );
    assert_eq!(cited, ["Ch14 1.0"]);
    let waters = hover_at(&ws, &road, "\"Falling Waters\"", 0, 1).expect("a hover");
    assert!(waters.starts_with(
        "**Falling Waters**: battle 3 of the campaign (Ch14 1.0)\n\n- not played yet: no log, or its log cannot be replayed"
    ));

    // Step words, a Surgeon's result, a feat, a campaign ruling; a rule-data id as anywhere.
    let step = hover_at(&ws, &road, "surgeon \"12th", 0, 1).expect("a hover");
    assert!(step.starts_with("**surgeon** (campaign step, Ch14 2.0)\n\n`surgeon \"Unit\" roll"), "{step}");
    let result = hover_at(&ws, &road, "returns 1", 0, 1).expect("a hover");
    assert!(result.starts_with("**returns N** (Surgeon's result, Ch14 2.0)"), "{result}");
    let feat = hover_at(&ws, &road, "charged =>", 0, 1).expect("a hover");
    assert!(feat.starts_with("**charged** (feat, Ch14 3.0)"), "{feat}");
    let ruling = hover_at(&ws, &road, "surgeon_prisoners = returners", 0, 1).expect("a hover");
    assert!(ruling.starts_with("**surgeon_prisoners**: campaign ruling (dotc D32)"), "{ruling}");
    let claim = hover_at(&ws, &road, "=> not promoted", 0, 4).expect("a hover");
    assert!(claim.starts_with("**not promoted** (claim of `promotion`, Ch14 4.0)"), "{claim}");
    let path = hover_at(&ws, &road, "\"fence-line-won-game.dotc\"", 0, 1).expect("a hover");
    assert!(path.starts_with("**log** of battle 2 \"The Fence Line again\""), "{path}");
    assert!(path.ends_with("fence-line-won-game.dotc`: read"), "{path}");
    let id = hover_at(&ws, &road, "sharpshooters\n", 0, 1).expect("a hover");
    assert!(id.contains("(trait `sharpshooters`)"), "{id}");
}

/// The labels a completion offers.
fn labels(ws: &Workspace, uri: &Uri, offset: usize) -> Vec<String> {
    let doc = ws.get(uri).expect("open");
    completion::completion(doc, offset).into_iter().map(|c| c.label).collect()
}

#[test]
fn ch14_completion_offers_steps_names_and_claim_words() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = road(dir.path());
    let mut ws = Workspace::new();
    let road = open_played(&mut ws, &dir, "road.dotc");
    let text = ws.get(&road).expect("open").text.to_string();
    let offset = |needle: &str, shift: usize| at(&text, needle, 0, shift);
    // The step words at the start of a line of an `after` block.
    let steps = ["field", "surgeon", "experience", "trait", "promotion", "officer", "replacements"];
    assert_eq!(labels(&ws, &road, offset("            field none", 12)), steps);
    // The units of battle 1's scenario after `surgeon `, each inserted quoted.
    let units = labels(&ws, &road, offset("surgeon \"12th", 8));
    assert_eq!(units[..3], ["12th New Jersey", "19th Maine", "Battery K, 4th U.S."]);
    assert_eq!(units.len(), 12, "{units:?}");
    let doc = ws.get(&road).expect("open");
    let item = completion::completion(doc, offset("surgeon \"12th", 9)).into_iter().next().expect("an item");
    match item.text_edit {
        Some(CompletionTextEdit::Edit(edit)) => {
            assert_eq!(edit.new_text, "\"12th New Jersey\"");
            // The whole string is replaced.
            assert_eq!(
                edit.range.end.character - edit.range.start.character,
                "\"12th New Jersey\"".len() as u32
            );
        }
        other => panic!("a text edit: {other:?}"),
    }
    // Sides after `field`, with `none` (dotc D31); brigadiers after `promotion`.
    assert_eq!(labels(&ws, &road, offset("field union", 6)), ["union", "confederate", "none"]);
    assert_eq!(
        labels(&ws, &road, offset("promotion \"Col", 10)),
        ["Col. Asa Hollister", "Col. Jacob Ostrander", "Brig. Gen. Émile Laforêt", "Col. Thomas Carrow"]
    );
    // The feats after an experience step's unit; the Army Traits after a trait step's.
    assert_eq!(labels(&ws, &road, offset("charged =>", 0)), ["charged", "held", "inflicted"]);
    assert_eq!(labels(&ws, &road, offset("trait \"9th Louisiana\" ", 22)), ["steady", "sharpshooters"]);
    // The claim words after `=>`.
    assert_eq!(labels(&ws, &road, offset("=> returns", 3)), ["returns", "hospital", "lost", "captured"]);
    assert_eq!(labels(&ws, &road, offset("=> xp 2", 3)), ["xp", "green", "regular", "veteran", "elite"]);
    assert_eq!(labels(&ws, &road, offset("=> promoted", 3)), ["promoted", "not promoted"]);
    // A draft's regiments, of its side.
    let draft = labels(&ws, &road, offset("\"9th Louisiana\" 2 =>", 0));
    assert_eq!(
        draft,
        [
            "6th Louisiana",
            "9th Louisiana",
            "50th Georgia",
            "51st Georgia",
            "Hart’s Georgia Battery",
            "7th Virginia Cavalry"
        ]
    );
    // A battle's statements; the campaign's.
    assert_eq!(
        labels(&ws, &road, offset("        scenario \"fence-line-won", 8)),
        ["scenario", "log", "after"]
    );
    assert_eq!(labels(&ws, &road, offset("    battle \"The Fence Line again", 4)), ["battle", "rules"]);
}

/// Ch14 2.0: while the post-battle sequence of the last played battle is being written, the
/// units that lost stands in it (awaiting the Surgeon, as the last play found them) come first
/// after `surgeon`; the play is kept while the half-typed step has errors.
#[test]
fn ch14_2_0_surgeon_completes_the_units_awaiting_the_surgeon_first() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = road(dir.path());
    let text = std::fs::read_to_string(dir.join("road.dotc")).expect("road");
    // Battle 2 without its sequence, and without battle 3.
    let start = at(&text, "        after {\n            field union", 0, 0);
    let cut = text[..start].to_string() + "    }\n}\n";
    std::fs::write(dir.join("due.dotc"), &cut).expect("written");
    let mut ws = Workspace::new();
    let due = open_played(&mut ws, &dir, "due.dotc");
    // Type the start of the sequence: `after {` and a `surgeon ` step.
    let typed = "        after {\n            surgeon \n        }\n";
    let line = cut[..start].matches('\n').count() as u32;
    let here = Position { line, character: 0 };
    let change = TextDocumentContentChangeEvent {
        range: Some(Range { start: here, end: here }),
        range_length: None,
        text: typed.to_string(),
    };
    ws.change(&due, 2, vec![change]).expect("a newer version");
    let doc = ws.get(&due).expect("open");
    assert!(doc.analyzed.campaign.is_some(), "the last play is kept");
    let offset = at(&doc.text, "surgeon \n", 0, 8);
    let units = labels(&ws, &due, offset);
    // The replay of battle 2 loses one stand each of these four (road.dotc's comment).
    let mut first: Vec<String> = units[..4].to_vec();
    first.sort();
    assert_eq!(first, ["12th New Jersey", "19th Maine", "50th Georgia", "9th Louisiana"], "{units:?}");
    assert_eq!(units.len(), 12);
}

#[test]
fn ch14_definition_goes_to_the_battles_scenario_and_files() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = road(dir.path());
    let mut ws = Workspace::new();
    let road = open_played(&mut ws, &dir, "road.dotc");
    let doc = ws.get(&road).expect("open");
    let text = doc.text.to_string();
    let place = |needle: &str, nth: usize| {
        navigate::definition(&ws, doc, at(&text, needle, nth, 2))
            .map(|l| (l.uri.path().as_str().rsplit('/').next().unwrap_or("").to_string(), l.range))
    };
    let range = |line: u32, from: u32, to: u32| Range {
        start: Position { line, character: from },
        end: Position { line, character: to },
    };
    let scenario = std::fs::read_to_string(dir.join("fence-line-won.dotc")).expect("readable");
    let line_of = |needle: &str| scenario[..at(&scenario, needle, 0, 0)].matches('\n').count() as u32;
    // The 19th Maine of battle 2: its declaration in battle 2's scenario (the quoted name).
    let maine = line_of("regiment \"19th Maine\"");
    assert_eq!(
        place("\"19th Maine\" roll", 1),
        Some(("fence-line-won.dotc".to_string(), range(maine, 21, 33)))
    );
    let hollister = line_of("\"Col. Asa Hollister\"");
    assert_eq!(
        place("\"Col. Asa Hollister\"", 0),
        Some(("fence-line-won.dotc".to_string(), range(hollister, 22, 42)))
    );
    // The scenario and log paths: the files.
    assert_eq!(
        place("\"fence-line-won.dotc\"", 0),
        Some(("fence-line-won.dotc".to_string(), range(0, 0, 0)))
    );
    assert_eq!(
        place("\"fence-line-won-game.dotc\"", 0),
        Some(("fence-line-won-game.dotc".to_string(), range(0, 0, 0)))
    );
}

/// One edit of a rename: (line, start, end, new text).
type Placed = (u32, u32, u32, String);

/// A rename's edits, by file name.
fn edits_by_file(edit: WorkspaceEdit) -> Vec<(String, Vec<Placed>)> {
    let mut out: Vec<(String, Vec<Placed>)> = edit
        .changes
        .unwrap_or_default()
        .into_iter()
        .map(|(uri, edits)| {
            let file = uri.path().as_str().rsplit('/').next().unwrap_or("").to_string();
            let mut edits: Vec<_> = edits
                .into_iter()
                .map(|e| (e.range.start.line, e.range.start.character, e.range.end.character, e.new_text))
                .collect();
            edits.sort();
            (file, edits)
        })
        .collect();
    out.sort();
    out
}

/// The (line, start, end) of every quoted `name` in a file of the folder, inside the quotes,
/// in characters (the names here are ASCII up to them on their lines).
fn mentions(dir: &Path, file: &str, name: &str, new: &str) -> Vec<Placed> {
    let text = std::fs::read_to_string(dir.join(file)).expect("readable");
    let quoted = format!("\"{name}\"");
    // A name inside a scenario's script is Rhai's, which a rename leaves alone (as before).
    let in_script = |i: usize| text[..i].rsplit('\n').next().unwrap_or("").contains("game.");
    text.match_indices(&quoted)
        .filter(|(i, _)| !in_script(*i))
        .map(|(i, _)| {
            let line = text[..i].matches('\n').count() as u32;
            let column = text[..i].rsplit('\n').next().unwrap_or("").chars().count() as u32 + 1;
            (line, column, column + name.chars().count() as u32, new.to_string())
        })
        .collect()
}

#[test]
fn ch14_rename_edits_the_campaign_its_scenarios_and_logs() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = road(dir.path());
    let mut ws = Workspace::new();
    ws.roots = vec![dir.clone()];
    let road = open_played(&mut ws, &dir, "road.dotc");
    let doc = ws.get(&road).expect("open");
    let text = doc.text.to_string();
    // From the campaign: every mention in it, in both scenarios that declare the unit and in
    // both battles' logs.
    let (new, name) = ("19th Maine Volunteers", "19th Maine");
    let edit = navigate::rename(&ws, doc, at(&text, "\"19th Maine\" roll", 1, 2), new)
        .expect("ok")
        .expect("an edit");
    let files = [
        "fence-line-game.dotc",
        "fence-line-won-game.dotc",
        "fence-line-won.dotc",
        "fence-line.dotc",
        "road.dotc",
    ];
    let expected: Vec<_> = files.iter().map(|f| (f.to_string(), mentions(&dir, f, name, new))).collect();
    assert!(expected.iter().all(|(_, e)| !e.is_empty()));
    assert_eq!(edits_by_file(edit), expected);

    // A name a battle's scenario already has is refused.
    let taken = navigate::rename(&ws, doc, at(&text, "\"19th Maine\" roll", 1, 2), "12th New Jersey");
    assert_eq!(taken, Err("fence-line.dotc already has a \"12th New Jersey\"".to_string()));

    // The references are the same places, each string whole.
    let found = navigate::references(&ws, doc, at(&text, "\"19th Maine\" roll", 1, 2), true).expect("some");
    let mut places: Vec<(String, u32, u32, u32)> = found
        .iter()
        .map(|l| {
            let file = l.uri.path().as_str().rsplit('/').next().unwrap_or("").to_string();
            (file, l.range.start.line, l.range.start.character + 1, l.range.end.character - 1)
        })
        .collect();
    places.sort();
    let mut wanted: Vec<(String, u32, u32, u32)> = expected
        .iter()
        .flat_map(|(f, edits)| edits.iter().map(move |(l, s, e, _)| (f.clone(), *l, *s, *e)))
        .collect();
    wanted.sort();
    assert_eq!(places, wanted);

    // Prepare-rename refuses, with a reason, what is not a unit or brigadier.
    for (needle, why) in [
        ("\"fence-line-won.dotc\"", "a file path is not a name: rename the file"),
        ("\"The Fence Line again\"", "a battle's name is the campaign's own: edit it in place"),
        ("field union", "only a unit's or a brigadier's quoted name can be renamed in a campaign"),
    ] {
        assert_eq!(campaign::prepare_rename(doc, at(&text, needle, 0, 2)), Err(why.to_string()));
        assert_eq!(navigate::rename(&ws, doc, at(&text, needle, 0, 2), "x"), Err(why.to_string()));
    }
    assert_eq!(
        campaign::prepare_rename(doc, at(&text, "\"Col. Asa Hollister\"", 0, 2)).map(|f| f.map(|(n, _)| n)),
        Ok(Some("Col. Asa Hollister".to_string()))
    );

    // From a scenario the campaign plays (the campaign not open: found on disk): the campaign's
    // mentions too, and its other battle's scenario and log.
    ws.close(&road);
    let scenario = open(&mut ws, &dir, "fence-line-won.dotc");
    let doc = ws.get(&scenario).expect("open");
    let (new, name) = ("Col. J. Ostrander", "Col. Jacob Ostrander");
    let edit = navigate::rename(&ws, doc, at(&doc.text, "\"Col. Jacob Ostrander\"", 0, 2), new)
        .expect("ok")
        .expect("an edit");
    let expected: Vec<_> = files.iter().map(|f| (f.to_string(), mentions(&dir, f, name, new))).collect();
    assert!(expected.iter().all(|(_, e)| !e.is_empty()));
    assert_eq!(edits_by_file(edit), expected);
    // Its references reach the campaign too.
    let found =
        navigate::references(&ws, doc, at(&doc.text, "\"Col. Jacob Ostrander\"", 0, 2), true).expect("some");
    let road_line = expected.iter().find(|(f, _)| f == "road.dotc").map(|(_, e)| e[0].0);
    assert!(
        found
            .iter()
            .any(|l| l.uri.path().as_str().ends_with("/road.dotc") && Some(l.range.start.line) == road_line)
    );
}

/// Every feature at every offset of a text, and past its end: none may panic.
fn poke_everywhere(ws: &Workspace, uri: &Uri) {
    let doc = ws.get(uri).expect("open");
    for offset in (0..=doc.text.len() + 3).filter(|o| *o > doc.text.len() || doc.text.is_char_boundary(*o)) {
        let _ = hover::hover(doc, offset);
        let _ = completion::completion(doc, offset);
        let _ = navigate::definition(ws, doc, offset);
        let _ = campaign::prepare_rename(doc, offset);
        let _ = navigate::rename(ws, doc, offset, "New Name");
        let _ = navigate::references(ws, doc, offset, true);
    }
    let whole = Span::new(0, doc.text.len());
    let _ = dotc_lsp::hints::inlay_hints(doc, whole);
    let _ = dotc_lsp::hints::code_actions(doc, whole);
    let _ = dotc_lsp::outline::symbols(doc);
    let _ = dotc_lsp::outline::folding_of(&doc.text, &doc.index);
    let _ = dotc_lsp::outline::format(doc);
}

#[test]
fn nothing_panics_on_a_broken_campaign() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = road(dir.path());
    let text = std::fs::read_to_string(dir.join("road.dotc")).expect("road");
    let broken = [
        // A battle whose scenario is missing.
        text.replace("scenario \"fence-line-won.dotc\"", "scenario \"nowhere.dotc\""),
        // A half-typed step, an unclosed string.
        text.replace("            field none\n", "            surgeon \"19th Ma\n            experience\n"),
        // Cut off in the middle.
        text[..text.len() / 2].to_string(),
        String::from("campaign \"x\" {\n    battle \"b\" {\n        after {\n            surgeon "),
    ];
    for (i, body) in broken.iter().enumerate() {
        let name = format!("broken-{i}.dotc");
        std::fs::write(dir.join(&name), body).expect("written");
        let mut ws = Workspace::new();
        let uri = open(&mut ws, &dir, &name);
        poke_everywhere(&ws, &uri);
        if let Some(job) = ws.audit_job(&uri, 1) {
            let analyzed = job.run().expect("not cancelled");
            ws.finish_audit(&uri, &job, analyzed);
        }
        assert!(ws.get(&uri).expect("open").analyzed.crashed.is_none());
        poke_everywhere(&ws, &uri);
    }
}

/// Ch14 4.0: a severely wounded brigadier's battles out and who commands in his place; a killed
/// one's successor (tests/campaign/staff.dotc).
#[test]
fn ch14_4_0_hover_on_a_wounded_and_a_killed_brigadier() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for file in ["staff.dotc", "staff-ride.dotc", "staff-ride-game.dotc"] {
        let text = std::fs::read_to_string(repo().join("tests/campaign").join(file)).expect("readable");
        std::fs::write(dir.path().join(file), text).expect("written");
    }
    let mut ws = Workspace::new();
    let staff = open_played(&mut ws, dir.path(), "staff.dotc");
    let (yates, _) = split_hover(&hover_at(&ws, &staff, "\"Col. Yates\" roll", 0, 1).expect("a hover"));
    // Yates: severely wounded in battle 1 (Ch16 2.4's 5), out 2 on a 4 (RULINGS G2): he
    // misses battles 2 and 3; Col. Ide, the scenario's replacement, commands as timid.
    assert_eq!(
        yates,
        "**Col. Yates**: brigadier, union, in battle 1 \"The Staff Ride\"\n\n\
         *As battle 1 began*:\n\
         - rating reliable\n\
         - brigade: Yates' Brigade\n\n\
         *After its post-battle sequence, as battle 2 began*:\n\
         - rating reliable\n\
         - brigade: Yates' Brigade\n\
         - severely wounded in battle 1 (Ch14 4.0)\n\
         - out with his wound: back for battle 4 (Ch14 4.0)\n\
         - Col. Ide commands in his place, timid"
    );
    let (kane, _) = split_hover(&hover_at(&ws, &staff, "\"Col. Kane\" roll", 0, 1).expect("a hover"));
    // Kane: killed in battle 1, his successor rolled 3: timid (Ch14 4.0, dotc D39).
    assert_eq!(
        kane,
        "**Col. Kane**: brigadier, union, in battle 1 \"The Staff Ride\"\n\n\
         *As battle 1 began*:\n\
         - rating aggressive\n\
         - brigade: Kane's Brigade\n\n\
         *After its post-battle sequence, as battle 2 began*:\n\
         - rating timid\n\
         - brigade: Kane's Brigade\n\
         - killed in battle 1: a new brigadier holds his command for good, at the rating above, \
         under his name in the roster (Ch14 4.0, dotc D39)"
    );
}
