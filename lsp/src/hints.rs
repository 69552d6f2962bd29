//! Inlay hints in game logs, and quick fixes.
//!
//! The hints come from the replay's events, which carry the span of the action they belong to:
//! beside each volley its range, band and to-hit number after modifiers (Ch16 5.2-5.6, RULINGS
//! G4), and at the end of each line that cost a unit stands, the stands it has left
//! (RULE-05-3.3); and at the end of a `fire` line (or an assault's `closing_volley` step) that
//! has no dice yet, what the rules would roll: the dice, the to-hit number and the save
//! (RULE-05-2.1-2.3, RULE-05-3.1, Ch16 5.2-5.6; the replay's `Unrolled` event, issue 20). Quick
//! fixes are the "did you mean" edits the checks attach to diagnostics; on a `fire` line with its
//! dice, an action writes the claim the rules give for them (issue 20).

use std::collections::HashMap;

use dotc_lang::Span;
use dotc_lang::diagnostic::Severity;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, InlayHint, InlayHintKind, InlayHintLabel,
    InlayHintTooltip, Range, TextEdit, WorkspaceEdit,
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
                out.push(hint(doc, at, format!(": {label}")));
            }
            Shown::Unrolled(index) => {
                let Some(unrolled) = view.unrolled(index) else { continue };
                let at = closing_volley_end(doc, span).unwrap_or_else(|| line_end(doc, span));
                let save = match unrolled.save {
                    Some(save) => format!("save {save}+"),
                    None => "no save".to_string(),
                };
                let label = format!("{}D6 · hit {}+ · {save}", unrolled.dice, unrolled.to_hit);
                let mut hint = hint(doc, at, format!("roll {label}"));
                hint.tooltip = Some(InlayHintTooltip::String(format!(
                    "What the rules give this volley at {} before its dice are rolled: the dice \
                     (RULE-05-2.1), the number each needs to hit after every modifier (RULE-05-2.2, \
                     2.3, Ch16 5.6) and the cover save of each hit (RULE-05-3.1, Ch16 5.4). Hover the \
                     line for the odds.",
                    view.name(unrolled.target)
                )));
                out.push(hint);
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
        out.push(hint(doc, at, format!("→ {label}")));
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

/// The end of the line of an assault's `closing_volley` step (issue 20: where its hint goes),
/// if the action has one.
fn closing_volley_end(doc: &Doc, span: Span) -> Option<usize> {
    let tokens = lex::tokens(&doc.text, span.start, span.end.min(doc.text.len()));
    let step = tokens.iter().find(|t| t.kind == TokenKind::Word && t.text(&doc.text) == "closing_volley")?;
    Some(line_end(doc, Span::new(step.span.start, span.end)))
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

fn hint(doc: &Doc, offset: usize, label: String) -> InlayHint {
    InlayHint {
        position: doc.index.position(&doc.text, offset),
        label: InlayHintLabel::String(label),
        kind: Some(InlayHintKind::TYPE),
        text_edits: None,
        tooltip: None,
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }
}

/// The "did you mean" fixes of the diagnostics touching `range`, and the action that writes
/// the claim the rules give on a `fire` line of it ([`claim_action`]).
pub fn code_actions(doc: &Doc, range: Span) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    out.extend(claim_action(doc, range).map(CodeActionOrCommand::CodeAction));
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

/// Issue 20: on a `fire` line of `range` (the first there is) that has its dice, the claim the
/// rules give for them, written after `=>` as the log writes claims (`=> hits 4, saved 2, lost
/// 1`). The claim is the replay's own: the log is replayed with that line's volley probed
/// ([`crate::hover::probed`], as the hover's odds are) and the runtime writes the claim of its
/// resolved volley ([`dotc_runtime::replay::VolleyProbe::claim`]: hits RULE-05-2.2, saves
/// RULE-05-3.2, stands lost and micro-hits RULE-05-3.3, and every result the audit holds a
/// claim to stating). Nothing is worked out here.
///
/// A line without a claim gets a `refactor.rewrite` action: claims are optional, so it fixes no
/// problem and is not a quick fix. A line whose claim the audit (or a check) finds wrong gets a
/// quick fix for those diagnostics that rewrites the claim whole. A line whose claim is right
/// gets nothing.
fn claim_action(doc: &Doc, range: Span) -> Option<CodeAction> {
    let text = &doc.text;
    let (first, last) = (doc.index.line_of(range.start), doc.index.line_of(range.end));
    let (line, tokens) = (first..=last).find_map(|line| {
        let (start, end) = (doc.index.line_start(line), doc.index.line_start(line + 1).min(text.len()));
        let tokens: Vec<lex::Token> =
            lex::tokens(text, start, end).into_iter().filter(|t| t.kind != TokenKind::Comment).collect();
        let is_fire = tokens.first().is_some_and(|t| t.kind == TokenKind::Word && t.text(text) == "fire");
        let has_dice = tokens.iter().any(|t| t.kind == TokenKind::Punct && t.text(text) == "[");
        (is_fire && has_dice).then_some((line, tokens))
    })?;
    let end = tokens.last()?.span.end;
    let arrow =
        tokens.iter().find(|t| t.kind == TokenKind::Punct && t.text(text) == "=>").map(|t| t.span.start);
    // A claim stands unless a diagnostic at it says it is wrong.
    let wrong: Vec<_> = match arrow {
        None => Vec::new(),
        Some(at) => doc
            .analyzed
            .diagnostics()
            .into_iter()
            .filter(|d| {
                d.severity == Severity::Error && at <= d.primary.span.start && d.primary.span.end <= end
            })
            .collect(),
    };
    if arrow.is_some() && wrong.is_empty() {
        return None;
    }
    let (replayed, probed_line) = crate::hover::probed(doc, doc.index.line_start(line))?;
    let claim = replayed.probes.iter().find(|p| p.line == probed_line)?.claim.clone()?;
    let (span, new_text) = match arrow {
        Some(at) => (Span::new(at, end), format!("=> {claim}")),
        None => (Span::new(end, end), format!(" => {claim}")),
    };
    if text.get(span.start..span.end) == Some(new_text.as_str()) {
        return None;
    }
    let edit = TextEdit { range: doc.index.range(text, span), new_text };
    let changes = HashMap::from([(doc.uri.clone(), vec![edit])]);
    let (kind, diagnostics) = match wrong.is_empty() {
        true => (CodeActionKind::REFACTOR_REWRITE, None),
        false => {
            (CodeActionKind::QUICKFIX, Some(wrong.iter().map(|d| convert::diagnostic(doc, d)).collect()))
        }
    };
    Some(CodeAction {
        title: format!("Write the result the rules give: `=> {claim}`"),
        kind: Some(kind),
        diagnostics,
        edit: Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }),
        command: None,
        is_preferred: Some(true),
        disabled: None,
        data: None,
    })
}
