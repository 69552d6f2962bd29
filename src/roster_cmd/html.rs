//! The roster as one printable HTML page: no script, no network, its style inline. Each side
//! starts a printed page; each brigade is a table that a page break does not split where it
//! fits on a page. What each cell says is written by the text form's helpers in `super`.

use dotc_runtime::render::svg::escape;
use dotc_runtime::roster::{BrigadeSheet, Sheet, SideSheet, UnitRow};

use super::Paper;

const STYLE: &str = "\
body{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:10pt;color:#111;margin:1.5em}\
h1{font-size:15pt;margin:0 0 .2em}\
.facts{color:#444;margin:0 0 .6em}\
section.side{break-before:page}\
section.side:first-of-type{break-before:auto}\
.leaders{margin:.2em 0 .6em;padding-left:1.2em}\
table{border-collapse:collapse;width:100%;margin:.5em 0 1em;break-inside:avoid}\
caption{text-align:left;font-weight:bold;font-size:11pt;padding:.2em 0}\
caption .clock{font-weight:normal;font-size:9pt;color:#333;display:block}\
th,td{border:1px solid #999;padding:.15em .3em;vertical-align:top;text-align:left}\
th{background:#eee;font-size:8.5pt}\
td.small{font-size:8.5pt;color:#333}\
.box{display:inline-block;width:.8em;height:.8em;border:1px solid #111;margin:0 .12em -.1em 0}\
.box.lost{background:linear-gradient(to top right,transparent 45%,#111 45%,#111 55%,transparent 55%)}\
.box.micro{border-radius:50%}\
.mark{font-size:7pt;font-weight:bold;margin-right:.2em}\
.note{color:#555;font-size:8.5pt}\
.nw{white-space:nowrap}\
@media print{body{margin:0}}";

/// The whole page.
pub(super) fn page(sheet: &Sheet, paper: Paper) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!("<title>{}: order of battle</title>\n", escape(&sheet.scenario)));
    out.push_str(&format!("<style>@page{{size:{};margin:12mm}}{STYLE}</style>\n", paper.css()));
    out.push_str("</head>\n<body>\n");
    for side in &sheet.sides {
        side_html(&mut out, sheet, side);
    }
    out.push_str(
        "<p class=\"note\">Strike a stand's box as it is lost; the round box holds the micro-hit \
         (RULE-05-3.3). A brigade's clock counts the stands it has lost: H marks Hesitant and B \
         Broken (Ch16 8.2). Made by dotc roster.</p>\n",
    );
    out.push_str("</body>\n</html>\n");
    out
}

fn side_html(out: &mut String, sheet: &Sheet, side: &SideSheet) {
    out.push_str("<section class=\"side\">\n");
    out.push_str(&format!("<h1>{}</h1>\n", escape(&super::heading(sheet, side))));
    out.push_str(&format!("<p class=\"facts\">{}</p>\n", escape(&super::facts(sheet))));
    if !side.commanders.is_empty() {
        out.push_str("<ul class=\"leaders\">\n");
        for c in &side.commanders {
            out.push_str(&format!("<li>{}</li>\n", escape(&super::leader(c))));
        }
        out.push_str("</ul>\n");
    }
    for b in &side.brigades {
        brigade_html(out, b);
    }
    if !side.units.is_empty() {
        table_html(out, "Under the side\u{2019}s own command", "", &side.units);
    }
    out.push_str("</section>\n");
}

fn brigade_html(out: &mut String, b: &BrigadeSheet) {
    let mut caption = String::new();
    for l in &b.leaders {
        caption.push_str(&format!("<span class=\"clock\">{}</span>", escape(&super::leader(l))));
    }
    caption.push_str(&format!(
        "<span class=\"clock\">{} {}</span>",
        escape(&super::clock(b)),
        clock_boxes(b)
    ));
    table_html(out, &b.name, &caption, &b.units);
}

/// The brigade clock as boxes: one per stand it may lose up to Broken, those lost before the
/// battle struck, H over the Hesitant box and B over the Broken one.
fn clock_boxes(b: &BrigadeSheet) -> String {
    let mut out = String::new();
    for n in 1..=b.broken_at {
        let mark = if n == b.hesitant_at {
            "<span class=\"mark\">H</span>"
        } else if n == b.broken_at {
            "<span class=\"mark\">B</span>"
        } else {
            ""
        };
        let class = if n <= b.losses { "box lost" } else { "box" };
        out.push_str(&format!("<span class=\"{class}\" title=\"{n}\"></span>{mark}"));
    }
    out
}

fn table_html(out: &mut String, name: &str, caption: &str, units: &[UnitRow]) {
    out.push_str(&format!("<table>\n<caption>{}{caption}</caption>\n", escape(name)));
    out.push_str(
        "<thead><tr><th>Unit</th><th>Stands</th><th>Quality, formation</th><th>Weapon</th>\
         <th>Health</th><th>Starts</th></tr></thead>\n<tbody>\n",
    );
    for u in units {
        let extras = super::extras(u);
        let extras = if extras.is_empty() {
            String::new()
        } else {
            format!("<br><span class=\"note\">{}</span>", escape(&extras))
        };
        out.push_str(&format!(
            "<tr><td><b>{}</b> <span class=\"note\">{}</span>{extras}</td><td>{}<br><span class=\"note\">{}</span></td>\
             <td class=\"small\">{}</td><td class=\"small\">{}</td><td class=\"small\">{}</td><td class=\"small\">{}</td></tr>\n",
            escape(&u.name),
            escape(&u.kind),
            stand_boxes(u),
            escape(&super::strength(u)),
            escape(&super::quality(u)),
            escape(&super::weapon(u)),
            super::health(u).split(", ").map(|h| format!("<span class=\"nw\">{}</span>", escape(h))).collect::<Vec<_>>().join(", "),
            escape(&super::start(u)),
        ));
    }
    out.push_str("</tbody>\n</table>\n");
}

/// One box per stand it brought, those lost before the battle struck, then the micro-hit's.
fn stand_boxes(u: &UnitRow) -> String {
    let mut out = String::new();
    for n in 1..=u.starting_stands {
        let class = if n > u.stands { "box lost" } else { "box" };
        out.push_str(&format!("<span class=\"{class}\"></span>"));
    }
    out.push_str("<span class=\"box micro\" title=\"micro-hit\"></span>");
    out
}
