//! `dotc audit GAME.dotc...`: every illegal action and every claimed result the dice do not give,
//! as diagnostics at the log's lines, with what the umpire allowed listed apart.
//!
//! The audit is the replay's findings: it goes on after a mistake from the log's stated result
//! (and says so), so one mistake is reported once. A line may carry `@allow(CODE, "reason")`: a
//! finding of that code on that line (or assault step) is then not an error but a suppression,
//! listed with its reason; a suppression that matches nothing is itself reported.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::lines::LineIndex;
use dotc_runtime::audit::{self, AuditOptions};
use dotc_runtime::campaign::logged::{analyze_and_replay_logged, replay_logged};
use dotc_runtime::replay::{Level, ReplayOptions};
use rayon::prelude::*;
use serde::Serialize;

use crate::output::{Format, FormatArgs, print_document, schema};
use crate::replay_cmd::{LoadedGame, WhatIfArgs, game_of};

#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// The game logs to audit; a folder stands for every game log under it (a season:
    /// `dotc audit season/`), other `.dotc` files in it being left out; `-` is standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Text: diagnostics on standard error and a verdict per file; JSON or YAML: one document
    /// with every file's findings and suppressions.
    #[command(flatten)]
    pub format: FormatArgs,
    /// Also list the notes: verbs not replayed and where the replay followed the log's result.
    #[arg(long)]
    pub notes: bool,
    /// Threads to audit with, one log each at a time (default: one per core).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
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
    render: impl Fn(&[Diagnostic], &str, &str) -> String + Sync,
) -> Result<ExitCode, String> {
    let what_if = args.what_if.parse()?;
    let files = gather(&args.files)?;
    if files.is_empty() {
        return Err(format!(
            "no .dotc files in {}",
            args.files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    let bar = crate::term::progress_bar(files.len(), "logs audited");
    // Each log is audited on its own (one replay each, nothing shared but the cached checked
    // scenario), on as many threads as asked (`--jobs`, else one per core); the results are
    // reported in the order of the files, so the output is the same whatever the threads. One
    // log, or one thread, is audited on this thread.
    let one = |file: &Input| {
        let result = audit_one(file, args, &what_if, &render);
        bar.inc(1);
        result
    };
    let results: Vec<Result<Option<(FileAudit, String)>, Fatal>> = if files.len() == 1 || args.jobs == Some(1)
    {
        files.iter().map(one).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.jobs.map_or(0, usize::from))
            .build()
            .map_err(|e| format!("cannot start the audit's threads: {e}"))?;
        pool.install(|| files.par_iter().map(one).collect())
    };
    bar.finish_and_clear();
    let mut audits = Vec::new();
    let mut skipped = 0;
    for result in results {
        let result = result.map_err(|Fatal { text, message }| {
            eprint!("{text}");
            message
        });
        match result? {
            Some((audit, text)) => {
                eprint!("{text}");
                audits.push(audit);
            }
            None => skipped += 1,
        }
    }
    let failed = audits.iter().any(|a| !a.replayed || a.errors + a.warnings > 0);
    if args.format.get() != Format::Text {
        print_document(args.format.get(), schema::AUDIT, &serde_json::json!({ "files": audits }))?;
    } else if audits.len() > 1 || skipped > 0 {
        let bad = audits.iter().filter(|a| !a.replayed || a.errors + a.warnings > 0).count();
        let others =
            if skipped > 0 { format!(" ({skipped} other .dotc files left out)") } else { String::new() };
        eprintln!("audited {} logs: {} clean, {bad} with problems{others}", audits.len(), audits.len() - bad);
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// A file to audit, and whether it was named on the command line (a file found in a folder
/// that is not a game log is left out; one named is an error).
struct Input {
    path: PathBuf,
    named: bool,
}

/// The files named, with each folder replaced by the `.dotc` files under it, in order of their
/// paths (a season's folder of logs, `dotc audit season/`).
fn gather(paths: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut files = Vec::new();
    for path in paths {
        if !crate::files::is_stdin(path) && path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            found.sort();
            files.extend(found.into_iter().map(|path| Input { path, named: false }));
        } else {
            files.push(Input { path: path.clone(), named: true });
        }
    }
    Ok(files)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read the folder {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read the folder {}: {e}", dir.display()))?;
        let path = entry.path();
        // Symbolic links to folders are not followed: a loop of links would never end.
        let kind = entry.file_type().map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if kind.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|e| e == "dotc") {
            found.push(path);
        }
    }
    Ok(())
}

impl FileAudit {
    /// A log that could not be replayed: one error.
    fn unreplayed(file: String) -> FileAudit {
        FileAudit {
            file,
            replayed: false,
            errors: 1,
            warnings: 0,
            findings: Vec::new(),
            suppressed: Vec::new(),
        }
    }
}

/// What stops the whole audit: the text to print first (a diagnostic) and the error.
struct Fatal {
    text: String,
    message: String,
}

impl From<String> for Fatal {
    fn from(message: String) -> Fatal {
        Fatal { text: String::new(), message }
    }
}

/// Audit one log: what the report says of it and the text to print for it (diagnostics and
/// the verdict, empty for JSON); None for a file found in a folder that is not a game log.
fn audit_one(
    file: &Input,
    args: &AuditArgs,
    what_if: &dotc_runtime::rulings::WhatIf,
    render: &(impl Fn(&[Diagnostic], &str, &str) -> String + Sync),
) -> Result<Option<(FileAudit, String)>, Fatal> {
    let path = crate::files::named(&file.path);
    let name = path.display().to_string();
    let mut text = String::new();
    let source = match crate::files::read(&file.path) {
        Ok(source) => source,
        Err(crate::files::ReadFailure::Message(message)) => return Err(message.into()),
        Err(crate::files::ReadFailure::NotUtf8 { diagnostic, lossy }) => {
            let text = render(std::slice::from_ref(&*diagnostic), &name, &lossy);
            if file.named {
                return Err(Fatal { text, message: format!("{name} is not UTF-8 text; not read") });
            }
            // In a season's folder a damaged log is one log with a problem, not the end of the
            // season's audit.
            return Ok(Some((
                FileAudit::unreplayed(name),
                format!("{text}error: not UTF-8 text; not read\n"),
            )));
        }
    };
    // A long log is replayed while it is still being parsed (issue 16); the replay is made only
    // for a game log that checks clean, as `game_of` below asks. A log that names its campaign
    // battle (Ch14 1.0) is fought with the campaign's roster, decided from its header before
    // the one replay (issue 19).
    let (analysis, replayed) = analyze_and_replay_logged(
        path,
        &source,
        &crate::files::InputLoader,
        &replay_options(&source, what_if),
    );
    // A campaign (Ch14) named on the command line: its battles replayed and its post-battle
    // sequences checked (`crate::campaign_cmd`).
    if analysis.document.kind == Some(dotc_lang::ast::FileKind::Campaign) && file.named {
        return Ok(Some(audit_campaign(name, &source, &analysis, args, render)));
    }
    // In a folder, a scenario or library is not the audit's business; a file too broken to
    // tell what it is, is reported.
    let other_kind = analysis.document.kind.is_some_and(|k| k != dotc_lang::ast::FileKind::Game);
    if other_kind && !file.named {
        return Ok(None);
    }
    let LoadedGame { name, source, analysis } = match game_of(path, source, analysis, render)? {
        Ok(game) => game,
        Err(report) => return Ok(Some((FileAudit::unreplayed(name), report))),
    };
    // `game_of` gives a game log without errors, which is replayed above.
    let replayed = replayed.unwrap_or_else(|| {
        let options = replay_options(&source, what_if);
        replay_logged(path, &analysis, &crate::files::InputLoader, &options, None)
    });
    // The one audit layer (also the language server's): findings as diagnostics, `@allow`
    // suppressions matched with their reasons, suppressions that match nothing reported.
    let audit = audit::audit(&analysis.document, &replayed.findings, AuditOptions { notes: args.notes });
    // One line index for every finding of the file: reporting stays linear in its size.
    let lines = LineIndex::new(&source);
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
    if args.format.get() == Format::Text {
        if !diagnostics.is_empty() {
            text.push_str(&render(diagnostics, &name, &source));
        }
        for s in &suppressed {
            text.push_str(&format!(
                "{name}:{}: allowed ({}): {} [{}]\n",
                s.line, s.reason, s.message, s.code
            ));
        }
        text.push_str(&verdict_line(&name, errors, warnings, suppressed.len()));
    }
    let findings = json_findings(diagnostics, &source, &lines);
    let audit = FileAudit { file: name, replayed: true, errors, warnings, findings, suppressed };
    drop_aside(source.len(), (analysis, replayed, source));
    Ok(Some((audit, text)))
}

/// What the audit asks of a log's replay: its findings, under the what-if rulings.
fn replay_options<'a>(source: &'a str, what_if: &'a dotc_runtime::rulings::WhatIf) -> ReplayOptions<'a> {
    ReplayOptions {
        source: Some(source),
        what_if: Some(what_if),
        findings_only: true,
        ..ReplayOptions::default()
    }
}

/// Audit a campaign (Ch14 1.0, 2.0): its language checks, then each played battle's log
/// replayed and each `after` block's steps checked against it (`dotc_runtime::campaign::play`);
/// reported as a game log's audit is.
fn audit_campaign(
    name: String,
    source: &str,
    analysis: &dotc_lang::analysis::Analysis,
    args: &AuditArgs,
    render: &(impl Fn(&[Diagnostic], &str, &str) -> String + Sync),
) -> (FileAudit, String) {
    let mut text = String::new();
    if analysis.has_errors() {
        if args.format.get() == Format::Text {
            text.push_str(&render(&analysis.diagnostics, &name, source));
            text.push_str(&format!("error: {name} has errors; not played\n"));
        }
        return (FileAudit::unreplayed(name), text);
    }
    let played = dotc_runtime::campaign::play(analysis);
    let mut diagnostics: Vec<Diagnostic> = played.findings.iter().map(audit::finding_diagnostic).collect();
    // What the roster changes in each battle's order of battle (Ch14 1.0): notes.
    diagnostics.extend(played.notes.iter().map(dotc_runtime::campaign::note_diagnostic));
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    let errors = diagnostics.iter().filter(|d| audit::level_of(d) == Level::Error).count();
    let warnings = diagnostics.iter().filter(|d| audit::level_of(d) == Level::Warning).count();
    if args.format.get() == Format::Text {
        if !diagnostics.is_empty() {
            text.push_str(&render(&diagnostics, &name, source));
        }
        text.push_str(&verdict_line(&name, errors, warnings, 0));
    }
    let lines = LineIndex::new(source);
    let findings = json_findings(&diagnostics, source, &lines);
    (FileAudit { file: name, replayed: true, errors, warnings, findings, suppressed: Vec::new() }, text)
}

/// The findings of one file as `--format json` lists them, each placed by the file's one line
/// index (a game log's and a campaign's alike).
fn json_findings(diagnostics: &[Diagnostic], source: &str, lines: &LineIndex) -> Vec<JsonFinding> {
    diagnostics
        .iter()
        .map(|d| {
            let (line, column) = lines.line_col(source, d.primary.span.start);
            let level = audit::level_of(d);
            JsonFinding {
                line,
                column,
                level,
                code: if d.code == dotc_lang::catalogue::CAMPAIGN_ROSTER {
                    d.code
                } else {
                    audit::finding_code(level)
                },
                message: d.message.clone(),
                rule: d.rule.clone().unwrap_or_default(),
            }
        })
        .collect()
}

/// The last line of a file's text report: clean or not, and its counts.
fn verdict_line(name: &str, errors: usize, warnings: usize, allowed: usize) -> String {
    let verdict = if errors + warnings == 0 { "clean" } else { "has problems" };
    format!("{name}: {verdict}: {errors} error(s), {warnings} warning(s), {allowed} allowed by the umpire\n")
}

/// Logs longer than this have their syntax tree and replay freed on a thread of their own.
const DROP_ASIDE_BYTES: usize = 1 << 20;

/// Free what a long log's audit holds (its tree and replay: hundreds of thousands of small
/// allocations) on a thread of its own, so the report is not kept waiting for it; the process
/// may end before it is done (issue 16: the frees were some 5% of a long log's audit, all on the
/// path to its report). A short log's is freed here.
fn drop_aside<T: Send + 'static>(bytes: usize, held: T) {
    if bytes < DROP_ASIDE_BYTES {
        return;
    }
    // No thread to be had: freed here after all.
    let _ = std::thread::Builder::new().name("drop".into()).spawn(move || drop(held));
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use dotc_runtime::campaign::logged::replays_made;

    /// How many replays of a game log `dotc ARGS...` made on this thread.
    fn replays_of(args: &[&str]) -> usize {
        let cli = crate::Cli::try_parse_from(args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let before = replays_made();
        let code = crate::run(cli);
        assert!(code.is_ok(), "{args:?}: {code:?}");
        replays_made() - before
    }

    /// Issue 19: `dotc audit` and `dotc replay` replay a campaign battle's log once, with the
    /// roster (Ch14 1.0), decided from its header; a plain log once too.
    #[test]
    fn audit_and_replay_replay_a_campaign_battles_log_once() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for log in ["tests/campaign/fence-line-won-game.dotc", "scenarios/tutorial/fence-line-game.dotc"] {
            let path = root.join(log);
            let path = path.to_str().expect("a UTF-8 path");
            for args in [
                &["dotc", "audit", path][..],
                &["dotc", "audit", "--format", "json", path],
                &["dotc", "replay", path],
                &["dotc", "replay", "--format", "json", path],
                &["dotc", "replay", "--summary", "--until", "turn 2", path],
            ] {
                assert_eq!(replays_of(args), 1, "{args:?}");
            }
        }
    }
}
