//! `dotc-lang` diagnostics as protocol diagnostics.

use dotc_lang::diagnostic::{Diagnostic, Severity};
use tower_lsp_server::ls_types::{
    self as lsp, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};

use crate::workspace::Doc;

/// Every diagnostic of a document, converted.
pub fn diagnostics(doc: &Doc) -> Vec<lsp::Diagnostic> {
    doc.analyzed.diagnostics.iter().map(|d| diagnostic(doc, d)).collect()
}

/// One diagnostic: its code, the secondary labels as related locations in the same file, and a
/// message that ends with the help, the rule cited and the `dotc explain` command for the code.
pub fn diagnostic(doc: &Doc, d: &Diagnostic) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: doc.index.range(&doc.text, d.primary.span),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: None,
        source: Some("dotc".to_string()),
        message: message(d),
        related_information: related(&doc.uri, doc, d),
        tags: None,
        data: d.fix.as_ref().map(|fix| serde_json::json!({ "replacement": fix.replacement })),
    }
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Advice => DiagnosticSeverity::HINT,
    }
}

/// The message, the primary label when it adds something, the help line, the rule, and how to
/// read more.
pub fn message(d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    if !d.primary.text.is_empty() && !d.message.contains(&d.primary.text) {
        text.push_str(&format!(" ({})", d.primary.text));
    }
    if let Some(help) = &d.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    if let Some(rule) = &d.rule {
        text.push_str(&format!("\nsee {rule}"));
    }
    text.push_str(&format!("\nmore: `dotc explain {}`", d.code));
    text
}

fn related(uri: &Uri, doc: &Doc, d: &Diagnostic) -> Option<Vec<DiagnosticRelatedInformation>> {
    if d.secondary.is_empty() {
        return None;
    }
    Some(
        d.secondary
            .iter()
            .map(|label| DiagnosticRelatedInformation {
                location: Location { uri: uri.clone(), range: doc.index.range(&doc.text, label.span) },
                message: label.text.clone(),
            })
            .collect(),
    )
}
