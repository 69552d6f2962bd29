//! `dotc luck GAME.dotc`: how each side's dice compared with the exact odds.
//!
//! The game is replayed (`dotc_runtime::replay`) and its events judged by
//! `dotc_runtime::luck`: each roll's percentile and chance, and each side's whole-game score.
//! A log with errors is not judged; a log whose replay disagrees with the rules still is (the
//! dice were rolled all the same), with a note saying so.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use dotc_lang::analyze;
use dotc_lang::diagnostic::Diagnostic;
use dotc_runtime::campaign::logged::replay_logged;
use dotc_runtime::luck::{self as judge, Luck, RollLuck, SideLuck, Sides};
use dotc_runtime::replay::ReplayOptions;

use crate::output::{self, Format, FormatArgs, schema};

#[derive(clap::Args, Debug)]
pub struct LuckArgs {
    /// The game log whose dice to weigh; `-` is standard input.
    pub file: std::path::PathBuf,
    /// Text: a table of rolls per side, then each side's score and verdict; JSON or YAML: the
    /// `Luck` value, every roll judged and each side's summary.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// What the text output's numbers mean; printed under the tables.
const FOOTNOTE: &str = "\
percentile: the mid-p percentile of the roll, P(X < x) + P(X = x)/2, where X is what the roll
  could have scored (exactly, from the binomial of its dice at the number they needed, or the
  die's faces) and x what it scored; 50% is exactly average.
chance: for a test, the chance to pass; otherwise the chance of scoring at least as well.
score: z = (observed - expected) / sqrt(sum of variances) over a side's rolls, in the rolls' own
  units (hits, saves, tests passed, pips, faces); its percentile is the normal approximation.
";

/// Run `dotc luck`: exit 1 (diagnostics on stderr) for a log with errors, else print and exit 0.
pub fn luck(
    args: &LuckArgs,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let source = crate::read(&args.file)?;
    let path: &Path = crate::files::named(&args.file);
    let name = path.display().to_string();
    let analysis = analyze(path, &source, &crate::files::InputLoader);
    if analysis.has_errors() {
        eprint!("{}", render(&analysis.diagnostics, &name, &source));
        eprintln!("error: {name} has errors; its luck is not judged");
        return Ok(ExitCode::from(1));
    }
    let Some(game) = analysis.document.game.as_ref() else {
        return Err(format!("{name} is not a game log"));
    };
    // A campaign battle's log is fought with the campaign's roster (Ch14 1.0).
    let options = ReplayOptions { source: Some(&source), ..ReplayOptions::default() };
    let replayed = replay_logged(path, &analysis, &crate::files::InputLoader, &options, None);
    if replayed.has_problems() {
        crate::term::note!(
            "note: the replay of {name} found problems (see `dotc replay {name}`); luck is judged on the dice of the actions it played"
        );
    }
    let sides = Sides::from_game(&analysis);
    let judged = judge::luck(&replayed.events, &sides);
    let output = match args.format.get() {
        Format::Text => text(&game.name.value, &judged),
        format => output::document(format, schema::LUCK, &judged)?,
    };
    // A reader that stops early (`| head`) is not an error.
    match std::io::stdout().lock().write_all(output.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(format!("cannot write: {e}")),
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}

/// The whole text report: a table and a summary per side, then the footnote.
fn text(title: &str, judged: &Luck) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Luck of the dice in \"{title}\"");
    for side in &judged.sides {
        let rolls: Vec<&RollLuck> =
            judged.rolls.iter().filter(|r| r.side.as_deref() == Some(side.side.as_str())).collect();
        out.push('\n');
        match &side.name {
            Some(n) => {
                let _ = writeln!(out, "{} ({n})", side.side);
            }
            None => {
                let _ = writeln!(out, "{}", side.side);
            }
        }
        out.push_str(&table(&rolls));
        out.push_str(&summary(side));
    }
    let unknown: Vec<&RollLuck> = judged.rolls.iter().filter(|r| r.side.is_none()).collect();
    if !unknown.is_empty() {
        out.push_str("\nRolls by names the scenario does not give a side (not scored)\n");
        out.push_str(&table(&unknown));
    }
    out.push('\n');
    out.push_str(FOOTNOTE);
    out
}

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The rolls of one side, one a line, with aligned columns.
fn table(rolls: &[&RollLuck]) -> String {
    if rolls.is_empty() {
        return "  no rolls\n".to_string();
    }
    let header = ["turn", "line", "roll", "dice", "needs", "result", "chance", "percentile"];
    let rows: Vec<[String; 8]> = rolls
        .iter()
        .map(|r| {
            [
                r.turn.to_string(),
                r.line.to_string(),
                format!("{} {}", r.who, r.what),
                r.dice.to_string(),
                r.needed.map_or_else(|| "-".to_string(), |n| format!("{n}+")),
                r.result.clone(),
                percent(r.chance),
                percent(r.percentile),
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    // Numbers right, words left.
    let right = [true, true, false, true, false, false, true, true];
    let line = |cells: &[String]| {
        let mut s = String::new();
        for ((cell, w), r) in cells.iter().zip(widths).zip(right) {
            s.push_str("  ");
            if r {
                let _ = write!(s, "{cell:>w$}");
            } else {
                let _ = write!(s, "{cell:<w$}");
            }
        }
        let mut s = s.trim_end().to_string();
        s.push('\n');
        s
    };
    let mut out = line(&header.map(str::to_string));
    for row in &rows {
        out.push_str(&line(row));
    }
    out
}

/// A side's rolls counted, observed against expected by measure, and the score.
fn summary(side: &SideLuck) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  rolls counted: {}", side.rolls);
    let width = side.tallies.iter().map(|t| t.measure.label().chars().count()).max().unwrap_or(0);
    for t in &side.tallies {
        let _ = writeln!(
            out,
            "  {:<width$}  {:>3} observed, {:>6.2} expected ({} roll{}, {} {})",
            t.measure.label(),
            t.observed,
            t.expected,
            t.rolls,
            if t.rolls == 1 { "" } else { "s" },
            t.dice,
            if t.dice == 1 { "die" } else { "dice" },
        );
    }
    let _ = writeln!(
        out,
        "  score: z = {:+.2}, percentile {}: {}",
        side.z,
        percent(side.percentile),
        side.verdict
    );
    out
}
