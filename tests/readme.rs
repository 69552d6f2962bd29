//! The README's command blocks (issue 21: "a test runs every command block of the README and
//! checks its output"). Every line of every `sh` block is run as the README writes it, from a
//! folder where the repository's files are, and must succeed; the few that are not dotc's are
//! named here with where they do run. Every output block is dotc's output, byte for byte (the
//! graphical diagnostics with their colour codes taken out), or named here with the test that
//! keeps it.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{root, shell_words, text};

/// The README's fenced blocks: the fence's info (`sh` or empty), the first line of the block's
/// text (1-based) and the text.
fn blocks(readme: &str) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, String)> = None;
    for (i, line) in readme.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            match open.take() {
                Some(block) => out.push(block),
                None => open = Some((info.trim().to_string(), i + 2, String::new())),
            }
        } else if let Some((_, _, body)) = open.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// A command line's words as a shell gives them: its `#` comment dropped, and each word with a
/// `*` expanded against the folder (sorted).
fn words(line: &str, dir: &Path) -> Vec<String> {
    shell_words(line)
        .into_iter()
        .flat_map(|w| if w.contains('*') { glob(&w, dir) } else { vec![w] })
        .collect()
}

/// A path pattern with `*` in its last two parts (`scenarios/*/*.dotc`), expanded.
fn glob(pattern: &str, dir: &Path) -> Vec<String> {
    let mut found = vec![PathBuf::new()];
    for part in pattern.split('/') {
        let mut next = Vec::new();
        for base in &found {
            if !part.contains('*') {
                next.push(base.join(part));
                continue;
            }
            let (prefix, suffix) = part.split_once('*').unwrap();
            let Ok(entries) = std::fs::read_dir(dir.join(base)) else { continue };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with(prefix) && name.ends_with(suffix) {
                    next.push(base.join(name));
                }
            }
        }
        found = next;
    }
    let mut out: Vec<String> = found.iter().map(|p| p.display().to_string()).collect();
    out.sort();
    assert!(!out.is_empty(), "{pattern} matches nothing");
    out
}

/// Run dotc with `args` in `dir`; stdout and stderr, the colour codes taken out of both.
fn run(args: &[String], dir: &Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dotc"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("dotc runs");
    (out.status.success(), plain(&text(&out.stdout)), plain(&text(&out.stderr)))
}

/// Text without ANSI colour codes, each line without trailing spaces.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out.lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
}

/// A folder holding the repository's files (linked), where the README's commands run and may
/// write what they make.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for name in ["scenarios", "stdlib", "tests", "docs", "lsp"] {
        std::os::unix::fs::symlink(root().join(name), dir.path().join(name)).unwrap();
    }
    dir
}

#[test]
fn issue_21_every_command_block_of_the_readme_runs_and_every_output_block_is_dotcs() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("the README");
    let dir = workspace();
    let mut ran = 0;
    let mut outputs = 0;
    for (info, line, body) in blocks(&readme) {
        match info.as_str() {
            "sh" => {
                for command in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    let words = words(command, dir.path());
                    let args: Vec<String> = match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                        // The README's install and test commands are CI's own (.ci/run), and the
                        // extension's build is .ci/vscode.sh's: not run from inside a test.
                        ["cargo", "install", ..]
                        | ["cargo", "test", ..]
                        | ["cd", "lsp/editors/vscode", ..] => {
                            continue;
                        }
                        ["code", "--install-extension", ..] => continue,
                        ["cargo", "run", "--", ..] => words[3..].to_vec(),
                        ["dotc", ..] => words[1..].to_vec(),
                        _ => panic!("README line {line}: a command this test does not know: {command}"),
                    };
                    let (ok, _, stderr) = run(&args, dir.path());
                    assert!(ok, "README line {line}: `{command}` failed: {stderr}");
                    ran += 1;
                }
            }
            "" if body.starts_with("dotc::unknown-weapon\n") => {
                // The main job on the tutorial's scenario with the 19th Maine's weapon misspelt.
                let typo = tempfile::tempdir().unwrap();
                let at = typo.path().join("scenarios/tutorial");
                std::fs::create_dir_all(&at).unwrap();
                let scenario =
                    std::fs::read_to_string(root().join("scenarios/tutorial/fence-line.dotc")).unwrap();
                let misspelt: Vec<String> = scenario
                    .lines()
                    .map(|l| {
                        if l.contains("regiment \"19th Maine\"") {
                            l.replace("rifled_musket", "rifled_muskit")
                        } else {
                            l.to_string()
                        }
                    })
                    .collect();
                std::fs::write(at.join("fence-line.dotc"), misspelt.join("\n") + "\n").unwrap();
                let args =
                    ["check", "--color", "always", "scenarios/tutorial/fence-line.dotc"].map(String::from);
                let (ok, _, stderr) = run(&args, typo.path());
                assert!(!ok);
                assert_eq!(stderr, body, "README line {line}");
                outputs += 1;
            }
            "" if body.starts_with("dotc::replay-disagrees\n") => {
                // One finding of the careless evening's audit.
                let args = ["audit", "--color", "always", "tests/fixtures/audit/careless-evening.dotc"]
                    .map(String::from);
                let (ok, _, stderr) = run(&args, dir.path());
                assert!(!ok);
                assert!(stderr.contains(&body), "README line {line}: not in the audit's output:\n{stderr}");
                outputs += 1;
            }
            // The play screen: src/play/screen_tests.rs checks that the README shows the screen
            // its test backend draws.
            "" if body.starts_with("$ dotc new game") => outputs += 1,
            _ => panic!("README line {line}: a block this test does not know:\n{body}"),
        }
    }
    assert!(ran >= 4 && outputs == 3, "{ran} commands, {outputs} outputs");
}
