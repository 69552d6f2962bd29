//! One call that takes a file from text to every diagnostic the language layer can give.
//!
//! A game log names its scenario by path; the scenario is read through a [`Loader`], so the
//! CLI reads the disk and the language server reads its open buffers.

use std::path::{Path, PathBuf};

use crate::ast::{Document, FileKind};
use crate::catalogue as cat;
use crate::check::{NameIndex, check_game, check_scenario};
use crate::diagnostic::Diagnostic;
use crate::library::RuleData;
use crate::{parse, stdlib};

/// Reads files for the analysis.
pub trait Loader {
    fn load(&self, path: &Path) -> Result<String, String>;
}

/// Reads from the file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &Path) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| e.to_string())
    }
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
}

impl Analysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parse and check one file.
pub fn analyze(path: &Path, source: &str, loader: &dyn Loader) -> Analysis {
    let parsed = parse(source);
    let mut diagnostics = parsed.diagnostics;
    let document = parsed.document;
    let rule_data = rule_data_for(&document, &mut diagnostics);
    let mut names = None;
    let mut scenario = None;
    match document.kind {
        Some(FileKind::Scenario) => {
            if let Some(s) = &document.scenario {
                names = Some(check_scenario(s, &rule_data, &document, &mut diagnostics));
            }
        }
        Some(FileKind::Game) => {
            scenario = load_scenario(path, &document, loader, &mut diagnostics);
            let context = scenario.as_ref().and_then(|loaded| {
                loaded
                    .document
                    .scenario
                    .as_ref()
                    .map(|s| (s, &loaded.names, loaded.document.broken_names.as_slice()))
            });
            check_game(&document, context, &mut diagnostics);
        }
        Some(FileKind::Library) | None => {}
    }
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
    Analysis { document, diagnostics, rule_data, names, scenario }
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

fn load_scenario(
    log_path: &Path,
    document: &Document,
    loader: &dyn Loader,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Box<LoadedScenario>> {
    let reference = document.game.as_ref()?.scenario.as_ref()?;
    let base = log_path.parent().unwrap_or(Path::new(""));
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
    let parsed = parse(&source);
    let mut scenario_diags = parsed.diagnostics;
    let scenario_doc = parsed.document;
    if scenario_doc.kind != Some(FileKind::Scenario) {
        diagnostics.push(cat::not_a_scenario(reference.span, &reference.value));
        return None;
    }
    let rule_data = rule_data_for(&scenario_doc, &mut scenario_diags);
    let names = match &scenario_doc.scenario {
        Some(s) => check_scenario(s, &rule_data, &scenario_doc, &mut scenario_diags),
        None => NameIndex::default(),
    };
    let errors = scenario_diags.iter().filter(|d| d.is_error()).count();
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
