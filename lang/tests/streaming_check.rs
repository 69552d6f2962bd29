//! `dotc check` of a long game log reads it in stretches of whole turns and checks each stretch's
//! turns before dropping them (`analysis::check_in_stretches`, issue 16: the log's whole syntax
//! tree was most of `check`'s peak memory). Its diagnostics must be exactly those of a whole
//! analysis (`analyze`), in the same order: on every `.dotc` file of the repository, and on long
//! generated logs with errors sprinkled in, cut into stretches small enough that many are read.

use std::path::{Path, PathBuf};

use dotc_lang::analysis::check_in_stretches;
use dotc_lang::{Diagnostic, FsLoader, Loader, analyze};

#[allow(dead_code)] // the benchmarks' line count and LCG helpers
#[path = "../benches/support/log.rs"]
mod log;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.dotc` file under `dir`, sorted, leaving out build output and hidden folders.
fn dotc_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if path.is_dir() {
                if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "dotc") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The streamed check of `text` at `stretch` equals the whole analysis, when it gives one.
/// Returns the whole analysis's diagnostics and whether the streamed check gave a result.
fn same_as_whole(path: &Path, text: &str, loader: &dyn Loader, stretch: usize) -> (Vec<Diagnostic>, bool) {
    let whole = analyze(path, text, loader).diagnostics;
    let Some(streamed) = check_in_stretches(path, text, loader, stretch) else {
        return (whole, false);
    };
    if streamed != whole {
        let at =
            streamed.iter().zip(&whole).position(|(a, b)| a != b).unwrap_or(streamed.len().min(whole.len()));
        panic!(
            "{}, stretch {stretch}: the streamed check differs from the whole one at diagnostic {at} \
             ({} against {})\n--- streamed:\n{:#?}\n--- whole:\n{:#?}",
            path.display(),
            streamed.len(),
            whole.len(),
            streamed.get(at),
            whole.get(at)
        );
    }
    (whole, true)
}

#[test]
fn every_file_of_the_repository_checks_the_same_streamed_or_whole() {
    let files = dotc_files(&repo());
    assert!(files.len() > 250, "the .dotc files moved: {} found", files.len());
    let mut streamed = 0;
    for path in &files {
        // Files that are not UTF-8 (hostile inputs) never reach the analysis.
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for stretch in [1, 64, 1024, 4096] {
            streamed += usize::from(same_as_whole(path, &text, &FsLoader, stretch).1);
        }
    }
    // The shipped logs and the log fixtures are cut at the small sizes: the streamed path must
    // have been taken often, or this test would prove nothing.
    eprintln!("{streamed} of {} checks were streamed", files.len() * 4);
    assert!(streamed >= 40, "only {streamed} checks were streamed");
}

// ------------------------------------------------------------ long generated logs

/// Where turn `n`'s header line starts in a generated log.
fn turn_at(text: &str, n: u32) -> usize {
    let header = format!("\nturn {n} ");
    text.find(&header).map(|at| at + 1).unwrap_or_else(|| panic!("the log has no turn {n}"))
}

/// Where the line after turn `n`'s header starts.
fn inside_turn(text: &str, n: u32) -> usize {
    let at = turn_at(text, n);
    at + text[at..].find('\n').expect("a header line") + 1
}

/// What a player may get wrong in a long log.
#[derive(Clone, Copy, Debug)]
enum Damage {
    /// Turn n is numbered n + 40: a numbering error, and the turn after it too.
    Renumber(u32),
    /// Turn n's header does not parse: the order of the turns is unknown in the whole file.
    BreakHeader(u32),
    /// Turn n's number is out of range: also a broken header, in a stretch that reads cleanly.
    NumberOutOfRange(u32),
    /// Turn n is played by the other side: an alternation error.
    SwapSide(u32),
    /// A unit the scenario does not declare in turn n.
    UnknownUnit(u32),
    /// A line that is no statement in turn n: a stretch with a syntax error.
    SyntaxError(u32),
    /// An `@allow` of a code that does not exist, in turn n.
    UnknownAllow(u32),
    /// A brace left open in turn n: the rest of the file does not read as turns.
    OpenBrace(u32),
}

impl Damage {
    /// `text` with this damage done.
    fn apply(self, text: &str) -> String {
        let mut text = text.to_string();
        match self {
            Damage::Renumber(n) => {
                let at = turn_at(&text, n) + "turn ".len();
                text.replace_range(at..at + n.to_string().len(), &(n + 40).to_string());
            }
            Damage::BreakHeader(n) => text.insert(turn_at(&text, n) + "turn ".len(), 'x'),
            Damage::NumberOutOfRange(n) => {
                let at = turn_at(&text, n) + "turn ".len();
                text.replace_range(at..at + n.to_string().len(), "0");
            }
            Damage::SwapSide(n) => {
                let at = turn_at(&text, n);
                let end = at + text[at..].find('\n').expect("a header line");
                let header = text[at..end].to_string();
                let swapped = if header.contains("union") {
                    header.replace("union", "confederate")
                } else {
                    header.replace("confederate", "union")
                };
                text.replace_range(at..end, &swapped);
            }
            Damage::UnknownUnit(n) => {
                let at = inside_turn(&text, n);
                let quote = at + text[at..].find("pips \"").expect("a pips line") + "pips \"".len();
                text.insert_str(quote, "Lt. Nobody of ");
            }
            Damage::SyntaxError(n) => text.insert_str(inside_turn(&text, n), "    %%% not a statement\n"),
            Damage::UnknownAllow(n) => {
                let at = inside_turn(&text, n);
                let pips = at + text[at..].find("        pips").expect("a pips line");
                text.insert_str(pips, "        @allow(dotc::no-such-code, \"the umpire said so\")\n");
            }
            Damage::OpenBrace(n) => text.insert_str(inside_turn(&text, n), "    fire {\n"),
        }
        text
    }
}

/// A generated log of about `lines` lines and a loader serving its scenario.
fn generated(lines: usize) -> (String, log::MemoryLoader) {
    let (text, turns) = log::generate_log(lines);
    (text, log::MemoryLoader { scenario: log::scenario_with_turns(turns) })
}

/// Check the damaged log streamed (at several stretch sizes) and whole; they must agree.
/// Returns the diagnostics and at how many of the sizes the streamed check was taken.
fn check_damaged(text: &str, loader: &log::MemoryLoader, damage: &[Damage]) -> (Vec<Diagnostic>, usize) {
    let damaged = damage.iter().fold(text.to_string(), |t, d| d.apply(&t));
    let path = Path::new("generated/game.dotc");
    let mut streamed = 0;
    let mut whole = Vec::new();
    for stretch in [700, 3000, 20_000] {
        let (diagnostics, taken) = same_as_whole(path, &damaged, loader, stretch);
        streamed += usize::from(taken);
        whole = diagnostics;
    }
    (whole, streamed)
}

/// [`check_damaged`] of damage that leaves the log readable in stretches at every size.
fn check_streamed(text: &str, loader: &log::MemoryLoader, damage: &[Damage]) -> Vec<Diagnostic> {
    let (diagnostics, streamed) = check_damaged(text, loader, damage);
    assert_eq!(streamed, 3, "{damage:?}: the check was streamed at only {streamed} of 3 stretch sizes");
    diagnostics
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
    diagnostics.iter().map(|d| d.code).collect()
}

fn has_message(diagnostics: &[Diagnostic], part: &str) -> bool {
    diagnostics.iter().any(|d| d.message.contains(part))
}

#[test]
fn a_clean_generated_log_checks_clean_streamed() {
    let (text, loader) = generated(3000);
    let diagnostics = check_streamed(&text, &loader, &[]);
    assert!(diagnostics.is_empty(), "{:?}", codes(&diagnostics));
}

#[test]
fn each_kind_of_error_is_reported_the_same_streamed() {
    let (text, loader) = generated(3000);
    let cases: &[(Damage, &str)] = &[
        (Damage::Renumber(5), "turn 45 comes where turn 5 should"),
        (Damage::SwapSide(8), "turn 8 should be"),
        (Damage::UnknownUnit(12), "Lt. Nobody of"),
        (Damage::SyntaxError(20), ""),
        (Damage::UnknownAllow(30), "no-such-code"),
        (Damage::BreakHeader(40), ""),
        (Damage::NumberOutOfRange(44), ""),
        (Damage::OpenBrace(50), ""),
    ];
    for &(damage, message) in cases {
        let diagnostics = match damage {
            // The rest of the file after the open brace does not read as turns: read whole.
            Damage::OpenBrace(_) => check_damaged(&text, &loader, &[damage]).0,
            _ => check_streamed(&text, &loader, &[damage]),
        };
        assert!(!diagnostics.is_empty(), "{damage:?} was not reported");
        assert!(has_message(&diagnostics, message), "{damage:?}: {:#?}", diagnostics);
    }
}

/// A turn header that does not parse, anywhere in the file, silences the numbering and
/// alternation checks of every turn (a turn missing from the list would make its neighbours
/// look out of order). The misnumbered turn comes stretches before the broken header here: a
/// streamed check that judged the order of the turns as it went would report it.
#[test]
fn a_broken_turn_header_late_in_the_log_silences_the_order_of_the_turns_before_it() {
    let (text, loader) = generated(3000);
    let order = [Damage::Renumber(3), Damage::SwapSide(7)];
    let reported = check_streamed(&text, &loader, &order);
    assert!(has_message(&reported, "turn 43 comes where turn 3 should"), "{:#?}", reported);
    assert!(has_message(&reported, "turn 7 should be"), "{:#?}", reported);
    let last = text.matches("\nturn ").count() as u32;
    for broken in [Damage::BreakHeader(last - 2), Damage::NumberOutOfRange(last - 10)] {
        let silenced = check_streamed(&text, &loader, &[order[0], order[1], broken]);
        assert!(!has_message(&silenced, "comes where"), "{broken:?}: {:#?}", silenced);
        assert!(!has_message(&silenced, "turn 7 should be"), "{broken:?}: {:#?}", silenced);
    }
}

/// Errors of every kind sprinkled at random over a long log, several at a time.
#[test]
fn random_errors_in_a_long_log_are_reported_the_same_streamed() {
    let (text, loader) = generated(4000);
    let turns = text.matches("\nturn ").count() as u32;
    let mut rng = log::Lcg(0x16_2026_1205);
    let mut streamed = 0;
    for _ in 0..40 {
        let mut damage = Vec::new();
        for _ in 0..1 + rng.below(4) {
            // Each damage to its own turn, so that one does not undo another.
            let n = 1 + rng.below(u64::from(turns - 1)) as u32;
            if damage.iter().any(|d: &(u32, Damage)| d.0 == n) {
                continue;
            }
            let kind = match rng.below(8) {
                0 => Damage::Renumber(n),
                1 => Damage::BreakHeader(n),
                2 => Damage::NumberOutOfRange(n),
                3 => Damage::SwapSide(n),
                4 => Damage::UnknownUnit(n),
                5 => Damage::SyntaxError(n),
                6 => Damage::UnknownAllow(n),
                _ => Damage::OpenBrace(n),
            };
            damage.push((n, kind));
        }
        // Damage the last turns first, so that the earlier ones are where `turn_at` finds them.
        damage.sort_by_key(|d| std::cmp::Reverse(d.0));
        let damage: Vec<Damage> = damage.into_iter().map(|d| d.1).collect();
        streamed += check_damaged(&text, &loader, &damage).1;
    }
    // Damage in the head (the header and the first turns) or a brace left open has the log read
    // whole; most damaged logs must still be streamed, or this test would prove little.
    eprintln!("{streamed} of 120 checks were streamed");
    assert!(streamed > 60, "only {streamed} of 120 checks were streamed");
}
