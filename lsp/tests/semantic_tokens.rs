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

use dotc_lsp::workspace::Workspace;
use tower_lsp_server::ls_types::{Range, SemanticToken, TextDocumentContentChangeEvent, Uri};

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
    dotc_lsp::outline::semantic_tokens(ws.get(uri).expect("open"))
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
