//! What is under the cursor, where it is declared, where else it is written, and renaming it.
//!
//! A unit, brigade or leader is a quoted name: declared once in a scenario, and written again in
//! the scenario (attachments, reinforcements) and in every game log played on it. A rule-data
//! id is a bare word: defined by a `library` entry of the file or its scenario, or by the
//! stdlib. The stdlib is embedded in the binary; "go to definition" opens the repository's
//! `stdlib/` file when the document lies inside a checkout that has it, and otherwise a
//! read-only copy written once to the temporary folder.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dotc_lang::ast::{Document, Library};
use dotc_lang::check::{NameIndex, NameKind};
use dotc_lang::library::STDLIB_FILES;
use dotc_lang::{Span, parse};
use tower_lsp_server::ls_types::{Location, TextEdit, Uri, WorkspaceEdit};

use crate::lex::{self, Token, TokenKind};
use crate::line_index::LineIndex;
use crate::workspace::{Doc, Workspace, normalize, uri_of};

/// The thing under the cursor.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A quoted name, its value unescaped, and the string's span (quotes included).
    Name(String, Token),
    /// A bare word and its span.
    Word(String, Span),
}

/// The token at a byte offset, read from its line only (so half-typed text elsewhere does not
/// matter).
pub fn target_at(doc: &Doc, offset: usize) -> Option<Target> {
    let line = doc.index.line_of(offset);
    let tokens = lex::tokens(&doc.text, doc.index.line_start(line), doc.index.line_start(line + 1));
    let token = lex::token_at(&tokens, offset)?;
    match token.kind {
        TokenKind::Str { .. } => Some(Target::Name(token.value(&doc.text), token)),
        TokenKind::Word => Some(Target::Word(token.text(&doc.text).to_string(), token.span)),
        _ => None,
    }
}

/// The scenario a document is about: itself, or a game log's scenario.
pub struct ScenarioView<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub document: &'a Document,
    pub names: &'a NameIndex,
}

pub fn scenario_of(doc: &Doc) -> Option<ScenarioView<'_>> {
    let analysis = &doc.analyzed.analysis;
    if let Some(names) = analysis.names.as_ref() {
        return Some(ScenarioView { path: &doc.path, text: &doc.text, document: &analysis.document, names });
    }
    let loaded = analysis.scenario.as_deref()?;
    Some(ScenarioView {
        path: &loaded.path,
        text: &loaded.source,
        document: &loaded.document,
        names: &loaded.names,
    })
}

/// The URI for a file: the open buffer's own URI when there is one.
fn uri_for(ws: &Workspace, path: &Path) -> Option<Uri> {
    ws.by_path(path).map(|d| d.uri.clone()).or_else(|| uri_of(path))
}

/// A location in a text that may not be open.
fn location(uri: Uri, text: &str, span: Span) -> Location {
    Location { uri, range: LineIndex::new(text).range(text, span) }
}

/// Where the thing under the cursor is declared or defined.
pub fn definition(ws: &Workspace, doc: &Doc, offset: usize) -> Option<Location> {
    if doc.analyzed.is_campaign() {
        return crate::campaign::definition(ws, doc, offset);
    }
    match target_at(doc, offset)? {
        Target::Name(name, _) => {
            let scenario = scenario_of(doc)?;
            let (_, span, _) = scenario.names.get(&name)?;
            Some(location(uri_for(ws, scenario.path)?, scenario.text, *span))
        }
        Target::Word(word, _) => {
            if doc.analyzed.is_game() && word == "scenario" {
                let scenario = scenario_of(doc)?;
                return Some(location(uri_for(ws, scenario.path)?, scenario.text, Span::new(0, 0)));
            }
            entry_definition(ws, doc, &word)
        }
    }
}

/// Where a rule-data id is defined: a library entry of the file or its scenario, else the stdlib.
fn entry_definition(ws: &Workspace, doc: &Doc, word: &str) -> Option<Location> {
    let own = doc
        .analyzed
        .analysis
        .document
        .libraries
        .iter()
        .chain(doc.analyzed.analysis.document.scenario.iter().flat_map(|s| s.libraries.iter()));
    if let Some(span) = entry_span(own, word) {
        return Some(location(doc.uri.clone(), &doc.text, span));
    }
    if let Some(scenario) = scenario_of(doc).filter(|s| s.path != doc.path) {
        let libraries = scenario.document.scenario.iter().flat_map(|s| s.libraries.iter());
        if let Some(span) = entry_span(libraries, word) {
            return Some(location(uri_for(ws, scenario.path)?, scenario.text, span));
        }
    }
    let (file, span) = stdlib_entry(word)?;
    let source = STDLIB_FILES.iter().find(|(name, _)| *name == file)?.1;
    Some(location(stdlib_uri(file, source, &doc.path)?, source, span))
}

fn entry_span<'a>(libraries: impl Iterator<Item = &'a Library>, word: &str) -> Option<Span> {
    libraries.flat_map(|l| l.entries.iter()).find(|e| e.id.value == word).map(|e| e.id.span)
}

/// The stdlib file and id span of an entry, by id.
pub fn stdlib_entry(word: &str) -> Option<(&'static str, Span)> {
    static INDEX: OnceLock<HashMap<String, (&'static str, Span)>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = HashMap::new();
        for (file, source) in STDLIB_FILES {
            let parsed = parse(source);
            for entry in parsed.document.libraries.iter().flat_map(|l| l.entries.iter()) {
                index.entry(entry.id.value.clone()).or_insert((*file, entry.id.span));
            }
        }
        index
    });
    index.get(word).copied()
}

/// A URI showing an embedded stdlib file: the checkout's own copy if the document lies in one
/// and the copy matches, else a copy in the temporary folder.
pub fn stdlib_uri(file: &str, source: &str, near: &Path) -> Option<Uri> {
    for dir in near.ancestors().skip(1) {
        let candidate = dir.join("stdlib").join(file);
        if std::fs::read_to_string(&candidate).is_ok_and(|text| text == source) {
            return uri_of(&candidate);
        }
    }
    let dir = std::env::temp_dir().join(format!("dotc-stdlib-{}", env!("CARGO_PKG_VERSION")));
    let path = dir.join(file);
    if std::fs::read_to_string(&path).ok().as_deref() != Some(source) {
        std::fs::create_dir_all(&dir).ok()?;
        let _ = std::fs::remove_file(&path);
        std::fs::write(&path, source).ok()?;
        if let Ok(meta) = std::fs::metadata(&path) {
            let mut permissions = meta.permissions();
            permissions.set_readonly(true);
            let _ = std::fs::set_permissions(&path, permissions);
        }
    }
    uri_of(&path)
}

/// A file that may hold occurrences: its URI and text.
struct Source {
    uri: Uri,
    text: String,
}

/// The scenario of a document and every game log played on it, each once: the open logs, and
/// the logs on disk in the scenario's folder and the workspace folders (see [`logs_on_disk`]).
fn family(ws: &Workspace, doc: &Doc) -> Vec<Source> {
    let mut out: Vec<Source> = Vec::new();
    let scenario_path: Option<PathBuf> = scenario_of(doc).map(|s| normalize(s.path));
    if let Some(scenario) = scenario_of(doc)
        && let Some(uri) = uri_for(ws, scenario.path)
    {
        out.push(Source { uri, text: scenario.text.to_string() });
    }
    for other in ws.docs() {
        let plays_on = other.analyzed.scenario_path().map(normalize);
        let related = other.uri == doc.uri || (scenario_path.is_some() && plays_on == scenario_path);
        if related && !out.iter().any(|s| s.uri == other.uri) {
            out.push(Source { uri: other.uri.clone(), text: other.text.to_string() });
        }
    }
    if let Some(scenario) = &scenario_path {
        let mut roots: Vec<PathBuf> = ws.roots.clone();
        roots.extend(scenario.parent().map(Path::to_path_buf));
        for (path, text) in logs_on_disk(&roots, scenario) {
            if ws.by_path(&path).is_some() {
                continue; // open: its buffer is already in
            }
            if let Some(uri) = uri_of(&path)
                && !out.iter().any(|s| s.uri == uri)
            {
                out.push(Source { uri, text });
            }
        }
    }
    out.sort_by(|a, b| a.uri.as_str().cmp(b.uri.as_str()));
    out
}

/// How many files and folders a search for logs looks at, at most, so a huge folder (a home
/// directory opened by mistake) cannot stall a rename.
const MAX_VISITED: usize = 20_000;

/// The `.dotc` files under `roots` (recursively; hidden folders, `target` and `node_modules`
/// left out), at most [`MAX_VISITED`] files and folders looked at.
pub fn dotc_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut visited = 0;
    let mut stack: Vec<PathBuf> = roots.iter().map(|r| normalize(r)).collect();
    stack.sort();
    stack.dedup();
    let mut seen_dirs: Vec<PathBuf> = Vec::new();
    while let Some(dir) = stack.pop() {
        if seen_dirs.contains(&dir) {
            continue;
        }
        seen_dirs.push(dir.clone());
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            visited += 1;
            if visited > MAX_VISITED {
                return out;
            }
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                    stack.push(path);
                }
                continue;
            }
            let path = normalize(&path);
            if name.ends_with(".dotc") && !out.contains(&path) {
                out.push(path);
            }
        }
    }
    out
}

/// The game logs under `roots` (see [`dotc_files`]) whose header names `scenario`, with their
/// text.
pub fn logs_on_disk(roots: &[PathBuf], scenario: &Path) -> Vec<(PathBuf, String)> {
    let file_name = scenario.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let mut out: Vec<(PathBuf, String)> = Vec::new();
    for path in dotc_files(roots) {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        // Cheap first: a log that names this scenario has its file name in it.
        if !text.contains(&file_name) || !text.contains("game") {
            continue;
        }
        let document = parse(&text).document;
        let Some(reference) = document.game.as_ref().and_then(|g| g.scenario.as_ref()) else { continue };
        let base = path.parent().unwrap_or(Path::new(""));
        if normalize(&base.join(&reference.value)) == normalize(scenario) {
            out.push((path, text));
        }
    }
    out
}

/// Every string token in a text whose value is `name`.
fn name_tokens(text: &str, name: &str) -> Vec<Token> {
    lex::tokens(text, 0, text.len())
        .into_iter()
        .filter(|t| matches!(t.kind, TokenKind::Str { .. }) && t.value(text) == name)
        .collect()
}

/// Every place the thing under the cursor is written: a name across the scenario and its logs
/// (open or on disk), a rule-data id in this file and its scenario.
pub fn references(
    ws: &Workspace,
    doc: &Doc,
    offset: usize,
    include_declaration: bool,
) -> Option<Vec<Location>> {
    if let Some(campaign) = crate::campaign::references(ws, doc, offset) {
        return campaign;
    }
    let mut out = Vec::new();
    match target_at(doc, offset)? {
        Target::Name(name, _) => {
            let scenario = scenario_of(doc)?;
            let (_, declared, _) = *scenario.names.get(&name)?;
            let scenario_uri = uri_for(ws, scenario.path);
            for source in family(ws, doc) {
                let index = LineIndex::new(&source.text);
                for token in name_tokens(&source.text, &name) {
                    let is_declaration = Some(&source.uri) == scenario_uri.as_ref() && token.span == declared;
                    if is_declaration && !include_declaration {
                        continue;
                    }
                    out.push(Location {
                        uri: source.uri.clone(),
                        range: index.range(&source.text, token.span),
                    });
                }
            }
            // The campaigns that play this scenario name it too (Ch14, dotc D33).
            crate::campaign::extend_references(ws, scenario.path, &name, &mut out);
        }
        Target::Word(word, _) => {
            let mut sources = vec![Source { uri: doc.uri.clone(), text: doc.text.to_string() }];
            if let Some(scenario) = scenario_of(doc).filter(|s| s.path != doc.path)
                && let Some(uri) = uri_for(ws, scenario.path)
            {
                sources.push(Source { uri, text: scenario.text.to_string() });
            }
            for source in sources {
                let index = LineIndex::new(&source.text);
                for token in lex::tokens(&source.text, 0, source.text.len()) {
                    if token.kind == TokenKind::Word && token.text(&source.text) == word {
                        out.push(Location {
                            uri: source.uri.clone(),
                            range: index.range(&source.text, token.span),
                        });
                    }
                }
            }
        }
    }
    Some(out)
}

/// The name under the cursor if it can be renamed (a declared unit, brigade or leader), with
/// the span of its text inside the quotes.
pub fn prepare_rename(doc: &Doc, offset: usize) -> Option<(String, NameKind, Span)> {
    let Target::Name(name, token) = target_at(doc, offset)? else { return None };
    let scenario = scenario_of(doc)?;
    let (kind, declared, _) = *scenario.names.get(&name)?;
    // A replacement colonel the scenario does not name (Ch16 2.4) has no declaration to rename.
    if kind == NameKind::Replacement && !scenario.text.get(declared.start..declared.end)?.contains(&name) {
        return None;
    }
    Some((name, kind, token.inner()))
}

/// Rename a unit, brigade or leader in its scenario and every game log played on it, open or
/// on disk.
pub fn rename(
    ws: &Workspace,
    doc: &Doc,
    offset: usize,
    new_name: &str,
) -> Result<Option<WorkspaceEdit>, String> {
    if let Some(answer) = crate::campaign::rename(ws, doc, offset, new_name) {
        return answer;
    }
    let Some((name, _, _)) = prepare_rename(doc, offset) else {
        return Ok(None);
    };
    if new_name.is_empty() || new_name.contains(['\n', '\r']) {
        return Err("a name must be one non-empty line".to_string());
    }
    if let Some(scenario) = scenario_of(doc)
        && new_name != name
        && scenario.names.get(new_name).is_some()
    {
        return Err(format!("the scenario already has a \"{new_name}\""));
    }
    let replacement = lex::escape(new_name);
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for source in family(ws, doc) {
        let index = LineIndex::new(&source.text);
        let edits: Vec<TextEdit> = name_tokens(&source.text, &name)
            .into_iter()
            .map(|t| TextEdit { range: index.range(&source.text, t.inner()), new_text: replacement.clone() })
            .collect();
        if !edits.is_empty() {
            changes.insert(source.uri, edits);
        }
    }
    let mut edit = WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() };
    // The campaigns that play this scenario name the unit too (Ch14, dotc D33).
    if let Some(scenario) = scenario_of(doc) {
        crate::campaign::extend_rename(ws, scenario.path, &name, new_name, &mut edit);
    }
    Ok(Some(edit))
}
