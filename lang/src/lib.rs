//! The dotc language: the grammar of `.dotc` files (scenarios, game logs and rule-data
//! libraries), its typed syntax tree, semantic checks and diagnostics.
//!
//! Invariants:
//! - Nothing here panics on any input, and nothing gives up at the first error: every entry
//!   point returns what it could make of the input plus diagnostics.
//! - Offsets are bytes. Lines and UTF-16 columns are computed only at the edges.
//! - No IO except through [`Loader`], so the language server can feed unsaved buffers.
//! - No LSP types; the language server adapts these plain functions.

pub mod analysis;
pub mod ast;
pub mod campaign;
pub mod catalogue;
pub mod check;
pub mod claims;
pub mod diagnostic;
pub mod format;
pub mod incremental;
pub mod keywords;
pub mod library;
pub mod lines;
mod lower;
pub mod model;
pub mod names;
pub mod parser;
pub mod ranges;
pub mod references;
pub mod rulings;
pub mod script_limits;
pub mod verbs;

use std::sync::OnceLock;

pub use analysis::{Analysis, FsLoader, Loader, analyze};
pub use ast::{Document, Span};
pub use diagnostic::{Diagnostic, Severity};
use library::RuleData;

/// The result of parsing one file: its syntax tree and the syntax diagnostics.
#[derive(Debug)]
pub struct Parsed {
    pub document: Document,
    pub diagnostics: Vec<Diagnostic>,
    /// The top-level items, in order: what [`incremental::reparse`] re-parses one by one.
    pub items: Vec<incremental::TopItem>,
}

impl Parsed {
    /// Add the parse of the file's next stretch ([`incremental::read_in_stretches`]): its turns,
    /// its syntax diagnostics, its broken statements and its top-level items.
    pub fn append(&mut self, part: Parsed) {
        let document = &mut self.document;
        document.turns.extend(part.document.turns);
        document.broken_names.extend(part.document.broken_names);
        document.broken_words.extend(part.document.broken_words);
        document.broken_idents.extend(part.document.broken_idents);
        self.diagnostics.extend(part.diagnostics);
        self.items.extend(part.items);
    }
}

/// Parse and lower a `.dotc` file. Never fails: errors are diagnostics.
///
/// A long file is read in stretches of whole turns ([`incremental::parse_in_stretches`]), so
/// the parser's token list for only one stretch is alive at a time rather than the whole file's
/// (issue 16: `check`'s peak memory); whenever a stretch might not read as it would in the whole
/// file, the whole file is parsed at once instead, so the result is the same either way.
pub fn parse(source: &str) -> Parsed {
    incremental::parse_in_stretches(source, incremental::STRETCH_BYTES).unwrap_or_else(|| parse_whole(source))
}

/// Parse and lower a `.dotc` file in one pass of the grammar over all of it.
pub fn parse_whole(source: &str) -> Parsed {
    let mut diagnostics = Vec::new();
    let mut items = Vec::new();
    let document = match parser::parse_rule(parser::Rule::file, source) {
        Ok(pairs) => {
            items = incremental::top_items(&pairs);
            lower::lower_file(pairs, &mut diagnostics)
        }
        Err(diagnostic) => {
            diagnostics.push(*diagnostic);
            Document::default()
        }
    };
    Parsed { document, diagnostics, items }
}

/// The rule data of the rulebook (the `stdlib/` libraries, embedded in the binary): read from
/// the ready-made copy ([`library::cache`]) when it matches the embedded sources, otherwise
/// parsed from them ([`stdlib_parsed`]).
pub fn stdlib() -> &'static RuleData {
    static STDLIB: OnceLock<RuleData> = OnceLock::new();
    STDLIB.get_or_init(|| library::cache::load().unwrap_or_else(stdlib_parsed))
}

/// The rule data of the rulebook parsed from the embedded `stdlib/` sources.
pub fn stdlib_parsed() -> RuleData {
    let mut diagnostics = Vec::new();
    let documents: Vec<Document> =
        library::STDLIB_FILES.iter().map(|(_, source)| parse(source).document).collect();
    let libraries = documents.iter().flat_map(|d| d.libraries.iter());
    // The stdlib is checked clean by its own tests; here a broken entry is just left out.
    RuleData::from_libraries(libraries, &mut diagnostics)
}
