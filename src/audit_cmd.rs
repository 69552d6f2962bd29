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

use dotc_lang::ast::{Action, Allow, Span};
use dotc_lang::diagnostic::{Diagnostic, Severity, line_col};
use dotc_runtime::replay::{Finding, Level, ReplayOptions, replay};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::replay_cmd::{WhatIf, diagnostic, load_game};

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
    pub what_if: WhatIf,
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

fn code_of(level: Level) -> &'static str {
    match level {
        Level::Error => "dotc::replay-disagrees",
        Level::Warning => "dotc::replay-doubtful",
        Level::Note => "dotc::replay-not-replayed",
        Level::Followed => "dotc::replay-follows-log",
    }
}

/// Every action and assault step that carries suppressions, with its span.
fn allowing<'a>(actions: impl Iterator<Item = &'a Action>) -> Vec<(Span, &'a Allow)> {
    let mut out = Vec::new();
    for action in actions {
        // A step's own suppressions cover the step; the action's cover the whole assault.
        for step in &action.steps {
            out.extend(step.allows.iter().map(|a| (step.span, a)));
        }
        out.extend(action.allows.iter().map(|a| (action.span, a)));
    }
    out
}

pub fn audit(
    args: &AuditArgs,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let settings = args.what_if.settings()?;
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
        let options = ReplayOptions {
            source: Some(&game.source),
            preset: args.what_if.preset.as_deref(),
            rulings: &settings,
            ..ReplayOptions::default()
        };
        let replayed = replay(&game.analysis, &options);
        let actions =
            game.analysis.document.turns.iter().flat_map(|t| t.phases.iter()).flat_map(|p| p.actions.iter());
        let allows = allowing(actions);
        let mut used = vec![false; allows.len()];
        let mut kept: Vec<&Finding> = Vec::new();
        let mut suppressed = Vec::new();
        for finding in &replayed.findings {
            let code = code_of(finding.level);
            let by = allows.iter().position(|(span, allow)| {
                span.start <= finding.span.start
                    && finding.span.end <= span.end
                    && allow.code.value.trim_start_matches("dotc::") == code.trim_start_matches("dotc::")
            });
            match by {
                Some(i) => {
                    used[i] = true;
                    suppressed.push(Suppressed {
                        line: line_col(&game.source, finding.span.start).0,
                        code: code.to_string(),
                        reason: allows[i].1.reason.value.clone(),
                        message: finding.message.clone(),
                    });
                }
                None => kept.push(finding),
            }
        }
        let mut diagnostics: Vec<Diagnostic> = kept
            .iter()
            .filter(|f| args.notes || matches!(f.level, Level::Error | Level::Warning))
            .map(|f| diagnostic(f))
            .collect();
        for (i, (_, allow)) in allows.iter().enumerate() {
            if !used[i] {
                let mut d = Diagnostic::error(
                    "dotc::replay-doubtful",
                    format!("this suppression of {} matches nothing on its line", allow.code.value),
                    allow.span,
                    "suppresses nothing",
                );
                d.severity = Severity::Warning;
                diagnostics.push(d);
            }
        }
        diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
        let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        let warnings = diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
        failed |= errors + warnings > 0;
        if args.format == AuditFormat::Text {
            bar.suspend(|| {
                if !diagnostics.is_empty() {
                    eprint!("{}", render(&diagnostics, &game.name, &game.source));
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
                let (line, column) = line_col(&game.source, d.primary.span.start);
                let level = match d.severity {
                    Severity::Error => Level::Error,
                    Severity::Warning => Level::Warning,
                    _ if d.code == "dotc::replay-follows-log" => Level::Followed,
                    _ => Level::Note,
                };
                JsonFinding {
                    line,
                    column,
                    level,
                    code: code_of(level),
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
