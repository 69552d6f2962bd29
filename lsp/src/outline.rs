//! The shape of a file: document symbols, folding ranges and formatting (semantic tokens:
//! [`crate::semantic`]).

use dotc_lang::Span;
use dotc_lang::ast::{Brigade, Entry, Side, Unit};
use tower_lsp_server::ls_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind, TextEdit};

use crate::lex::{self, TokenKind};
use crate::workspace::Doc;

/// A library entry: its id, with its kind as the detail.
fn entry_symbol(e: &Entry) -> Outline {
    symbol(&e.id.value, Some(e.kind.value.clone()), SymbolKind::CONSTANT, e.span, e.id.span, Vec::new())
}

/// Sides, brigades, regiments and leaders of a scenario; library entries; the game header,
/// turns and phases of a log.
pub fn symbols(doc: &Doc) -> Vec<DocumentSymbol> {
    SymbolInputs::of(doc).symbols()
}

/// A document's outline with byte spans, copied out of its syntax tree, and the text and line
/// index (shared) to place them with. The server takes it under the workspace lock, which is
/// cheap, and turns the spans into lines and UTF-16 columns on a blocking thread, which is most
/// of the work on a long log (issue 16: document symbols no longer hold up edits).
#[derive(Clone, Debug)]
pub struct SymbolInputs {
    text: std::sync::Arc<String>,
    index: std::sync::Arc<crate::line_index::LineIndex>,
    outline: Vec<Outline>,
}

/// One symbol of the outline, placed by byte spans.
#[derive(Clone, Debug)]
struct Outline {
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    span: Span,
    selection: Span,
    children: Vec<Outline>,
}

impl SymbolInputs {
    pub fn of(doc: &Doc) -> SymbolInputs {
        SymbolInputs { text: doc.text.clone(), index: doc.index.clone(), outline: outline(doc) }
    }

    /// The outline as the protocol gives it.
    pub fn symbols(&self) -> Vec<DocumentSymbol> {
        self.outline.iter().map(|o| self.placed(o)).collect()
    }

    #[allow(deprecated)] // `deprecated` is a required field of the protocol type.
    fn placed(&self, o: &Outline) -> DocumentSymbol {
        let children: Vec<DocumentSymbol> = o.children.iter().map(|c| self.placed(c)).collect();
        DocumentSymbol {
            // The protocol rejects an empty name.
            name: if o.name.is_empty() { "(unnamed)".to_string() } else { o.name.clone() },
            detail: o.detail.clone(),
            kind: o.kind,
            tags: None,
            deprecated: None,
            range: self.index.range(&self.text, o.span),
            selection_range: self.index.range(&self.text, o.selection),
            children: if children.is_empty() { None } else { Some(children) },
        }
    }
}

fn outline(doc: &Doc) -> Vec<Outline> {
    let document = &doc.analyzed.analysis.document;
    let mut out = Vec::new();
    if let Some(s) = &document.scenario {
        let mut children: Vec<Outline> = s.sides.iter().map(side_symbol).collect();
        children.extend(s.libraries.iter().flat_map(|l| l.entries.iter()).map(entry_symbol));
        out.push(symbol(
            &s.name.value,
            Some("scenario".into()),
            SymbolKind::NAMESPACE,
            s.span,
            s.name.span,
            children,
        ));
    }
    for library in &document.libraries {
        let children = library.entries.iter().map(entry_symbol).collect();
        let (name, selection) = match &library.name {
            Some(n) => (n.value.as_str(), n.span),
            None => ("library", library.span),
        };
        out.push(symbol(
            name,
            Some("library".into()),
            SymbolKind::PACKAGE,
            library.span,
            selection,
            children,
        ));
    }
    if let Some(game) = &document.game {
        out.push(symbol(
            &game.name.value,
            Some("game".into()),
            SymbolKind::NAMESPACE,
            game.span,
            game.name.span,
            Vec::new(),
        ));
    }
    for turn in &document.turns {
        // Two spans a phase: moved here, not by copying a turn an edit moved (`Turn::phases`).
        let (phases, lag) = turn.stored_phases();
        let children = phases
            .iter()
            .map(|p| {
                let detail = format!("{} actions", p.actions.len());
                let (span, word) = (p.span.shifted(lag), p.kind.span.shifted(lag));
                symbol(p.kind.value.word(), Some(detail), SymbolKind::EVENT, span, word, Vec::new())
            })
            .collect();
        let name = format!("turn {} {}", turn.number.value, turn.side.value);
        out.push(symbol(&name, None, SymbolKind::OBJECT, turn.span, turn.number.span, children));
    }
    out
}

fn side_symbol(side: &Side) -> Outline {
    let mut children = Vec::new();
    for c in &side.commanders {
        children.push(symbol(
            &c.name.value,
            Some(format!("{} commander", c.level.value)),
            SymbolKind::CONSTRUCTOR,
            c.span,
            c.name.span,
            Vec::new(),
        ));
    }
    children.extend(side.brigades.iter().map(brigade_symbol));
    children.extend(side.units.iter().map(unit_symbol));
    let detail = side.name.as_ref().map(|n| n.value.clone());
    symbol(&side.id.value, detail, SymbolKind::MODULE, side.span, side.id.span, children)
}

fn brigade_symbol(brigade: &Brigade) -> Outline {
    let mut children: Vec<Outline> = brigade
        .brigadiers
        .iter()
        .map(|b| {
            symbol(
                &b.name.value,
                Some("brigadier".into()),
                SymbolKind::CONSTRUCTOR,
                b.span,
                b.name.span,
                Vec::new(),
            )
        })
        .collect();
    children.extend(brigade.units.iter().map(unit_symbol));
    symbol(
        &brigade.name.value,
        Some("brigade".into()),
        SymbolKind::STRUCT,
        brigade.span,
        brigade.name.span,
        children,
    )
}

fn unit_symbol(unit: &Unit) -> Outline {
    symbol(
        &unit.name.value,
        Some(unit.kind.word().into()),
        SymbolKind::FIELD,
        unit.span,
        unit.name.span,
        Vec::new(),
    )
}

fn symbol(
    name: &str,
    detail: Option<String>,
    kind: SymbolKind,
    span: Span,
    selection: Span,
    children: Vec<Outline>,
) -> Outline {
    Outline { name: name.to_string(), detail, kind, span, selection, children }
}

/// Every `{ }` block, comment, text block and script that spans lines, from the text itself
/// (so a half-written file still folds).
pub fn folding(doc: &Doc) -> Vec<FoldingRange> {
    folding_of(&doc.text, &doc.index)
}

/// The folding ranges of a text with its line index (all that folding needs: the server makes
/// them from a snapshot of these two, off the lock).
pub fn folding_of(text: &str, index: &crate::line_index::LineIndex) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let fold = |start: usize, end: usize, kind: Option<FoldingRangeKind>, out: &mut Vec<FoldingRange>| {
        let (first, last) = (index.line_of(start), index.line_of(end));
        if last > first {
            out.push(FoldingRange {
                start_line: first as u32,
                start_character: None,
                end_line: last as u32,
                end_character: None,
                kind,
                collapsed_text: None,
            });
        }
    };
    let mut comment_run: Option<(usize, usize)> = None;
    for token in lex::tokens(text, 0, text.len()) {
        match (token.kind, token.text(text)) {
            (TokenKind::Punct, "{") => open.push(token.span.start),
            (TokenKind::Punct, "}") => {
                if let Some(start) = open.pop() {
                    // Keep the closing brace's line visible.
                    fold(
                        start,
                        token.span.start.saturating_sub(1).max(start),
                        Some(FoldingRangeKind::Region),
                        &mut out,
                    );
                }
            }
            (TokenKind::Comment, t) if t.starts_with("/*") => {
                fold(token.span.start, token.span.end, Some(FoldingRangeKind::Comment), &mut out)
            }
            (TokenKind::Text | TokenKind::Script, _) => {
                fold(token.span.start, token.span.end, Some(FoldingRangeKind::Region), &mut out)
            }
            _ => {}
        }
        // Runs of `//` lines on consecutive lines fold as one comment.
        if token.kind == TokenKind::Comment && token.text(text).starts_with("//") {
            let line = index.line_of(token.span.start);
            comment_run = match comment_run {
                Some((start, last)) if last + 1 == line => Some((start, line)),
                Some((start, last)) => {
                    push_lines(&mut out, start, last);
                    Some((line, line))
                }
                None => Some((line, line)),
            };
        }
    }
    if let Some((start, last)) = comment_run {
        push_lines(&mut out, start, last);
    }
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out
}

fn push_lines(out: &mut Vec<FoldingRange>, first: usize, last: usize) {
    if last > first {
        out.push(FoldingRange {
            start_line: first as u32,
            start_character: None,
            end_line: last as u32,
            end_character: None,
            kind: Some(FoldingRangeKind::Comment),
            collapsed_text: None,
        });
    }
}

/// The whole file in `dotc fmt` layout, as one edit; None when it is already formatted.
/// A file with syntax errors is not formatted (the errors are returned).
pub fn format(doc: &Doc) -> Result<Option<Vec<TextEdit>>, String> {
    match dotc_lang::format::format(&doc.text) {
        Ok(formatted) if formatted == *doc.text => Ok(None),
        Ok(formatted) => {
            let range = doc.index.range(&doc.text, Span::new(0, doc.text.len()));
            Ok(Some(vec![TextEdit { range, new_text: formatted }]))
        }
        Err(errors) => Err(format!(
            "not formatted: the file has {} syntax error{}",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        )),
    }
}
