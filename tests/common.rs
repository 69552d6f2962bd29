// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

//! Shared helpers of the integration tests: one `check` per layer, as the house style asks.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dotc_lang::FsLoader;
use dotc_lang::diagnostic::{Diagnostic, render_plain};

/// Every diagnostic `dotc check` gives for a file (`dotc_runtime::check::check_file`, the one
/// the CLI and the language server use), sorted by position.
pub fn check_file(path: &Path) -> (String, Vec<Diagnostic>) {
    let source = std::fs::read_to_string(path).expect("fixture is readable");
    let diagnostics = dotc_runtime::check::check_file(path, &source, &FsLoader).diagnostics();
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
    let mut files = Vec::new();
    let mut stack = vec![root.join("scenarios"), root.join("stdlib")];
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
