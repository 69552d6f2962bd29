//! `dotc man` (issue 21): a page for dotc and for every subcommand, each with its EXIT STATUS and
//! EXAMPLES, and every example run as the page writes it: each succeeds on the shipped files.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{dotc, root, shell_words, text};

/// The examples of every page as `dotc man --out` writes them: each page's file name and each
/// example's command line (after `dotc`), unescaped from roff.
fn examples(dir: &Path) -> Vec<(String, String)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let page = std::fs::read_to_string(dir.join(&name)).unwrap();
        let Some(section) = page.split(".SH EXAMPLES\n").nth(1) else { continue };
        let section = section.split("\n.SH ").next().unwrap_or_default();
        for line in section.lines() {
            if let Some(command) = line.strip_prefix("\\fBdotc ").and_then(|l| l.strip_suffix("\\fR")) {
                out.push((name.clone(), command.replace("\\-", "-").replace("\\e", "\\")));
            }
        }
    }
    out
}

#[test]
fn issue_21_every_subcommand_has_a_page_with_exit_status_and_examples() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dotc(&["man", "--out", &dir.path().display().to_string()], &root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for expected in
        ["dotc.1", "dotc-check.1", "dotc-campaign-status.1", "dotc-odds-fire.1", "dotc-man.1", "dotc-list.1"]
    {
        assert!(names.iter().any(|n| n == expected), "{expected} missing: {names:?}");
    }
    let top = std::fs::read_to_string(dir.path().join("dotc.1")).unwrap();
    for name in &names {
        let page = std::fs::read_to_string(dir.path().join(name)).unwrap();
        for section in [".SH NAME", ".SH SYNOPSIS", ".SH \"EXIT STATUS\"", ".SH EXAMPLES"] {
            assert!(page.contains(section), "{name} has no {section}");
        }
        // dotc(1) names each subcommand's page, and that page exists.
        if name != "dotc.1" && name.matches('-').count() == 1 {
            let stem = name.trim_end_matches(".1");
            assert!(
                top.contains(&format!("{}(1)", stem.replace('-', "\\-"))),
                "dotc(1) does not name {stem}"
            );
        }
    }
    // One page on standard output; an unknown subcommand names the known ones.
    let check = dotc(&["man", "check"], &root());
    assert!(text(&check.stdout).contains(".TH dotc-check 1"));
    assert!(text(&check.stdout).contains("some file has an error"));
    let bogus = dotc(&["man", "bogus"], &root());
    assert_eq!(bogus.status.code(), Some(2));
    assert!(text(&bogus.stderr).contains("it has check, fmt"), "{}", text(&bogus.stderr));
}

#[test]
fn issue_21_every_example_of_the_man_pages_runs() {
    let pages = tempfile::tempdir().expect("a temporary folder");
    let out = dotc(&["man", "--out", &pages.path().display().to_string()], &root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let examples = examples(pages.path());
    assert!(examples.len() >= 30, "{examples:?}");
    // dotc(1) is written last of its folder's pages by name order, but the examples run in the
    // order the pages list them; `new game` writes the log that `play` then opens.
    let mut examples = examples;
    examples.sort_by_key(|(page, _)| page == "dotc-play.1");
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::os::unix::fs::symlink(root().join("scenarios"), dir.path().join("scenarios")).unwrap();
    for (page, line) in examples {
        if page == "dotc-lsp.1" {
            continue; // It waits for an editor on standard input: tests/lsp_nvim.rs drives it.
        }
        let out = Command::new(env!("CARGO_BIN_EXE_dotc"))
            .args(shell_words(&line))
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .expect("dotc runs");
        assert!(out.status.success(), "dotc {line} ({page}): {}", text(&out.stderr));
    }
    // What the examples wrote is where they say.
    for file in
        ["fence-line.svg", "turn3.png", "game.html", "wilderness.dotc", "club-night.dotc", "man/dotc.1"]
    {
        assert!(Path::new(&dir.path().join(file)).exists(), "{file}");
    }
}
