//! `dotc replay GAME --html OUT.html` (issue 21): every step of the game on the page, the same
//! bytes every time, nothing from the log unescaped, and a log with problems still a page. The
//! page in a real browser is tests/browser/'s.

mod common;

use std::path::Path;

use common::{dotc, root, text};

const TUTORIAL: &str = "scenarios/tutorial/fence-line-game.dotc";

/// Write the page of `game` (relative to `dir`) and read it back, with the command's output.
fn page(game: &str, dir: &Path, out: &Path) -> (String, std::process::Output) {
    let output = dotc(&["replay", game, "--html", out.to_str().unwrap()], dir);
    (std::fs::read_to_string(out).unwrap_or_default(), output)
}

/// The page's data: the JSON of its `dotc-data` script element.
fn data(html: &str) -> serde_json::Value {
    let open = "<script type=\"application/json\" id=\"dotc-data\">";
    let from = html.find(open).expect("the page has its data") + open.len();
    let to = from + html[from..].find("</script>").expect("the data ends");
    serde_json::from_str(&html[from..to]).expect("the data is JSON")
}

/// The narrative's actions as `dotc replay` prints them: each `line N: TEXT` with the event
/// lines under it.
fn narrated_actions(narrative: &str) -> Vec<(u64, String, Vec<String>)> {
    let mut out: Vec<(u64, String, Vec<String>)> = Vec::new();
    for line in narrative.lines() {
        if let Some(rest) = line.strip_prefix("    line ") {
            let (n, action) = rest.split_once(": ").unwrap();
            out.push((n.parse().unwrap(), action.to_string(), Vec::new()));
        } else if let Some(event) = line.strip_prefix("      ")
            && let Some(last) = out.last_mut()
            && !event.starts_with('!')
        {
            last.2.push(event.to_string());
        } else if !line.starts_with("      ") {
            // A heading ("Turn 2", "  Phase 3, fire", "  End of the turn") closes the action.
            out.push((0, String::new(), Vec::new()));
        }
    }
    out.retain(|(n, ..)| *n > 0);
    out
}

/// The page's steps with a line of the log are the narrative's actions of `game`, in order,
/// each quoting the action and telling exactly the events the narrative tells under it.
fn steps_are_the_narrative(game: &str, data: &serde_json::Value) {
    let steps: Vec<&serde_json::Value> =
        data["steps"].as_array().unwrap().iter().filter(|s| s["line"].as_u64() != Some(0)).collect();
    let actions = narrated_actions(&text(&dotc(&["replay", game, "--rules"], &root()).stdout));
    assert_eq!(steps.len(), actions.len(), "{game}");
    // What each step shows by default is `dotc replay`'s story: its sentences, in its order.
    let story = text(&dotc(&["replay", game], &root()).stdout);
    let sentences: Vec<&str> = story
        .lines()
        .filter(|l| l.starts_with("    ") && !l.trim_start().starts_with('!'))
        .map(str::trim)
        .collect();
    let shown: Vec<&str> = data["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["story"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()))
        .collect();
    assert_eq!(shown, sentences, "{game}: the page's story is not dotc replay's");
    for (step, (line, action, events)) in steps.iter().zip(&actions) {
        assert_eq!(
            (step["line"].as_u64(), step["text"].as_str()),
            (Some(*line), Some(action.as_str())),
            "{game}"
        );
        let told: Vec<String> = step["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| format!("{}  [{}]", e[0].as_str().unwrap(), e[1].as_str().unwrap()))
            .collect();
        assert_eq!(&told, events, "{game} line {line}");
    }
}

#[test]
fn the_tutorial_page_has_every_action_as_a_step_with_its_narrative() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tutorial.html");
    let (html, output) = page(TUTORIAL, &root(), &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let data = data(&html);
    let steps = data["steps"].as_array().unwrap();
    // One step per action of the log, in order, each quoting the action and telling exactly
    // the events the narrative tells under it, with their rules.
    steps_are_the_narrative(TUTORIAL, &data);
    // The start, and each of the log's three turns' end.
    assert_eq!(steps[0]["id"], "start");
    let ends: Vec<&str> =
        steps.iter().filter_map(|s| s["id"].as_str()).filter(|id| id.ends_with("-end")).collect();
    assert_eq!(ends, ["t1-end", "t2-end", "t3-end"]);
    // Every id is its own, and the first fire of turn 2 is the 12th New Jersey's volley.
    let mut ids: Vec<&str> = steps.iter().map(|s| s["id"].as_str().unwrap()).collect();
    let fire = steps.iter().find(|s| s["id"] == "t2-fire-1").expect("a step t2-fire-1");
    assert!(fire["text"].as_str().unwrap().starts_with("fire \"12th New Jersey\""));
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), steps.len());
    // The JSON replay's events are all told, once each.
    let json: serde_json::Value =
        serde_json::from_slice(&dotc(&["replay", TUTORIAL, "--format", "json"], &root()).stdout).unwrap();
    let told: usize = steps.iter().map(|s| s["events"].as_array().unwrap().len()).sum();
    assert_eq!(told, json["events"].as_array().unwrap().len());
    // Its rosters end as the replay's summary does.
    let last = &data["rosters"][steps.last().unwrap()["roster"].as_u64().unwrap() as usize];
    for unit in json["summary"]["units"].as_array().unwrap() {
        let row = last
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|side| side["units"].as_array().unwrap())
            .map(|i| &data["units"][i.as_u64().unwrap() as usize])
            .find(|u| u["name"] == unit["name"])
            .expect("every unit on the roster");
        assert_eq!(row["stands"], unit["stands"], "{}", unit["name"]);
        assert_eq!(row["health"], unit["health"], "{}", unit["name"]);
    }
    // The page needs no network.
    for needle in ["http://", "https://", "src=", "@import", "url(http"] {
        let outside_svg_namespace = html.replace("http://www.w3.org/2000/svg", "");
        assert!(!outside_svg_namespace.contains(needle), "the page reaches out: {needle}");
    }
}

#[test]
fn the_page_is_the_same_bytes_every_time() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.html"), dir.path().join("b.html"));
    let (first, _) = page(TUTORIAL, &root(), &a);
    let (second, _) = page(TUTORIAL, &root(), &b);
    assert!(!first.is_empty());
    assert!(first == second, "two pages of one log differ");
}

#[test]
fn names_from_a_hostile_log_are_escaped_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = "9th </script><script>alert(\\\"x\\\")</script> & <b>Co's</b>";
    let scenario = std::fs::read_to_string(root().join("scenarios/tutorial/fence-line.dotc")).unwrap();
    let game = std::fs::read_to_string(root().join(TUTORIAL)).unwrap();
    std::fs::write(dir.path().join("fence-line.dotc"), scenario.replace("9th Louisiana", hostile)).unwrap();
    std::fs::write(dir.path().join("game.dotc"), game.replace("9th Louisiana", hostile)).unwrap();
    let out = dir.path().join("hostile.html");
    let (html, output) = page("game.dotc", dir.path(), &out);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    // The name reaches the page, but never as markup: one script element of data, one of code.
    assert_eq!(html.matches("<script").count(), 2, "a name opened a script element");
    assert!(!html.contains("<b>Co"));
    assert!(!html.contains("alert(\"x\")</script>"));
    let data = data(&html);
    // The map's forces hold it escaped as SVG text (the script sets them as markup).
    let escaped =
        "&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;Co&apos;s&lt;/b&gt;";
    let pieces = data["lines"].as_array().unwrap();
    assert!(pieces.iter().any(|l| l.as_str().unwrap().contains(escaped)), "the map shows the name escaped");
    assert!(!pieces.iter().any(|l| l.as_str().unwrap().contains("<script")));
    let named = data["rosters"][0]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|side| side["units"].as_array().unwrap())
        .map(|i| &data["units"][i.as_u64().unwrap() as usize])
        .any(|u| u["name"] == "9th </script><script>alert(\"x\")</script> & <b>Co's</b>");
    assert!(named, "the roster holds the name as written");
}

#[test]
fn a_log_with_wrong_claims_is_a_page_with_its_findings_at_their_steps() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("wrong.html");
    let (html, output) = page("tests/fixtures/replay/wrong-claims.dotc", &root(), &out);
    // As `dotc replay` says: exit 1 for the findings, and the page written all the same.
    assert_eq!(output.status.code(), Some(1));
    let data = data(&html);
    let at = |line: u64| {
        data["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["line"].as_u64() == Some(line))
            .map(|s| {
                s["findings"].as_array().unwrap().iter().map(|f| f[1].as_str().unwrap().to_string()).collect()
            })
            .unwrap_or_else(Vec::<String>::new)
    };
    assert!(at(13).iter().any(|f| f.contains("the rules give 4, the log claims 3")), "{:?}", at(13));
    assert!(at(19).iter().any(|f| f.contains("the rules give 1, the log claims 2")), "{:?}", at(19));
    assert!(html.contains("<a href=\"#t1-command-1\">"), "the findings list links to the step");
}

#[test]
fn a_log_with_errors_is_a_located_error_and_no_page() {
    let dir = tempfile::tempdir().unwrap();
    let game = std::fs::read_to_string(root().join(TUTORIAL)).unwrap();
    std::fs::write(
        dir.path().join("fence-line.dotc"),
        std::fs::read(root().join("scenarios/tutorial/fence-line.dotc")).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("game.dotc"),
        game.replace("\"9th Louisiana\" assault_column", "\"9th Lousiana\" assault_column"),
    )
    .unwrap();
    let out = dir.path().join("broken.html");
    let (html, output) = page("game.dotc", dir.path(), &out);
    assert_eq!(output.status.code(), Some(1));
    assert!(html.is_empty(), "no page for a log that cannot be replayed");
    let said = text(&output.stderr);
    assert!(said.contains("game.dotc:") && said.contains("9th Lousiana"), "{said}");
}

#[test]
fn every_shipped_game_is_a_page_whose_steps_are_the_narratives() {
    let dir = tempfile::tempdir().unwrap();
    let mut games: Vec<_> = std::fs::read_dir(root().join("scenarios/gettysburg-day1"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().is_some_and(|p| p.ends_with("-game.dotc")))
        .collect();
    games.sort();
    assert!(games.len() >= 8);
    for game in games {
        let name = game.strip_prefix(root()).unwrap().to_str().unwrap().to_string();
        let (html, output) = page(&name, &root(), &dir.path().join("game.html"));
        assert_eq!(output.status.code(), Some(0), "{name}: {}", text(&output.stderr));
        let data = data(&html);
        steps_are_the_narrative(&name, &data);
    }
}
