//! Semantic tokens against a recorded oracle: the tokens of every `.dotc` file in the
//! repository, of the generated 100,000-line log and of seeded random edits of two shipped
//! logs, as the first implementation (a lex of the whole text, each word looked up in the rule
//! data, each position converted on its own) made them, kept as one digest per text in
//! `tests/fixtures/semantic_tokens.oracle`. The faster computation must give the same bytes.
//!
//! The oracle was recorded with `DOTC_RECORD_SEMANTIC_TOKENS=1 cargo test -p dotc-lsp --test
//! semantic_tokens` before the tokens were made faster. A change to the language's keywords,
//! verbs or stdlib, to a file listed here, or to the log generator changes the tokens of some
//! texts honestly: then record it again (the oracle guards the tokens code against itself, not
//! the language).

use std::path::{Path, PathBuf};

use dotc_lsp::semantic::{Answer, DocumentTokens, TokenInputs};
use dotc_lsp::workspace::Workspace;
use tower_lsp_server::ls_types::{
    Range, SemanticToken, SemanticTokensEdit, TextDocumentContentChangeEvent, Uri,
};

#[path = "../../lang/benches/support/log.rs"]
#[allow(dead_code)]
mod log;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

const ORACLE: &str = "tests/fixtures/semantic_tokens.oracle";

/// The folders whose `.dotc` files are read (a file that is not UTF-8 is left out: the editor
/// sends text).
const FOLDERS: &[&str] = &[
    "scenarios",
    "stdlib",
    "tests",
    "lang/templates",
    "lsp/editors/vscode/test/grammar",
    "fuzz/regressions",
];

fn dotc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            dotc_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "dotc") {
            out.push(path);
        }
    }
}

/// FNV-1a over bytes.
fn fnv(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn digest(tokens: &[SemanticToken]) -> u64 {
    fnv(tokens.iter().flat_map(|t| {
        [t.delta_line, t.delta_start, t.length, t.token_type, t.token_modifiers_bitset]
            .into_iter()
            .flat_map(u32::to_le_bytes)
    }))
}

/// One line of the oracle: the tokens' digest and count, the text's digest, and what it is.
fn oracle_line(name: &str, text: &str, tokens: &[SemanticToken]) -> String {
    format!("{:016x} {} {:016x} {name}", digest(tokens), tokens.len(), fnv(text.bytes()))
}

/// The semantic tokens of a document of a workspace.
fn tokens_of(ws: &Workspace, uri: &Uri) -> Vec<SemanticToken> {
    dotc_lsp::semantic::semantic_tokens(ws.get(uri).expect("open"))
}

fn file_uri(path: &Path) -> Uri {
    format!("file://{}", path.display()).parse().expect("a file URI")
}

/// A seeded generator of edits: the LCG of the log generator.
struct Edits(log::Lcg);

/// Fragments that open or close what spans lines, and text that is not ASCII.
const FRAGMENTS: &[&str] = &[
    "/*",
    "*/",
    "\"\"\"",
    "```",
    "`",
    "\"",
    "\\",
    "\\\n",
    "//",
    "\n",
    "\r\n",
    "\r",
    "\n/* a\r\nb */\n",
    "\"\"\"\nthe fence line \u{2019}s\n\"\"\"",
    "```\nlet x = 1;\n```",
    "\"6th Louisiana\"",
    "\"Brig. Gen. \u{c9}mile Lafor\u{ea}t\"",
    "\"\u{1d504}\u{1d505}\"",
    "fire",
    "turn 99 union {",
    "}",
    "@allow(dotc::unknown-unit)",
    "rifled_musket",
    "=> hits 2",
    " 4+ -1 12:30 ",
    "\u{e9}",
    "\u{1d504}",
];

impl Edits {
    /// Replace a random stretch of `text` (at most a few lines) with a fragment or nothing.
    fn edit(&mut self, text: &str) -> (Range, String, usize, usize) {
        let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let start = boundaries[self.0.below(boundaries.len() as u64) as usize];
        let mut end = start;
        if self.0.below(3) == 0 {
            let room = boundaries.partition_point(|&b| b < start);
            let reach = (room + self.0.below(200) as usize).min(boundaries.len() - 1);
            end = boundaries[reach];
        }
        let insert = if self.0.below(4) == 0 {
            String::new()
        } else {
            FRAGMENTS[self.0.below(FRAGMENTS.len() as u64) as usize].to_string()
        };
        let index = dotc_lsp::line_index::LineIndex::new(text);
        let range = Range { start: index.position(text, start), end: index.position(text, end) };
        (range, insert, start, end)
    }
}

/// Apply one edit to a document of a workspace, as the editor would send it.
fn change(ws: &mut Workspace, uri: &Uri, version: i32, range: Range, text: String) {
    let change = TextDocumentContentChangeEvent { range: Some(range), range_length: None, text };
    ws.change(uri, version, vec![change]).expect("a newer version");
}

/// Every text of the oracle with its tokens, in a fixed order: the repository's files, the
/// generated log, and two logs of the repository after each of 120 seeded random edits.
fn texts_and_tokens() -> Vec<(String, String, Vec<SemanticToken>)> {
    let mut out = Vec::new();
    let mut files = Vec::new();
    for folder in FOLDERS {
        dotc_files(&repo().join(folder), &mut files);
    }
    files.sort();
    let root = std::fs::canonicalize(repo()).expect("the repository");
    for path in files {
        let path = std::fs::canonicalize(&path).expect("a file of the repository");
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let mut ws = Workspace::new();
        let uri = file_uri(&path);
        ws.open(uri.clone(), 1, text.clone());
        let name = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
        let tokens = tokens_of(&ws, &uri);
        out.push((name, text, tokens));
    }

    let (text, turns) = log::generate_log(log::TARGET_LINES);
    let mut ws = Workspace::new();
    ws.open("file:///bench/fence-line.dotc".parse().expect("a URI"), 1, log::scenario_with_turns(turns + 1));
    let uri: Uri = "file:///bench/bench-game.dotc".parse().expect("a URI");
    ws.open(uri.clone(), 1, text.clone());
    let tokens = tokens_of(&ws, &uri);
    out.push(("generated 100,000-line log".to_string(), text, tokens));

    // Runs of 20 edits, each from the log as shipped, so the edits do not wear it away.
    let mut edits = Edits(log::Lcg(0x5eed_7011));
    for log in
        ["scenarios/tutorial/fence-line-game.dotc", "scenarios/gettysburg-day1/gettysburg-day1-game.dotc"]
    {
        let path = std::fs::canonicalize(repo().join(log)).expect("the log");
        let uri = file_uri(&path);
        for run in 0..3 {
            let mut text = std::fs::read_to_string(&path).expect("readable");
            let mut ws = Workspace::new();
            ws.open(uri.clone(), 1, text.clone());
            for version in 2..22 {
                let (range, insert, start, end) = edits.edit(&text);
                text.replace_range(start..end, &insert);
                change(&mut ws, &uri, version, range, insert);
                assert_eq!(ws.get(&uri).map(|d| d.text.as_str()), Some(text.as_str()));
                let tokens = tokens_of(&ws, &uri);
                out.push((format!("{log}, run {run}, edit {}", version - 1), text.clone(), tokens));
            }
        }
    }
    out
}

/// The tokens of every text are those the first implementation made (see the module's comment).
#[test]
fn tokens_equal_the_recorded_oracle() {
    let computed: Vec<String> =
        texts_and_tokens().iter().map(|(name, text, tokens)| oracle_line(name, text, tokens)).collect();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(ORACLE);
    if std::env::var_os("DOTC_RECORD_SEMANTIC_TOKENS").is_some() {
        std::fs::write(&path, computed.join("\n") + "\n").expect("write the oracle");
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("the recorded oracle");
    let recorded: Vec<&str> = recorded.lines().collect();
    assert_eq!(recorded.len(), computed.len(), "the oracle lists other texts: record it again");
    let mut wrong = Vec::new();
    for (want, got) in recorded.iter().zip(&computed) {
        if *want != got {
            let same_text = want.split(' ').nth(2) == got.split(' ').nth(2);
            let why = if same_text { "other tokens" } else { "the text changed" };
            wrong.push(format!("{why}:\n  recorded {want}\n  computed {got}"));
        }
    }
    assert!(wrong.is_empty(), "{} of {} texts differ:\n{}", wrong.len(), computed.len(), wrong.join("\n"));
}

/// Tokens decoded to where they are: line, column, length, type.
fn absolute(tokens: &[SemanticToken]) -> Vec<[u32; 4]> {
    let (mut line, mut column) = (0, 0);
    tokens
        .iter()
        .map(|t| {
            line += t.delta_line;
            column = if t.delta_line == 0 { column + t.delta_start } else { t.delta_start };
            [line, column, t.length, t.token_type]
        })
        .collect()
}

/// The whole file's tokens on lines `first..=last`, encoded as an answer of their own.
fn restricted(full: &[SemanticToken], first: u32, last: u32) -> Vec<SemanticToken> {
    let (mut previous_line, mut previous_column) = (0, 0);
    absolute(full)
        .into_iter()
        .filter(|[line, ..]| (first..=last).contains(line))
        .map(|[line, column, length, token_type]| {
            let delta_line = line - previous_line;
            let delta_start = if delta_line == 0 { column - previous_column } else { column };
            (previous_line, previous_column) = (line, column);
            SemanticToken { delta_line, delta_start, length, token_type, token_modifiers_bitset: 0 }
        })
        .collect()
}

/// A previous answer with a delta's edits applied, in the protocol's units (five numbers a token).
fn apply(previous: &[SemanticToken], edits: &[SemanticTokensEdit]) -> Vec<SemanticToken> {
    let flat = |tokens: &[SemanticToken]| -> Vec<u32> {
        tokens
            .iter()
            .flat_map(|t| [t.delta_line, t.delta_start, t.length, t.token_type, t.token_modifiers_bitset])
            .collect()
    };
    let mut data = flat(previous);
    // Edits apply to the previous data, so from the last to the first.
    let mut edits: Vec<&SemanticTokensEdit> = edits.iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.start));
    for edit in edits {
        let (start, end) = (edit.start as usize, (edit.start + edit.delete_count) as usize);
        data.splice(start..end, flat(edit.data.as_deref().unwrap_or(&[])));
    }
    assert_eq!(data.len() % 5, 0);
    data.chunks(5)
        .map(|c| SemanticToken {
            delta_line: c[0],
            delta_start: c[1],
            length: c[2],
            token_type: c[3],
            token_modifiers_bitset: c[4],
        })
        .collect()
}

/// Check the kept tokens of a document against tokens made afresh: a whole-file answer, a delta
/// from `previous` (which must turn it into the whole file's tokens) and ranges of lines.
/// Returns the new answer's id and tokens.
fn check_kept(
    kept: &mut DocumentTokens,
    inputs: &TokenInputs,
    previous: &(String, Vec<SemanticToken>),
    ranges: &[(u32, u32)],
    what: &str,
) -> (String, Vec<SemanticToken>) {
    let fresh = inputs.tokens();
    for &(first, last) in ranges {
        let got = kept.range(inputs, (first, last));
        assert_eq!(got, restricted(&fresh, first, last), "lines {first}..={last} {what}");
    }
    let (id, answer) = kept.delta(inputs, &previous.0);
    assert_ne!(id, previous.0);
    match answer {
        Answer::Delta(edits) => {
            assert_eq!(apply(&previous.1, &edits), fresh, "the delta {what}");
            assert_eq!(edits.is_empty(), previous.1 == fresh, "{what}");
            // One edit, between the longest common start and end.
            assert!(edits.len() <= 1, "{what}");
            if let Some(edit) = edits.first() {
                let (start, deleted) = (edit.start as usize / 5, edit.delete_count as usize / 5);
                let (old, inserted) =
                    (&previous.1[start..start + deleted], edit.data.as_deref().unwrap_or(&[]));
                assert!(old.is_empty() || old.first() != inserted.first(), "{what}");
                assert!(old.is_empty() || old.last() != inserted.last(), "{what}");
            }
        }
        Answer::Full(tokens) => {
            panic!("the previous answer {} was not kept {what}: {} tokens", previous.0, tokens.len())
        }
    }
    (id, fresh)
}

/// After each of 600 seeded random edits of two logs (among them openings and closings of
/// comments, text blocks, scripts and strings, and line breaks of every kind), the tokens kept
/// item by item are those made afresh: ranges of lines (some asked before any whole-file
/// answer, so items are lexed only as far as a range needs), and a delta from the last answer
/// whose edit turns it into the whole file's tokens. Half the time only ranges are asked
/// between edits, so the next delta spans several edits.
#[test]
fn kept_tokens_follow_random_edits() {
    let mut edits = Edits(log::Lcg(0x00de_17a5));
    for log in
        ["scenarios/tutorial/fence-line-game.dotc", "scenarios/gettysburg-day1/gettysburg-day1-game.dotc"]
    {
        let path = std::fs::canonicalize(repo().join(log)).expect("the log");
        let uri = file_uri(&path);
        for run in 0..10 {
            let mut text = std::fs::read_to_string(&path).expect("readable");
            let mut ws = Workspace::new();
            ws.open(uri.clone(), 1, text.clone());
            let mut kept = DocumentTokens::default();
            let inputs = TokenInputs::of(ws.get(&uri).expect("open"));
            // A range first, from nothing kept: only the items up to it are lexed.
            let lines = text.lines().count() as u32;
            let (first, last) = (lines / 3, lines / 3 + 20);
            assert_eq!(kept.range(&inputs, (first, last)), restricted(&inputs.tokens(), first, last));
            let (id, tokens) = kept.full(&inputs);
            let mut previous = (id, tokens.to_vec());
            assert_eq!(previous.1, inputs.tokens());
            for version in 2..32 {
                let (range, insert, start, end) = edits.edit(&text);
                text.replace_range(start..end, &insert);
                change(&mut ws, &uri, version, range, insert);
                let inputs = TokenInputs::of(ws.get(&uri).expect("open"));
                let lines = inputs.index.line_count() as u32;
                let mut ranges = Vec::new();
                for _ in 0..3 {
                    let first = edits.0.below(u64::from(lines) + 2) as u32;
                    ranges.push((first, first + edits.0.below(60) as u32));
                }
                let what = format!("after edit {} of run {run} of {log}", version - 1);
                if edits.0.below(2) == 0 {
                    for &(first, last) in &ranges {
                        let got = kept.range(&inputs, (first, last));
                        assert_eq!(
                            got,
                            restricted(&inputs.tokens(), first, last),
                            "lines {first}..={last} {what}"
                        );
                    }
                } else {
                    previous = check_kept(&mut kept, &inputs, &previous, &ranges, &what);
                }
            }
        }
    }
}

/// A range may start inside a block comment, a text block, a script fence or a string whose
/// line break is escaped, each holding lines that look like the start of a top-level item (a
/// word in the first column). Every range of every start line is the whole file's tokens of
/// its lines: asked of tokens kept from nothing (lexing only up to the range) and of tokens
/// kept from the previous ranges; with `\n`, `\r\n` and lone `\r` line breaks.
#[test]
fn a_range_starting_inside_a_token_that_spans_lines_is_the_whole_files_tokens_of_its_lines() {
    let text = [
        "game \"x\" { scenario \"fence-line.dotc\" }",
        "/* turn 1 is written out below",
        "turn 1 union {",
        "    fire { fire \"6th Louisiana\" at \"19th Maine\" }",
        "}",
        "*/",
        "turn 2 confederate {",
        "    note \"\"\"",
        "turn 3 union {",
        "    \u{e9}\u{1d504} \"quoted\"",
        "\"\"\"",
        "}",
        "```",
        "turn 4 union { `x` }",
        "```",
        "turn 5 union { fire \"a\\",
        "turn 6 union \" }",
        "// turn 7",
        "turn 8 union { 4+ -1 => x }",
    ];
    for line_break in ["\n", "\r\n", "\r"] {
        let text = text.join(line_break);
        let mut ws = Workspace::new();
        let uri: Uri = "file:///ranges/odd.dotc".parse().expect("a URI");
        ws.open(uri.clone(), 1, text.clone());
        let inputs = TokenInputs::of(ws.get(&uri).expect("open"));
        let full = inputs.tokens();
        let lines = inputs.index.line_count() as u32;
        assert_eq!(lines, 19, "{line_break:?}");
        let mut warm = DocumentTokens::default();
        for first in 0..lines {
            for last in first..lines + 1 {
                let want = restricted(&full, first, last);
                let cold = DocumentTokens::default().range(&inputs, (first, last));
                assert_eq!(cold, want, "lines {first}..={last} from nothing, {line_break:?}");
                assert_eq!(
                    warm.range(&inputs, (first, last)),
                    want,
                    "lines {first}..={last}, {line_break:?}"
                );
            }
        }
        // The first token of each line, its column and type: the lines inside the comment, the
        // text block and the script are pieces of those tokens, not items of their own. An
        // escaped line break goes on with the string, but `\` before `\r\n` escapes only the
        // `\r`: the `\n` ends the string there.
        let (keyword, string, number, comment, verb, operator, script) = (0, 1, 2, 3, 4, 7, 8);
        let continued = if line_break == "\r\n" { keyword } else { string };
        let mut want = vec![(0, 0, keyword), (1, 0, comment), (2, 0, comment), (3, 0, comment)];
        want.extend([(4, 0, comment), (5, 0, comment), (6, 0, keyword), (7, 4, verb), (8, 0, string)]);
        want.extend([(9, 0, string), (10, 0, string), (12, 0, script), (13, 0, script), (14, 0, script)]);
        want.extend([(15, 0, keyword), (16, 0, continued), (17, 0, comment), (18, 0, keyword)]);
        let mut first_of_line: Vec<(u32, u32, u32)> = Vec::new();
        for [line, column, _, kind] in absolute(&full) {
            if first_of_line.last().is_none_or(|(l, ..)| *l != line) {
                first_of_line.push((line, column, kind));
            }
        }
        assert_eq!(first_of_line, want, "{line_break:?}");
        let last_line: Vec<u32> = absolute(&full).into_iter().filter(|t| t[0] == 18).map(|t| t[3]).collect();
        // `union` is a side (not coloured); `x` is a keyword (dice counts).
        assert_eq!(last_line, [keyword, number, number, number, operator, keyword], "{line_break:?}");
    }
}

/// A whole-file answer written directly is byte for byte what `serde_json` writes of the same
/// tokens (issue 16: the stdio transport sends it as it is).
#[test]
fn a_whole_files_answer_is_written_as_serde_json_writes_it() {
    use dotc_lsp::semantic::tokens_json;
    use tower_lsp_server::ls_types::SemanticTokens;
    let path = std::fs::canonicalize(repo().join("scenarios/gettysburg-day1/gettysburg-day1-game.dotc"))
        .expect("the log");
    let mut ws = Workspace::new();
    let uri = file_uri(&path);
    ws.open(uri.clone(), 1, std::fs::read_to_string(&path).expect("readable"));
    let mut tokens = tokens_of(&ws, &uri);
    assert!(tokens.len() > 500, "{}", tokens.len());
    // Numbers of every length, and none at all.
    for n in [0, 9, 10, 99, 100, 65_535, 1_000_000, u32::MAX - 1, u32::MAX] {
        tokens.push(SemanticToken {
            delta_line: n,
            delta_start: n / 3,
            length: n / 7,
            token_type: n % 11,
            token_modifiers_bitset: n,
        });
    }
    for (id, data) in [("1", tokens.as_slice()), ("4294967297", &[]), ("an \"id\"", &tokens[..3])] {
        let serde =
            serde_json::to_vec(&SemanticTokens { result_id: Some(id.to_string()), data: data.to_vec() })
                .expect("serialisable");
        assert_eq!(String::from_utf8_lossy(&tokens_json(id, data)), String::from_utf8_lossy(&serde));
    }
}
