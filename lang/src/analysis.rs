//! One call that takes a file from text to every diagnostic the language layer can give.
//!
//! A game log names its scenario by path; the scenario is read through a [`Loader`], so the
//! CLI reads the disk and the language server reads its open buffers.

use std::path::{Path, PathBuf};

use crate::ast::{Document, FileKind, Span, Turn};
use crate::catalogue as cat;
use crate::check::{
    GameScenario, NameIndex, TurnChecker, check_game, check_game_header, check_scenario, turn_order_known,
};
use crate::diagnostic::Diagnostic;
use crate::incremental::{self, Edit, Reparse, TopItem};
use crate::library::RuleData;
use crate::{Parsed, parse, stdlib};

/// Reads files for the analysis.
pub trait Loader {
    fn load(&self, path: &Path) -> Result<String, String>;
}

/// Reads from the file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &Path) -> Result<String, String> {
        let bytes = read_source_bytes(path)?;
        String::from_utf8(bytes).map_err(|e| {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let (line, column) = utf8_position(bytes, at);
            format!("it is not UTF-8 text: byte 0x{:02X} at line {line}, column {column}", bytes[at])
        })
    }
}

/// Read a file that is to be parsed: a regular file of at most
/// [`crate::parser::MAX_SOURCE_BYTES`], both checked before a byte is read (a FIFO, a device
/// such as `/dev/zero` or a directory is refused, not read). The error is the reason alone,
/// without the path.
pub fn read_source_bytes(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let cap = crate::parser::MAX_SOURCE_BYTES as u64;
    // Checked before opening: opening a FIFO for reading waits for a writer.
    let kind = std::fs::metadata(path).map_err(|e| e.to_string())?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    // And again on what was opened, in case the name changed hands in between.
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.file_type().is_file() {
        return Err(not_regular(meta.file_type()));
    }
    let too_large =
        || format!("it is larger than the {} MiB dotc reads; split it into several files", cap >> 20);
    if meta.len() > cap {
        return Err(too_large());
    }
    // A file may grow while it is read: never take more than the cap and one byte.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, for an error message.
fn not_regular(kind: std::fs::FileType) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let what = if kind.is_fifo() {
            Some("a named pipe (FIFO)")
        } else if kind.is_char_device() {
            Some("a character device")
        } else if kind.is_block_device() {
            Some("a block device")
        } else if kind.is_socket() {
            Some("a socket")
        } else {
            None
        };
        if let Some(what) = what {
            return format!("it is {what}, not a regular file; dotc reads only regular files");
        }
    }
    if kind.is_dir() {
        "it is a directory, not a file".to_string()
    } else {
        "it is not a regular file; dotc reads only regular files".to_string()
    }
}

/// Line and column (1-based; the column in characters) of byte `at` of `bytes`, whose first
/// `at` bytes are valid UTF-8.
pub fn utf8_position(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = std::str::from_utf8(&bytes[..at.min(bytes.len())]).unwrap_or_default();
    crate::lines::line_col(before, before.len())
}

/// A scenario loaded on behalf of a game log.
#[derive(Debug)]
pub struct LoadedScenario {
    pub path: PathBuf,
    pub source: String,
    pub document: Document,
    pub names: NameIndex,
    pub rule_data: RuleData,
    /// The scenario's own diagnostics (shown by checking the scenario itself).
    pub diagnostics: Vec<Diagnostic>,
}

/// Everything known about one file after checking it.
#[derive(Debug)]
pub struct Analysis {
    pub document: Document,
    /// Diagnostics of this file, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// The rule data in force: the stdlib plus the file's (or its scenario's) own entries.
    pub rule_data: RuleData,
    /// For a scenario, its declared names.
    pub names: Option<NameIndex>,
    /// For a game log, its scenario.
    pub scenario: Option<Box<LoadedScenario>>,
    /// The parts [`Analysis::diagnostics`] is made of, kept apart so that [`reanalyze`] can
    /// redo one without the others: the parse's, the setup's (rule data, the scenario of a
    /// log) and the checks'.
    pub syntax: Vec<Diagnostic>,
    pub setup: Vec<Diagnostic>,
    pub checks: Vec<Diagnostic>,
    /// The file's top-level items, for [`reanalyze`].
    pub items: Vec<TopItem>,
    /// For a campaign (Ch14), its battles' scenarios and logs, in the campaign's order.
    pub battles: Vec<crate::campaign::LoadedBattle>,
}

impl Analysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parse and check one file.
pub fn analyze(path: &Path, source: &str, loader: &dyn Loader) -> Analysis {
    let mut analysis = set_up(path, parse(source), loader);
    analysis.check();
    analysis
}

/// A parsed file made ready to check: its rule data and, for a game log, its scenario loaded;
/// no checks yet, so no diagnostics ([`Analysis::check`] makes them). A game log read in
/// stretches ([`incremental::read_in_stretches`]) is set up from its head and the stretches
/// added as they are read ([`Analysis::absorb`]): neither step looks at the turns (issue 16:
/// `dotc audit` replays each stretch while the next is parsed).
pub fn set_up(path: &Path, parsed: Parsed, loader: &dyn Loader) -> Analysis {
    let document = parsed.document;
    let mut setup = Vec::new();
    let rule_data = rule_data_for(&document, &mut setup);
    let scenario = match document.kind {
        Some(FileKind::Game) => load_scenario(path, &document, loader, &mut setup),
        _ => None,
    };
    let battles = match (&document.kind, &document.campaign) {
        (Some(FileKind::Campaign), Some(campaign)) => load_battles(path, campaign, loader, &mut setup),
        _ => Vec::new(),
    };
    Analysis {
        battles,
        document,
        diagnostics: Vec::new(),
        rule_data,
        names: None,
        scenario,
        syntax: parsed.diagnostics,
        setup,
        checks: Vec::new(),
        items: parsed.items,
    }
}

impl Analysis {
    /// Add the next stretch of a game log read in stretches: its turns, its syntax diagnostics,
    /// its broken statements and its top-level items. Checked by the next [`Analysis::check`].
    pub fn absorb(&mut self, part: Parsed) {
        let mut parsed = Parsed {
            document: std::mem::take(&mut self.document),
            diagnostics: std::mem::take(&mut self.syntax),
            items: std::mem::take(&mut self.items),
        };
        parsed.append(part);
        (self.document, self.syntax, self.items) = (parsed.document, parsed.diagnostics, parsed.items);
    }

    /// Check the file as it stands, and compose its diagnostics from the parse's, the setup's
    /// and the checks'.
    pub fn check(&mut self) {
        let mut checks = Vec::new();
        match self.document.kind {
            Some(FileKind::Scenario) => {
                if let Some(s) = &self.document.scenario {
                    self.names = Some(check_scenario(s, &self.rule_data, &self.document, &mut checks));
                }
            }
            Some(FileKind::Game) => {
                check_game(&self.document, game_context(self.scenario.as_deref()), &mut checks);
            }
            Some(FileKind::Campaign) => {
                if let Some(c) = &self.document.campaign {
                    crate::campaign::check_campaign(c, &self.battles, &mut checks);
                }
            }
            Some(FileKind::Library) | None => {}
        }
        self.checks = checks;
        self.diagnostics = compose(&self.syntax, &self.setup, &self.checks, &self.document);
    }
}

/// The diagnostics [`analyze`] gives for a game log, worked out without keeping its syntax tree:
/// the log is read in stretches of whole turns of at least `stretch` bytes
/// ([`incremental::read_in_stretches`]), each stretch's turns are checked and dropped before the
/// next is read, and only the diagnostics and the broken statements are kept (issue 16: the
/// tree of a long log was most of `dotc check`'s peak memory). The turns go through the same
/// [`TurnChecker`] as in [`check_game`], and the parts are composed as [`analyze`] composes
/// them, so the result is the same list in the same order.
///
/// None when the file is not a game log that can be read in stretches (a short file, a
/// scenario or library, a head that does not read cleanly, a rest that does not stand alone):
/// the caller then analyses it whole.
pub fn check_in_stretches(
    path: &Path,
    source: &str,
    loader: &dyn Loader,
    stretch: usize,
) -> Option<Vec<Diagnostic>> {
    let (head, stretches) = incremental::read_in_stretches(source, stretch)?;
    let Parsed { document: head, diagnostics: mut syntax, .. } = head;
    let mut setup = Vec::new();
    // A log needs no rule data of its own, but its own library entries are judged in making it.
    rule_data_for(&head, &mut setup);
    let scenario = load_scenario(path, &head, loader, &mut setup);
    let mut checks = Vec::new();
    let context = check_game_header(&head, game_context(scenario.as_deref()), &mut checks);
    let mut turns = TurnChecker::new(context).with_bids(&head);
    // What the composition needs of the whole document: its kind and its broken statements.
    let mut kept = Document { kind: head.kind, ..Document::default() };
    check_stretch(&mut turns, &mut kept, head);
    for part in stretches {
        let part = part?;
        syntax.extend(part.diagnostics);
        check_stretch(&mut turns, &mut kept, part.document);
    }
    checks.extend(turns.finish(&kept.broken_words));
    syntax.append(&mut setup);
    syntax.append(&mut checks);
    Some(compose_owned(syntax, &kept))
}

/// Check a stretch's turns and keep its broken statements in `kept`; the turns are dropped.
fn check_stretch(turns: &mut TurnChecker<'_>, kept: &mut Document, part: Document) {
    for turn in &part.turns {
        turns.check(turn);
    }
    kept.broken_names.extend(part.broken_names);
    kept.broken_words.extend(part.broken_words);
    kept.broken_idents.extend(part.broken_idents);
}

/// What a game log is checked against: its scenario, the scenario's names and the names of
/// units whose declaration did not parse.
fn game_context(loaded: Option<&LoadedScenario>) -> Option<GameScenario<'_>> {
    loaded.and_then(|loaded| {
        loaded.document.scenario.as_ref().map(|s| (s, &loaded.names, loaded.document.broken_names.as_slice()))
    })
}

/// The diagnostics shown for a file, from its parts: sorted by position (stable, so parse
/// errors come before check errors at the same place), less what the syntax errors cover.
fn compose(
    syntax: &[Diagnostic],
    setup: &[Diagnostic],
    checks: &[Diagnostic],
    document: &Document,
) -> Vec<Diagnostic> {
    compose_owned(syntax.iter().chain(setup).chain(checks).cloned().collect(), document)
}

/// [`compose`] of the parts already laid end to end (syntax, setup, checks), taking them over.
/// Of `document` only its kind and its broken statements are read.
fn compose_owned(mut diagnostics: Vec<Diagnostic>, document: &Document) -> Vec<Diagnostic> {
    if document.kind.is_none() && diagnostics.is_empty() {
        diagnostics.push(cat::empty_file());
    }
    // A statement that did not parse is already reported; do not also call it missing.
    diagnostics.retain(|d| {
        d.code != "dotc::missing-statement"
            || !document.broken_words.iter().any(|w| {
                d.message == cat::missing_message(w)
                    || crate::names::suggest(
                        w,
                        [d.message.trim_start_matches("missing `").trim_end_matches('`')],
                    )
                    .is_some()
            })
    });
    // An unknown name that a statement which did not parse mentions was probably declared
    // there: the syntax error already covers it.
    diagnostics.retain(|d| {
        let Some(subject) = &d.subject else { return true };
        !(document.broken_names.contains(subject) || document.broken_idents.contains(subject))
    });
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    diagnostics
}

/// The code of the turn numbering and alternation checks.
const TURN_ORDER: &str = "dotc::turn-order";

/// Bring the analysis of a game log up to date with an edit of its text, re-parsing and
/// re-checking only the turns the edit touched (see [`crate::incremental`]); the scenario and
/// rule data are kept. The result is the analysis [`analyze`] would give for `new_text`. None,
/// with nothing changed, when only a whole analysis is certain to be right (the edit touches the
/// game header, the file is not a game log...).
pub fn reanalyze(analysis: &mut Analysis, old_text: &str, new_text: &str, edit: Edit) -> Option<Reparse> {
    if analysis.document.kind != Some(FileKind::Game) || analysis.document.game.is_none() {
        return None;
    }
    let order_known = |d: &Document| turn_order_known(&d.broken_words);
    let was_known = order_known(&analysis.document);
    let mut parsed = Parsed {
        document: std::mem::take(&mut analysis.document),
        diagnostics: std::mem::take(&mut analysis.syntax),
        items: std::mem::take(&mut analysis.items),
    };
    let reparsed = incremental::reparse(&mut parsed, old_text, new_text, edit);
    analysis.document = parsed.document;
    analysis.syntax = parsed.diagnostics;
    analysis.items = parsed.items;
    let reparsed = reparsed?;
    let context = game_context(analysis.scenario.as_deref());
    {
        // The turns checked again below, settled in place (the edit left the later turns'
        // phases to be moved when read, `Turn::phases`): the next keystroke reads them again.
        let first = reparsed.first_turn;
        let lo = first.saturating_sub(1);
        let hi = (first + reparsed.new_turns + 1).min(analysis.document.turns.len());
        analysis.document.turns.get_mut(lo..hi).into_iter().flatten().for_each(Turn::settle);
    }
    let document = &analysis.document;
    let now_known = order_known(document);
    {
        // A turn's checks depend on it and the turn before it only (check.rs): check again the
        // new turns and the one after them, with the turn before them for its number.
        let first = reparsed.first_turn;
        let after = first + reparsed.new_turns;
        let delta = reparsed.edit.delta();
        let next_end = document.turns.get(after).map(|t| t.span.end);
        let new_end = next_end.unwrap_or(reparsed.new_range.end).max(reparsed.new_range.end);
        let old_end = next_end.map_or(reparsed.old_range.end, |e| e.wrapping_add_signed(-delta));
        let old_end = old_end.max(reparsed.old_range.end);
        let lo = first.saturating_sub(1);
        let hi = (after + 1).min(document.turns.len());
        let part = Document {
            kind: document.kind,
            game: document.game.clone(),
            turns: document.turns[lo..hi].to_vec(),
            broken_words: if now_known { Vec::new() } else { vec!["turn".to_string()] },
            ..Document::default()
        };
        let mut fresh = Vec::new();
        check_game(&part, context, &mut fresh);
        let start = reparsed.new_range.start;
        fresh.retain(|d| start <= d.primary.span.start && d.primary.span.start < new_end);
        incremental::splice_diagnostics(
            &mut analysis.checks,
            Span::new(reparsed.old_range.start, old_end),
            old_end == old_text.len(),
            delta,
            reparsed.edit.old_end,
            fresh,
        );
    }
    if now_known != was_known {
        // A turn header that does not parse (or parses again) changes how every turn's
        // numbering and side are judged (check.rs, `TurnChecker`): judge them all again, on
        // the turns without their phases (whose checks do not change), and check the edited
        // turns whole below.
        let headers = Document {
            kind: document.kind,
            game: document.game.clone(),
            turns: document
                .turns
                .iter()
                .map(|t| Turn::new(t.span, t.number.clone(), t.side.clone(), Vec::new()))
                .collect(),
            broken_words: if now_known { Vec::new() } else { vec!["turn".to_string()] },
            ..Document::default()
        };
        let mut order = Vec::new();
        check_game(&headers, context, &mut order);
        order.retain(|d| d.code == TURN_ORDER);
        analysis.checks.retain(|d| d.code != TURN_ORDER);
        analysis.checks.extend(order);
        analysis.checks.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    }
    analysis.diagnostics = compose(&analysis.syntax, &analysis.setup, &analysis.checks, &analysis.document);
    Some(reparsed)
}

/// The stdlib plus a file's own library entries (top-level libraries, or a scenario's).
fn rule_data_for(document: &Document, diagnostics: &mut Vec<Diagnostic>) -> RuleData {
    let mut data = stdlib().clone();
    let own = document.libraries.iter().chain(document.scenario.iter().flat_map(|s| s.libraries.iter()));
    let extra = RuleData::from_libraries(own, diagnostics);
    data.extend(extra);
    data.check_references(diagnostics);
    data
}

/// A scenario's text parsed and checked: everything [`LoadedScenario`] holds that depends on
/// the text alone.
#[derive(Clone, Debug)]
struct CheckedScenario {
    document: Document,
    diagnostics: Vec<Diagnostic>,
    rule_data: RuleData,
    names: NameIndex,
}

/// How many scenario texts [`checked_scenario`] remembers.
const SCENARIO_CACHE: usize = 4;

/// Parse and check a scenario's text, or reuse the result for the same text. Every log of a
/// scenario (an audit of a club's season, each keystroke of a log open in the editor, each run of
/// the replay fuzz target) names the same few scenarios, and checking one is most of the cost of
/// analysing a short log. The result is a pure function of the text, so the cache is keyed by
/// the whole text, compared exactly; the most recently used texts are kept.
fn checked_scenario(source: &str) -> std::sync::Arc<CheckedScenario> {
    use std::sync::{Arc, Mutex, PoisonError};
    static CACHE: Mutex<Vec<(String, Arc<CheckedScenario>)>> = Mutex::new(Vec::new());
    let lock = || CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    {
        let mut cache = lock();
        if let Some(at) = cache.iter().position(|(text, _)| text == source) {
            let hit = cache.remove(at);
            let checked = Arc::clone(&hit.1);
            cache.push(hit);
            return checked;
        }
    }
    let parsed = parse(source);
    let mut diagnostics = parsed.diagnostics;
    let document = parsed.document;
    let (rule_data, names) = if document.kind == Some(FileKind::Scenario) {
        let rule_data = rule_data_for(&document, &mut diagnostics);
        let names = match &document.scenario {
            Some(s) => check_scenario(s, &rule_data, &document, &mut diagnostics),
            None => NameIndex::default(),
        };
        (rule_data, names)
    } else {
        (RuleData::default(), NameIndex::default())
    };
    let checked = Arc::new(CheckedScenario { document, diagnostics, rule_data, names });
    let mut cache = lock();
    if cache.len() >= SCENARIO_CACHE {
        cache.remove(0);
    }
    cache.push((source.to_string(), Arc::clone(&checked)));
    checked
}

fn load_scenario(
    log_path: &Path,
    document: &Document,
    loader: &dyn Loader,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Box<LoadedScenario>> {
    let reference = document.game.as_ref()?.scenario.as_ref()?;
    load_scenario_ref(log_path, reference, loader, diagnostics)
}

/// A campaign's battles (Ch14): each one's scenario and game log, read through the loader with
/// paths relative to the campaign file. A log is analysed whole (with its own scenario); a file
/// that cannot be read, is of another kind or does not check clean is one diagnostic at its
/// path, and a log played on another scenario than its battle's is one more.
fn load_battles(
    path: &Path,
    campaign: &crate::ast::Campaign,
    loader: &dyn Loader,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<crate::campaign::LoadedBattle> {
    use crate::catalogue::campaign as cc;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut battles = Vec::new();
    for battle in &campaign.battles {
        let mut loaded = crate::campaign::LoadedBattle::default();
        if let Some(reference) = &battle.scenario {
            let mut found = Vec::new();
            loaded.scenario = load_scenario_ref(path, reference, loader, &mut found);
            // The wording of a game log's scenario errors, with the campaign's code.
            for d in found {
                let shown = base.join(&reference.value).display().to_string();
                diagnostics.push(match d.code {
                    "dotc::not-a-scenario" => cc::file_not_kind(reference.span, "scenario", &reference.value),
                    _ if loaded.scenario.is_none() => {
                        let reason = d.message.split_once(": ").map_or("", |(_, r)| r);
                        cc::file_unreadable(reference.span, "scenario", &reference.value, reason)
                    }
                    _ => {
                        let errors = loaded
                            .scenario
                            .as_ref()
                            .map_or(0, |s| s.diagnostics.iter().filter(|d| d.is_error()).count());
                        cc::file_has_errors(reference.span, "scenario", &reference.value, errors, &shown)
                    }
                });
            }
        }
        if let Some(reference) = &battle.log {
            let log_path = base.join(&reference.value);
            match loader.load(&log_path) {
                Err(reason) => {
                    let reason = reason.find(" (os error").map_or(reason.as_str(), |cut| &reason[..cut]);
                    diagnostics.push(cc::file_unreadable(
                        reference.span,
                        "game log",
                        &reference.value,
                        reason,
                    ));
                }
                Ok(source) => {
                    let parsed = parse(&source);
                    if parsed.document.kind != Some(FileKind::Game) {
                        diagnostics.push(cc::file_not_kind(reference.span, "game log", &reference.value));
                    } else {
                        let mut log = set_up(&log_path, parsed, loader);
                        log.check();
                        let errors = log.diagnostics.iter().filter(|d| d.is_error()).count();
                        if errors > 0 {
                            let shown = log_path.display().to_string();
                            diagnostics.push(cc::file_has_errors(
                                reference.span,
                                "game log",
                                &reference.value,
                                errors,
                                &shown,
                            ));
                        }
                        if let (Some(ours), Some(theirs)) = (&loaded.scenario, &log.scenario)
                            && !same_file(&ours.path, &theirs.path)
                        {
                            let name = battle.scenario.as_ref().map_or("", |n| n.value.as_str());
                            diagnostics.push(cc::log_of_other_scenario(
                                reference.span,
                                &reference.value,
                                name,
                            ));
                        }
                        loaded.log = Some(Box::new(log));
                    }
                }
            }
        }
        battles.push(loaded);
    }
    battles
}

/// Whether two paths name one file: the same once made canonical, or written the same.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => normal(a) == normal(b),
    }
}

/// A path with its `.` and `dir/..` parts taken out (for paths the loader reads from memory).
fn normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The scenario a `scenario "path"` line names, relative to the file at `from`.
fn load_scenario_ref(
    from: &Path,
    reference: &crate::ast::Name,
    loader: &dyn Loader,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Box<LoadedScenario>> {
    let base = from.parent().unwrap_or(Path::new(""));
    let path = base.join(&reference.value);
    let source = match loader.load(&path) {
        Ok(source) => source,
        Err(reason) => {
            // The OS error number differs between systems; the words are enough.
            let reason = match reason.find(" (os error") {
                Some(cut) => &reason[..cut],
                None => reason.as_str(),
            };
            diagnostics.push(cat::scenario_not_found(reference.span, &reference.value, reason));
            return None;
        }
    };
    let checked = checked_scenario(&source);
    let CheckedScenario { document: scenario_doc, diagnostics: scenario_diags, rule_data, names } =
        (*checked).clone();
    let errors = scenario_diags.iter().filter(|d| d.is_error()).count();
    // A file whose syntax stops the parser before its kind is known is reported by its errors,
    // not as "not a scenario": a scenario with an unclosed `{` is still a scenario.
    if scenario_doc.kind != Some(FileKind::Scenario) && (scenario_doc.kind.is_some() || errors == 0) {
        diagnostics.push(cat::not_a_scenario(reference.span, &reference.value));
        return None;
    }
    if errors > 0 {
        diagnostics.push(
            Diagnostic::error(
                "dotc::scenario-not-found",
                format!(
                    "scenario \"{}\" has {errors} error{}",
                    reference.value,
                    if errors == 1 { "" } else { "s" }
                ),
                reference.span,
                "this scenario does not check clean",
            )
            .with_help(format!("run `dotc check {}` and fix it first", path.display())),
        );
    }
    Some(Box::new(LoadedScenario {
        path,
        source,
        document: scenario_doc,
        names,
        rule_data,
        diagnostics: scenario_diags,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// Serves one scenario text, which a test can change between analyses.
    struct Edited(RefCell<String>);

    impl Loader for Edited {
        fn load(&self, _path: &Path) -> Result<String, String> {
            Ok(self.0.borrow().clone())
        }
    }

    const SCENARIO: &str = include_str!("../../scenarios/tutorial/fence-line.dotc");
    const LOG: &str = "game \"g\" {\n    scenario \"fence-line.dotc\"\n}\nturn 1 confederate {\n    maneuver {\n        move \"9th Louisiana\" to (28.5, 14) facing west\n    }\n}\n";

    /// The scenario cache is keyed by the whole text: a log analysed again against an unchanged
    /// scenario gets the same result, and an edit of the scenario is seen at once (the editor
    /// re-analyses an open log whenever its scenario's buffer changes).
    #[test]
    fn a_cached_scenario_is_the_same_and_an_edited_one_is_not_stale() {
        let loader = Edited(RefCell::new(SCENARIO.to_string()));
        let path = Path::new("scenarios/tutorial/g.dotc");
        let first = analyze(path, LOG, &loader);
        assert!(!first.has_errors(), "{:?}", first.diagnostics);
        let again = analyze(path, LOG, &loader);
        assert_eq!(first.diagnostics, again.diagnostics);
        let names = |a: &Analysis| a.scenario.as_ref().map(|s| s.names.order.clone());
        assert_eq!(names(&first), names(&again));
        // Rename the unit the log moves: the log must now name an unknown unit.
        *loader.0.borrow_mut() = SCENARIO.replace("\"9th Louisiana\"", "\"9th Louisiana Tigers\"");
        let edited = analyze(path, LOG, &loader);
        assert!(
            edited.diagnostics.iter().any(|d| d.code == "dotc::unknown-unit"),
            "{:?}",
            edited.diagnostics
        );
        // And back: the first text's result again.
        *loader.0.borrow_mut() = SCENARIO.to_string();
        assert_eq!(analyze(path, LOG, &loader).diagnostics, first.diagnostics);
    }
}
