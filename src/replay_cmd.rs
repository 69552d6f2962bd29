//! `dotc replay GAME.dotc`: play a logged game through the rules and say where the log and the
//! rules disagree.

use std::path::Path;
use std::process::ExitCode;

use clap::ValueEnum;
use dotc_lang::diagnostic::{Diagnostic, Severity};
use dotc_lang::{FsLoader, analyze};
use dotc_runtime::replay::{Finding, Level, ReplayOptions, replay};

/// How `dotc replay` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReplayFormat {
    /// The narrative, then the findings as diagnostics.
    Text,
    /// The events, findings and final summary as JSON.
    Json,
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The game log to replay (its scenario is read from its `scenario` line).
    pub file: std::path::PathBuf,
    /// Print the state at the end (each regiment's stands, health and markers; each brigade's
    /// tally and state) after the narrative.
    #[arg(long)]
    pub summary: bool,
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub format: ReplayFormat,
}

/// A finding as a diagnostic, for the one rendering every command shares.
fn diagnostic(f: &Finding) -> Diagnostic {
    let (code, severity, label) = match f.level {
        Level::Error => ("dotc::replay-disagrees", Severity::Error, "the rules disagree"),
        Level::Warning => ("dotc::replay-doubtful", Severity::Warning, "doubtful"),
        Level::Note => ("dotc::replay-not-replayed", Severity::Advice, "not replayed"),
    };
    let mut d = Diagnostic::error(code, f.message.clone(), f.span, label);
    d.severity = severity;
    if !f.rule.is_empty() {
        d = d.with_rule(f.rule.clone());
    }
    d
}

pub fn replay_file(
    args: &ReplayArgs,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let path: &Path = &args.file;
    let source = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.display().to_string();
    let analysis = analyze(path, &source, &FsLoader);
    if analysis.has_errors() {
        eprint!("{}", render(&analysis.diagnostics, &name, &source));
        eprintln!("error: {name} has errors; not replayed");
        return Ok(ExitCode::from(1));
    }
    if analysis.document.game.is_none() {
        return Err(format!("{name} is not a game log"));
    }
    let replay = replay(&analysis, &ReplayOptions { source: Some(&source), ..ReplayOptions::default() });
    match args.format {
        ReplayFormat::Json => {
            let mut value = serde_json::json!({ "events": replay.events, "findings": replay.findings });
            if args.summary {
                value["summary"] = serde_json::to_value(&replay.summary).map_err(|e| e.to_string())?;
            }
            println!("{}", serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?);
        }
        ReplayFormat::Text => {
            print!("{}", replay.narrative());
            if args.summary {
                println!();
                print!("{}", replay.summary());
            }
            let diagnostics: Vec<Diagnostic> = replay.findings.iter().map(diagnostic).collect();
            if !diagnostics.is_empty() {
                eprint!("{}", render(&diagnostics, &name, &source));
            }
        }
    }
    Ok(if replay.has_problems() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
