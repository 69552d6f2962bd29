//! Inlay hints in game logs, and quick fixes.
//!
//! The hints come from the replay's events, which carry the span of the action they belong to:
//! beside each volley its range, band and to-hit number after modifiers (Ch16 5.2-5.6, RULINGS
//! G4), and at the end of each line that cost a unit stands, the stands it has left
//! (RULE-05-3.3). Quick fixes are the "did you mean" edits the checks attach to diagnostics.

use std::collections::HashMap;

use dotc_lang::Span;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, InlayHint, InlayHintKind, InlayHintLabel, Range,
    TextEdit, WorkspaceEdit,
};

use crate::convert;
use crate::lex::{self, TokenKind};
use crate::replay_view::Shown;
use crate::workspace::Doc;

/// The hints whose position lies in `range`.
pub fn inlay_hints(doc: &Doc, range: Span) -> Vec<InlayHint> {
    let Some(view) = &doc.analyzed.view else { return Vec::new() };
    let text = &doc.text;
    let mut out = Vec::new();
    // Stands lost on each action, by the action's span: (unit, remaining), in order.
    let mut losses: Vec<(Span, Vec<(String, u32)>)> = Vec::new();
    for event in view.events() {
        // The replay may be older than the last edits: its spans are moved to the text.
        let Some(span) = event.span() else { continue };
        if span.end < range.start || span.start > range.end {
            continue;
        }
        match event.shown {
            Shown::Volley(volley) => {
                let Some(volley) = view.volley(volley) else { continue };
                let (band, to_hit) = (view.name(volley.band), volley.to_hit);
                let at = target_end(text, span, view.name(volley.target)).unwrap_or(span.end);
                let label = format!("{}\" {band}, {to_hit}+", trim_number(volley.range));
                out.push(hint(doc, at, label, true));
            }
            Shown::StandsLost { unit, remaining } => {
                let unit = view.name(unit);
                match losses.last_mut() {
                    Some((at, list)) if *at == span => match list.iter_mut().find(|(u, _)| u == unit) {
                        Some(entry) => entry.1 = remaining,
                        None => list.push((unit.to_string(), remaining)),
                    },
                    _ => losses.push((span, vec![(unit.to_string(), remaining)])),
                }
            }
            _ => {}
        }
    }
    for (span, list) in losses {
        let at = line_end(doc, span);
        let label = match list.as_slice() {
            [(_, remaining)] => format!("{remaining} {} left", stands(*remaining)),
            many => many.iter().map(|(u, r)| format!("{u}: {r} left")).collect::<Vec<_>>().join("; "),
        };
        out.push(hint(doc, at, label, false));
    }
    out.retain(|h| {
        let offset = doc.index.offset(text, h.position);
        range.start <= offset && offset <= range.end
    });
    out.sort_by_key(|h| (h.position.line, h.position.character));
    out
}

fn stands(n: u32) -> &'static str {
    if n == 1 { "stand" } else { "stands" }
}

fn trim_number(n: f64) -> String {
    let rounded = (n * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 { format!("{rounded:.0}") } else { format!("{rounded:.1}") }
}

/// The end of the target's name after `at` (or `->`) in an action.
fn target_end(text: &str, span: Span, target: &str) -> Option<usize> {
    let tokens = lex::tokens(text, span.start, span.end);
    let mut after_at = false;
    for token in tokens {
        let word = token.text(text);
        if matches!(token.kind, TokenKind::Str { .. }) && after_at && token.value(text) == target {
            return Some(token.span.end);
        }
        after_at = matches!(word, "at" | "->");
    }
    None
}

/// The end of the first line of an action, before any comment.
fn line_end(doc: &Doc, span: Span) -> usize {
    let line = doc.index.line_of(span.start);
    let end = doc.index.line_start(line + 1);
    let tokens = lex::tokens(&doc.text, span.start, end.min(doc.text.len()));
    tokens
        .iter()
        .filter(|t| t.kind != TokenKind::Comment && t.span.end <= span.end.max(span.start))
        .map(|t| t.span.end)
        .next_back()
        .unwrap_or(span.end)
}

fn hint(doc: &Doc, offset: usize, label: String, before: bool) -> InlayHint {
    InlayHint {
        position: doc.index.position(&doc.text, offset),
        label: InlayHintLabel::String(if before { format!(": {label}") } else { format!("→ {label}") }),
        kind: Some(InlayHintKind::TYPE),
        text_edits: None,
        tooltip: None,
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }
}

/// The "did you mean" fixes of the diagnostics touching `range`.
pub fn code_actions(doc: &Doc, range: Span) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in doc.analyzed.diagnostics() {
        let Some(fix) = &d.fix else { continue };
        let span = d.primary.span;
        if span.end < range.start || span.start > range.end {
            continue;
        }
        let was = doc.text.get(fix.span.start..fix.span.end).unwrap_or("");
        let edit =
            TextEdit { range: doc.index.range(&doc.text, fix.span), new_text: fix.replacement.clone() };
        let changes = HashMap::from([(doc.uri.clone(), vec![edit])]);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Replace `{was}` with `{}`", fix.replacement),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![convert::diagnostic(doc, d)]),
            edit: Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }),
            command: None,
            is_preferred: Some(true),
            disabled: None,
            data: None,
        }));
    }
    out
}

/// A protocol range as a byte span of the document.
pub fn span_of(doc: &Doc, range: Range) -> Span {
    doc.index.span(&doc.text, range)
}
