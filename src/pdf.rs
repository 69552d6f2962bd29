//! PDF output (`dotc render -o map.pdf`, `dotc roster -o sheet.pdf`): SVG pages, as the
//! runtime draws them, converted to vector PDF by svg2pdf, one page each, in one document
//! written with pdf-writer. Text stays text, set in the one font the binary embeds (subset into
//! the file), so a PDF reads and searches the same on every machine.
//!
//! A page's size is its SVG's `width` and `height`, one SVG unit to one PDF point (1/72 inch).
//! Nothing in the file depends on the clock or the machine: the same pages give the same bytes.

use std::collections::HashMap;
use std::sync::Arc;

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, TextStr};
use svg2pdf::usvg;

/// The font every label and sheet is set in (DejaVu Sans), as the PNG rasteriser uses it.
pub(crate) fn svg_options() -> usvg::Options<'static> {
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_font_data(crate::map::FONT.to_vec());
    fonts.set_sans_serif_family(dotc_runtime::render::style::FONT_FAMILY);
    usvg::Options {
        font_family: dotc_runtime::render::style::FONT_FAMILY.to_string(),
        fontdb: Arc::new(fonts),
        ..usvg::Options::default()
    }
}

/// One PDF of `pages` (each a whole SVG document), titled `title`.
pub fn document(title: &str, pages: &[String]) -> Result<Vec<u8>, String> {
    if pages.is_empty() {
        return Err("there is nothing to put in the PDF".to_string());
    }
    let options = svg_options();
    let mut alloc = Ref::new(1);
    let catalog = alloc.bump();
    let tree_id = alloc.bump();
    let info = alloc.bump();
    let mut pdf = Pdf::new();
    let mut page_ids = Vec::with_capacity(pages.len());
    let mut chunks = Vec::with_capacity(pages.len());
    for (number, svg) in pages.iter().enumerate() {
        let tree = usvg::Tree::from_str(svg, &options)
            .map_err(|e| format!("cannot read page {} of the PDF: {e}", number + 1))?;
        let (chunk, form) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| format!("cannot convert page {} to PDF: {e}", number + 1))?;
        // The chunk numbers its objects from 1: give them numbers after ours.
        let mut renumbered = HashMap::new();
        let chunk = chunk.renumber(|old| *renumbered.entry(old).or_insert_with(|| alloc.bump()));
        let form = *renumbered.get(&form).ok_or("the converted page lost its drawing")?;
        let (page, content) = (alloc.bump(), alloc.bump());
        let size = tree.size();
        let (width, height) = (size.width(), size.height());
        let name = Name(b"P");
        let mut writer = pdf.page(page);
        writer.media_box(Rect::new(0.0, 0.0, width, height)).parent(tree_id).contents(content);
        writer.resources().x_objects().pair(name, form);
        writer.finish();
        // The form is drawn in a unit square: scale it to the page.
        let mut stream = Content::new();
        stream.transform([width, 0.0, 0.0, height, 0.0, 0.0]).x_object(name);
        pdf.stream(content, &stream.finish());
        page_ids.push(page);
        chunks.push(chunk);
    }
    pdf.catalog(catalog).pages(tree_id);
    pdf.pages(tree_id).kids(page_ids.iter().copied()).count(page_ids.len() as i32);
    pdf.document_info(info).title(TextStr(title)).creator(TextStr("dotc"));
    for chunk in &chunks {
        pdf.extend(chunk);
    }
    Ok(stable_resource_order(pdf.finish()))
}

/// svg2pdf 0.13 writes a form's resource dictionaries (`/Pattern`, `/ExtGState`, ...) from a
/// hash map, so the order of their entries changes from run to run. Each entry is a line of its
/// own (`      /po4 25 0 R`), outside any stream: sorting each run of such lines gives the same
/// bytes every time and moves no object (the lines only trade places), so the cross-reference
/// table stays true. Streams are stepped over by their `/Length`.
fn stable_resource_order(pdf: Vec<u8>) -> Vec<u8> {
    fn is_entry(line: &[u8]) -> bool {
        let text = String::from_utf8_lossy(line);
        let body = text.trim_start_matches(' ');
        text.len() - body.len() >= 4
            && body.starts_with('/')
            && (body.ends_with(" 0 R") || body.ends_with(" 0 R]"))
            && !body.contains("<<")
    }
    let mut out = Vec::with_capacity(pdf.len());
    let mut at = 0;
    let mut length: Option<usize> = None;
    let mut run: Vec<&[u8]> = Vec::new();
    let flush = |run: &mut Vec<&[u8]>, out: &mut Vec<u8>| {
        run.sort();
        for line in run.drain(..) {
            out.extend_from_slice(line);
        }
    };
    while at < pdf.len() {
        let end = pdf[at..].iter().position(|b| *b == b'\n').map_or(pdf.len(), |p| at + p + 1);
        let line = &pdf[at..end];
        let trimmed = line.strip_suffix(b"\n").unwrap_or(line);
        if is_entry(trimmed) {
            run.push(line);
            at = end;
            continue;
        }
        flush(&mut run, &mut out);
        out.extend_from_slice(line);
        at = end;
        let text = String::from_utf8_lossy(trimmed);
        if let Some(n) = text.trim_start().strip_prefix("/Length ") {
            length = n.trim().parse().ok();
        }
        if trimmed == b"stream" {
            // The stream's bytes, as its dictionary counts them, are copied as they are.
            let skip = length.take().unwrap_or(0).min(pdf.len() - at);
            out.extend_from_slice(&pdf[at..at + skip]);
            at += skip;
        }
    }
    flush(&mut run, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\">\
             <rect x=\"10\" y=\"10\" width=\"20\" height=\"20\" fill=\"#c00\"/>\
             <text x=\"40\" y=\"30\" font-size=\"12\">{text}</text></svg>"
        )
    }

    /// The number of `/Type /Page` objects (not `/Pages`).
    fn page_count(pdf: &[u8]) -> usize {
        let text = String::from_utf8_lossy(pdf);
        text.matches("/Type /Page").count() - text.matches("/Type /Pages").count()
    }

    #[test]
    fn each_svg_is_a_page_of_its_size_and_the_bytes_repeat() {
        let pages = vec![page("First"), page("Second"), page("Third")];
        let pdf = document("Test", &pages).expect("a PDF");
        assert!(pdf.starts_with(b"%PDF-"), "not a PDF");
        assert_eq!(page_count(&pdf), 3);
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("/MediaBox [0 0 200 100]"), "no page of the SVG's size");
        // The font is embedded (subset), not left to the reader's machine.
        assert!(text.contains("DejaVu"), "no embedded font");
        assert!(document("Test", &pages).expect("a PDF") == pdf, "the same pages gave other bytes");
    }

    #[test]
    fn resource_entries_are_sorted_in_place_and_streams_left_alone() {
        let pdf = b"1 0 obj\n<<\n  /Length 12\n>>\nstream\n    /b 2 0 R\nendstream\nendobj\n\
            2 0 obj\n<<\n  /Resources <<\n    /Pattern <<\n      /po1 9 0 R\n      /po0 8 0 R\n    >>\n  >>\n>>\nendobj\n"
            .to_vec();
        let sorted = stable_resource_order(pdf.clone());
        assert_eq!(sorted.len(), pdf.len());
        let text = String::from_utf8_lossy(&sorted);
        assert!(text.contains("      /po0 8 0 R\n      /po1 9 0 R\n"), "{text}");
        // The stream's bytes (which look like an entry) are where they were.
        assert_eq!(&sorted[..60], &pdf[..60]);
    }

    /// Patterns and transparency make svg2pdf write several resources at once: their order
    /// must not change from one run to the next.
    #[test]
    fn pages_with_many_resources_give_the_same_bytes() {
        let mut body = String::new();
        for i in 0..12 {
            body.push_str(&format!(
                "<pattern id=\"p{i}\" width=\"{w}\" height=\"4\" patternUnits=\"userSpaceOnUse\">\
                 <rect width=\"2\" height=\"2\" fill=\"#0{i:x}0\"/></pattern>\
                 <rect x=\"{x}\" y=\"5\" width=\"10\" height=\"10\" fill=\"url(#p{i})\" opacity=\"0.{i}5\"/>",
                w = i + 2,
                x = i * 12
            ));
        }
        let svg =
            format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"40\">{body}</svg>");
        let first = document("Test", std::slice::from_ref(&svg)).expect("a PDF");
        for _ in 0..4 {
            assert!(document("Test", std::slice::from_ref(&svg)).expect("a PDF") == first, "other bytes");
        }
    }

    #[test]
    fn a_bad_page_or_no_page_is_an_error() {
        assert!(document("Test", &[]).is_err());
        let err = document("Test", &[page("ok"), "<svg".to_string()]).expect_err("a broken SVG");
        assert!(err.contains("page 2"), "{err}");
    }
}
