//! `dotc-lang` diagnostics as protocol diagnostics.

use dotc_lang::diagnostic::{Diagnostic, Severity};
use tower_lsp_server::ls_types::{
    self as lsp, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};

use crate::workspace::Doc;

/// Every diagnostic of a document, converted, with at most `max_audit` of its audit findings
/// (the first by position). When some are left out, a last note at the first of them says how
/// many and where to see them all: a log with tens of thousands of findings would otherwise
/// send megabytes to the editor at every keystroke.
pub fn diagnostics(doc: &Doc, max_audit: usize) -> Vec<lsp::Diagnostic> {
    let (shown, left_out) = doc.analyzed.diagnostics_capped(max_audit);
    let mut out: Vec<lsp::Diagnostic> = shown.into_iter().map(|d| diagnostic(doc, d)).collect();
    if left_out > 0
        && let Some(first) = doc.analyzed.audit.get(max_audit)
    {
        let file = doc.path.file_name().map_or_else(|| "FILE".into(), |f| f.to_string_lossy());
        out.push(lsp::Diagnostic {
            range: doc.index.range(&doc.text, first.primary.span),
            severity: Some(DiagnosticSeverity::INFORMATION),
            code: None,
            code_description: None,
            source: Some("dotc".to_string()),
            message: format!(
                "{left_out} more audit finding{} from here on are not shown (the editor gets the first \
                 {max_audit}); `dotc audit {file}` lists them all",
                if left_out == 1 { "" } else { "s" },
            ),
            related_information: None,
            tags: None,
            data: None,
        });
    }
    out
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
