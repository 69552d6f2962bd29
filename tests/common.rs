// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

//! Shared helpers of the integration tests: one `check` per layer, as the house style asks.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dotc_lang::FsLoader;
use dotc_lang::diagnostic::{Diagnostic, render_plain};

/// Every diagnostic `dotc check` gives for a file (`dotc_runtime::check::check_diagnostics`:
/// `check_file`'s, which the language server gives at each keystroke, and the slow checks it
/// gives after a pause), sorted by position.
pub fn check_file(path: &Path) -> (String, Vec<Diagnostic>) {
    let source = std::fs::read_to_string(path).expect("fixture is readable");
    let diagnostics = dotc_runtime::check::check_diagnostics(path, &source, &FsLoader);
    (source, diagnostics)
}

/// The codes a fixture expects, from its `// expect: dotc::code` lines, in file order.
pub fn expected_codes(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| line.trim().strip_prefix("// expect:"))
        .map(|code| code.trim().to_string())
        .collect()
}

/// Render diagnostics as the tests see them: Unicode, no colour, 80 columns, no links.
pub fn render(diagnostics: &[Diagnostic], name: &str, source: &str) -> String {
    render_plain(diagnostics, name, source)
}

/// Every shipped `.dotc` file: scenarios and the stdlib.
pub fn shipped_files() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    dotc_files_under(vec![root.join("scenarios"), root.join("stdlib")])
}

/// Every `.dotc` file under these folders, at any depth, sorted.
pub fn dotc_files_under(mut stack: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "dotc") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Run the `dotc` binary in `dir`.
pub fn dotc(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dotc")).args(args).current_dir(dir).output().expect("dotc runs")
}

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Command output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every RULE id printed in `05-ranged-combat.txt` and `07-morale-leaders.txt` (the rulebook
/// is not part of this repository, so the list is kept here; RULE-05-2.5 is printed twice and
/// also keyed 2.5a/2.5b, RULINGS G21). RULE-05-7.0 is the modifiers section the code cites.
pub const RULE_IDS: &[&str] = &[
    "RULE-05-1.1",
    "RULE-05-1.2",
    "RULE-05-1.3",
    "RULE-05-1.4",
    "RULE-05-1.5",
    "RULE-05-2.1",
    "RULE-05-2.2",
    "RULE-05-2.3",
    "RULE-05-2.4",
    "RULE-05-2.5",
    "RULE-05-2.5a",
    "RULE-05-2.5b",
    "RULE-05-3.1",
    "RULE-05-3.2",
    "RULE-05-3.3",
    "RULE-05-3.4",
    "RULE-05-4.1",
    "RULE-05-4.2",
    "RULE-05-4.3",
    "RULE-05-4.4",
    "RULE-05-5.1",
    "RULE-05-5.2",
    "RULE-05-5.3",
    "RULE-05-5.4",
    "RULE-05-5.5",
    "RULE-05-6.1",
    "RULE-05-6.2",
    "RULE-05-6.3",
    "RULE-05-7.0",
    "RULE-07-1.1",
    "RULE-07-1.2",
    "RULE-07-1.3",
    "RULE-07-1.4",
    "RULE-07-1.5",
    "RULE-07-2.1",
    "RULE-07-2.2",
    "RULE-07-2.3",
    "RULE-07-2.4",
    "RULE-07-2.5",
    "RULE-07-3.1",
    "RULE-07-3.2",
    "RULE-07-3.3",
    "RULE-07-3.4",
    "RULE-07-3.5",
    "RULE-07-4.1",
    "RULE-07-4.2",
    "RULE-07-4.3",
    "RULE-07-4.4",
    "RULE-07-4.5",
];

/// A command line's words as a shell splits them, with double quotes only (the README's and the
/// man pages' examples), up to a `#` comment outside quotes.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted && word.is_empty() => break,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}
