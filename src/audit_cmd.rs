//! `dotc audit GAME.dotc...`: every illegal action and every claimed result the dice do not give,
//! as diagnostics at the log's lines, with what the umpire allowed listed apart.
//!
//! The audit is the replay's findings: it goes on after a mistake from the log's stated result
//! (and says so), so one mistake is reported once. A line may carry `@allow(CODE, "reason")`: a
//! finding of that code on that line (or assault step) is then not an error but a suppression,
//! listed with its reason; a suppression that matches nothing is itself reported.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::lines::LineIndex;
use dotc_runtime::audit::{self, AuditOptions};
use dotc_runtime::replay::{Level, ReplayOptions, replay};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::replay_cmd::{WhatIfArgs, load_game};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AuditFormat {
    /// Diagnostics on stderr and a verdict per file.
    Text,
    /// One JSON document with every file's findings and suppressions.
    Json,
}

#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// The game logs to audit.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = AuditFormat::Text)]
    pub format: AuditFormat,
    /// Also list the notes: verbs not replayed and where the replay followed the log's result.
    #[arg(long)]
    pub notes: bool,
    #[command(flatten)]
    pub what_if: WhatIfArgs,
}

/// One finding as the JSON output gives it.
#[derive(Serialize)]
struct JsonFinding {
    line: usize,
    column: usize,
    level: Level,
    code: &'static str,
    message: String,
    rule: String,
}

/// A finding the umpire allowed on the spot.
#[derive(Serialize)]
struct Suppressed {
    line: usize,
    code: String,
    reason: String,
    message: String,
}

#[derive(Serialize)]
struct FileAudit {
    file: String,
    /// False when the file could not be replayed at all (syntax or scenario errors).
    replayed: bool,
    errors: usize,
    warnings: usize,
    findings: Vec<JsonFinding>,
    suppressed: Vec<Suppressed>,
}

pub fn audit(
    args: &AuditArgs,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let what_if = args.what_if.parse()?;
    let bar = if args.files.len() > 1 && std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(Some(args.files.len() as u64), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut audits = Vec::new();
    let mut failed = false;
    for path in &args.files {
        bar.set_message(path.display().to_string());
        let loaded = bar.suspend(|| load_game(path, &render))?;
        let game = match loaded {
            Ok(game) => game,
            Err(_) => {
                failed = true;
                audits.push(FileAudit {
                    file: path.display().to_string(),
                    replayed: false,
                    errors: 1,
                    warnings: 0,
                    findings: Vec::new(),
                    suppressed: Vec::new(),
                });
                bar.inc(1);
                continue;
            }
        };
        let options =
            ReplayOptions { source: Some(&game.source), what_if: Some(&what_if), ..ReplayOptions::default() };
        let replayed = replay(&game.analysis, &options);
        // The one audit layer (also the language server's): findings as diagnostics, `@allow`
        // suppressions matched with their reasons, suppressions that match nothing reported.
        let audit =
            audit::audit(&game.analysis.document, &replayed.findings, AuditOptions { notes: args.notes });
        // One line index for every finding of the file: reporting stays linear in its size.
        let lines = LineIndex::new(&game.source);
        let suppressed: Vec<Suppressed> = audit
            .suppressed
            .iter()
            .map(|s| Suppressed {
                line: lines.line(s.span.start),
                code: s.code.to_string(),
                reason: s.reason.clone(),
                message: s.message.clone(),
            })
            .collect();
        let diagnostics = &audit.diagnostics;
        let (errors, warnings) = (audit.errors(), audit.warnings());
        failed |= errors + warnings > 0;
        if args.format == AuditFormat::Text {
            bar.suspend(|| {
                if !diagnostics.is_empty() {
                    eprint!("{}", render(diagnostics, &game.name, &game.source));
                }
                for s in &suppressed {
                    eprintln!("{}:{}: allowed ({}): {} [{}]", game.name, s.line, s.reason, s.message, s.code);
                }
                let verdict = if errors + warnings == 0 { "clean" } else { "has problems" };
                eprintln!(
                    "{}: {verdict}: {errors} error(s), {warnings} warning(s), {} allowed by the umpire",
                    game.name,
                    suppressed.len()
                );
            });
        }
        let findings = diagnostics
            .iter()
            .map(|d| {
                let (line, column) = lines.line_col(&game.source, d.primary.span.start);
                let level = audit::level_of(d);
                JsonFinding {
                    line,
                    column,
                    level,
                    code: audit::finding_code(level),
                    message: d.message.clone(),
                    rule: d.rule.clone().unwrap_or_default(),
                }
            })
            .collect();
        audits.push(FileAudit {
            file: game.name.clone(),
            replayed: true,
            errors,
            warnings,
            findings,
            suppressed,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.format == AuditFormat::Json {
        let value = serde_json::json!({ "files": audits });
        println!("{}", serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?);
    } else if audits.len() > 1 {
        let bad = audits.iter().filter(|a| !a.replayed || a.errors + a.warnings > 0).count();
        eprintln!("audited {} logs: {} clean, {bad} with problems", audits.len(), audits.len() - bad);
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
