//! The open documents and what is known about each.
//!
//! A [`Workspace`] holds every open buffer with its version, its [`LineIndex`] and its cached
//! analysis. The analysis is redone only when the text changes (or, for a game log, when its
//! scenario's buffer changes); every request reads the cache. A game log's scenario is read
//! through [`BufferLoader`]: an open buffer wins over the file on disk, so a log sees the
//! scenario as it is being typed.
//!
//! Nothing here speaks the protocol except the positions and URIs it is handed; the server
//! turns the results into messages.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use dotc_lang::ast::FileKind;
use dotc_lang::diagnostic::{Diagnostic, Severity};
use dotc_lang::{Analysis, Loader, Span};
use dotc_runtime::replay::{Finding, Level, Replay, ReplayOptions, replay};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

use crate::line_index::LineIndex;

/// One open document.
#[derive(Clone, Debug)]
pub struct Doc {
    pub uri: Uri,
    /// The file it stands for, with `.` and `..` resolved (a made-up path for an unsaved buffer).
    pub path: PathBuf,
    pub version: i32,
    pub text: Arc<str>,
    pub index: Arc<LineIndex>,
    pub analyzed: Arc<Analyzed>,
}

/// A document's analysis: the language's, the rules-aware checks and, for a game log, the replay.
#[derive(Debug)]
pub struct Analyzed {
    pub analysis: Analysis,
    /// Every diagnostic shown for the file, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// For a game log that checks clean, its replay through the rules.
    pub replay: Option<Replay>,
    /// The analysis panicked; the message says where. Diagnostics are then only this report.
    pub crashed: Option<String>,
}

impl Analyzed {
    pub fn is_game(&self) -> bool {
        self.analysis.document.kind == Some(FileKind::Game)
    }

    /// The scenario file a game log was checked against.
    pub fn scenario_path(&self) -> Option<&Path> {
        self.analysis.scenario.as_ref().map(|s| s.path.as_path())
    }
}

/// What the editor should show after a change: the diagnostics of each affected document.
#[derive(Debug)]
pub struct Publication {
    pub uri: Uri,
    pub version: i32,
}

/// The open documents.
#[derive(Debug, Default)]
pub struct Workspace {
    docs: HashMap<String, Doc>,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }

    pub fn get(&self, uri: &Uri) -> Option<&Doc> {
        self.docs.get(uri.as_str())
    }

    pub fn docs(&self) -> impl Iterator<Item = &Doc> {
        self.docs.values()
    }

    /// The open document standing for a file, if any.
    pub fn by_path(&self, path: &Path) -> Option<&Doc> {
        let path = normalize(path);
        self.docs.values().find(|d| d.path == path)
    }

    /// Open (or reopen) a document and analyse it. Returns the documents whose diagnostics
    /// changed: this one and any open game log played on it.
    pub fn open(&mut self, uri: Uri, version: i32, text: String) -> Vec<Publication> {
        let path = path_of(&uri);
        let text: Arc<str> = Arc::from(text);
        let analyzed = Arc::new(self.analyze(&path, &text));
        let index = Arc::new(LineIndex::new(&text));
        self.docs
            .insert(uri.as_str().to_string(), Doc { uri: uri.clone(), path, version, text, index, analyzed });
        self.after_change(&uri)
    }

    /// Apply edits in order. A version older than or equal to the one held is stale and
    /// ignored (None); so is a change to a document that is not open.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Option<Vec<Publication>> {
        let doc = self.docs.get(uri.as_str())?;
        if version <= doc.version {
            return None;
        }
        let mut text = doc.text.to_string();
        let mut index = LineIndex::new(&text);
        for change in changes {
            match change.range {
                Some(range) => {
                    let span = index.span(&text, range);
                    text.replace_range(span.start..span.end, &change.text);
                }
                None => text = change.text,
            }
            index = LineIndex::new(&text);
        }
        let unchanged = *doc.text == *text;
        let path = doc.path.clone();
        let analyzed = if unchanged { doc.analyzed.clone() } else { Arc::new(self.analyze(&path, &text)) };
        if let Some(doc) = self.docs.get_mut(uri.as_str()) {
            doc.version = version;
            doc.text = Arc::from(text);
            doc.index = Arc::new(index);
            doc.analyzed = analyzed;
        }
        if unchanged {
            return Some(Vec::new());
        }
        Some(self.after_change(uri))
    }

    /// Forget a closed document; game logs played on it go back to the file on disk.
    pub fn close(&mut self, uri: &Uri) -> Vec<Publication> {
        let Some(doc) = self.docs.remove(uri.as_str()) else { return Vec::new() };
        self.reanalyze_dependents(&doc.path)
    }

    /// This document, and every open game log that names it as its scenario, re-analysed.
    fn after_change(&mut self, uri: &Uri) -> Vec<Publication> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let mut out = vec![Publication { uri: uri.clone(), version: doc.version }];
        let path = doc.path.clone();
        out.extend(self.reanalyze_dependents(&path));
        out
    }

    fn reanalyze_dependents(&mut self, scenario: &Path) -> Vec<Publication> {
        let dependents: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| {
                d.path != scenario && d.analyzed.scenario_path().map(normalize).as_deref() == Some(scenario)
            })
            .map(|(k, _)| k.clone())
            .collect();
        let mut out = Vec::new();
        for key in dependents {
            let Some(doc) = self.docs.get(&key) else { continue };
            let (path, text) = (doc.path.clone(), doc.text.clone());
            let analyzed = Arc::new(self.analyze(&path, &text));
            if let Some(doc) = self.docs.get_mut(&key) {
                doc.analyzed = analyzed;
                out.push(Publication { uri: doc.uri.clone(), version: doc.version });
            }
        }
        out
    }

    /// Analyse a text as the file at `path`, catching any panic.
    pub fn analyze(&self, path: &Path, text: &str) -> Analyzed {
        let loader =
            BufferLoader { buffers: self.docs.values().map(|d| (d.path.clone(), d.text.clone())).collect() };
        analyze_text(path, text, &loader)
    }
}

/// Analyse one file the way `dotc check` and `dotc audit` together do. A panic anywhere in the
/// analysis is caught and reported as one diagnostic at the top of the file.
pub fn analyze_text(path: &Path, text: &str, loader: &dyn Loader) -> Analyzed {
    let run =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| analyze_unguarded(path, text, loader)));
    match run {
        Ok(analyzed) => analyzed,
        Err(panic) => {
            let message = panic_message(&panic);
            let diagnostic = Diagnostic::error(
                "dotc::internal-error",
                format!("the analysis of this file failed: {message}"),
                Span::new(0, 0),
                "please report this with the file",
            );
            Analyzed {
                analysis: Analysis {
                    document: Default::default(),
                    diagnostics: Vec::new(),
                    rule_data: dotc_lang::stdlib().clone(),
                    names: None,
                    scenario: None,
                },
                diagnostics: vec![diagnostic],
                replay: None,
                crashed: Some(message),
            }
        }
    }
}

fn analyze_unguarded(path: &Path, text: &str, loader: &dyn Loader) -> Analyzed {
    let analysis = dotc_lang::analyze(path, text, loader);
    let mut diagnostics = analysis.diagnostics.clone();
    if let (Some(scenario), Some(names)) = (&analysis.document.scenario, analysis.names.as_ref()) {
        diagnostics.extend(dotc_runtime::check::check_scenario(scenario, names, &analysis.rule_data));
    }
    let mut replayed = None;
    if analysis.document.kind == Some(FileKind::Game) && !analysis.has_errors() && analysis.scenario.is_some()
    {
        // No source: the replay would use it only for line numbers and quotes, which the server
        // takes from spans, and finding a line by scanning from the top costs O(n) per event.
        let options = ReplayOptions::default();
        let result = replay(&analysis, &options);
        diagnostics.extend(audit_diagnostics(&analysis, &result));
        replayed = Some(result);
    }
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    Analyzed { analysis, diagnostics, replay: replayed, crashed: None }
}

/// The code `dotc audit` gives a finding of each level.
pub fn finding_code(level: Level) -> &'static str {
    match level {
        Level::Error => "dotc::replay-disagrees",
        Level::Warning => "dotc::replay-doubtful",
        Level::Note => "dotc::replay-not-replayed",
        Level::Followed => "dotc::replay-follows-log",
    }
}

/// A replay finding as a diagnostic, as `dotc replay` prints it.
pub fn finding_diagnostic(f: &Finding) -> Diagnostic {
    let (severity, label) = match f.level {
        Level::Error => (Severity::Error, "the rules disagree"),
        Level::Warning => (Severity::Warning, "doubtful"),
        Level::Note => (Severity::Advice, "not replayed"),
        Level::Followed => (Severity::Advice, "followed"),
    };
    let mut d = Diagnostic::error(finding_code(f.level), f.message.clone(), f.span, label);
    d.severity = severity;
    if !f.rule.is_empty() {
        d = d.with_rule(f.rule.clone());
    }
    d
}

/// The audit's errors and warnings, less what an `@allow` on the same action suppresses (as
/// `dotc audit` counts them).
fn audit_diagnostics(analysis: &Analysis, replayed: &Replay) -> Vec<Diagnostic> {
    let mut allows: Vec<(Span, &str)> = Vec::new();
    for action in analysis.document.turns.iter().flat_map(|t| &t.phases).flat_map(|p| &p.actions) {
        for step in &action.steps {
            allows.extend(step.allows.iter().map(|a| (step.span, a.code.value.as_str())));
        }
        allows.extend(action.allows.iter().map(|a| (action.span, a.code.value.as_str())));
    }
    replayed
        .findings
        .iter()
        .filter(|f| matches!(f.level, Level::Error | Level::Warning))
        .filter(|f| {
            let code = finding_code(f.level).trim_start_matches("dotc::");
            !allows.iter().any(|(span, allowed)| {
                span.start <= f.span.start
                    && f.span.end <= span.end
                    && allowed.trim_start_matches("dotc::") == code
            })
        })
        .map(finding_diagnostic)
        .collect()
}

/// The text of a caught panic.
pub fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Reads open buffers first, then the disk.
pub struct BufferLoader {
    pub buffers: HashMap<PathBuf, Arc<str>>,
}

impl Loader for BufferLoader {
    fn load(&self, path: &Path) -> Result<String, String> {
        match self.buffers.get(&normalize(path)) {
            Some(text) => Ok(text.to_string()),
            None => dotc_lang::FsLoader.load(path),
        }
    }
}

/// The file a URI stands for, `.` and `..` resolved; an unsaved buffer (`untitled:`) gets a
/// path made of its URI's path, so a log in it still finds a scenario beside the working folder.
pub fn path_of(uri: &Uri) -> PathBuf {
    let is_file = uri.scheme().as_str().eq_ignore_ascii_case("file");
    let path = if is_file { uri.to_file_path().map(|p| p.into_owned()) } else { None };
    normalize(&path.unwrap_or_else(|| PathBuf::from(uri.path().as_str())))
}

/// A path with `.` and `..` resolved without touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The URI of a file path (absolute paths always convert).
pub fn uri_of(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

/// A zero-width range at the start of a text.
pub fn start_range() -> Range {
    Range { start: Position { line: 0, character: 0 }, end: Position { line: 0, character: 0 } }
}
