//! The sheet's three forms on the shipped scenarios. The facts themselves are the runtime's
//! (runtime/src/roster_tests.rs works them by hand); here: that each form says them all, on
//! paper that holds them.

use std::path::{Path, PathBuf};

use dotc_runtime::render::labels::text_width;
use dotc_runtime::roster::Sheet;

use super::{Paper, html, pages, text};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The sheet of a scenario file of the repository.
fn sheet_of(relative: &str) -> Sheet {
    let path = root().join(relative);
    let source = std::fs::read_to_string(&path).expect("readable");
    let analysis = dotc_lang::analyze(&path, &source, &crate::files::InputLoader);
    let scenario = analysis.document.scenario.as_ref().expect("a scenario");
    Sheet::of(scenario, &analysis.rule_data).expect("a sheet")
}

fn shipped_scenarios() -> Vec<String> {
    let mut found = Vec::new();
    for dir in ["scenarios/tutorial", "scenarios/gettysburg-day1", "scenarios/campaign"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("a folder").flatten() {
            let path = entry.path();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if path.extension().is_some_and(|e| e == "dotc")
                && text.lines().any(|l| l.starts_with("scenario "))
            {
                found.push(path.strip_prefix(root()).unwrap_or(Path::new("")).display().to_string());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn the_text_form_gives_each_units_numbers() {
    let t = text(&sheet_of("scenarios/tutorial/fence-line.dotc"));
    // 340 men at 75 a stand: 5 stands; Regular: Discipline 4+ and rally 4+ (Ch16 5.5, 8.3).
    assert!(
        t.contains("12th New Jersey (regiment): 5 stands (340 men); Regular, Discipline 4+, rally 4+"),
        "{t}"
    );
    // Hollister: 10 infantry stands (the battery is not on the clock, RULINGS G5).
    assert!(t.contains("Clock: 10 stands; Hesitant at 3 lost, Broken at 5 (Ch16 8.2)"), "{t}");
    // Hart's battery is due at 10:30, 15-minute turns from 10:00: turn 3.
    assert!(t.contains("Hart\u{2019}s Georgia Battery (battery): 2 sections; Regular, Discipline 4+, rally 4+, limbered; arrives 10:30 (turn 3) at (47, 20)"), "{t}");
    assert!(t.contains("Fresh 5\u{2013}4, Worn 3, Spent 2, Shattered 1\u{2013}0"), "{t}");
    // Dismounted cavalry: one stand in four holds the horses (RULINGS G15).
    assert!(t.contains("dismounted (1 stand holding horses)"), "{t}");
    assert!(t.contains("Breechloading Carbine (Sharps / Smith): 1D6 a stand +1 per 2 stands"), "{t}");
}

#[test]
fn the_html_page_has_a_box_for_every_stand_and_clock_loss_and_nothing_external() {
    let s = sheet_of("scenarios/gettysburg-day1/gettysburg-day1-mcpherson.dotc");
    let page = html::page(&s, Paper::Letter);
    for external in ["<script", "<link", "src=", "http:", "https:", "@import", "url("] {
        assert!(!page.contains(external), "the page reaches out: {external}");
    }
    assert_eq!(page.matches("<section class=\"side\">").count(), s.sides.len());
    let units = s.units().count();
    assert_eq!(page.matches("box micro").count(), units, "a micro-hit box per unit");
    // Every stand a unit brought, and the clock's boxes up to Broken.
    let stands: u32 = s.units().map(|u| u.starting_stands).sum();
    let clock: u32 = s.sides.iter().flat_map(|side| &side.brigades).map(|b| b.broken_at).sum();
    let boxes = page.matches("class=\"box\"").count() + page.matches("class=\"box lost\"").count();
    assert_eq!(boxes as u32, stands + clock);
    // Struck: the stands lost before the battle, and the same losses on the clocks.
    let lost: u32 = s.units().map(|u| u.starting_stands - u.stands).sum();
    let clock_lost: u32 =
        s.sides.iter().flat_map(|side| &side.brigades).map(|b| b.losses.min(b.broken_at)).sum();
    assert!(lost > 0, "the afternoon's regiments carry the morning's losses");
    assert_eq!(page.matches("class=\"box lost\"").count() as u32, lost + clock_lost);
    assert!(page.contains("size:letter landscape"));
    assert!(html::page(&s, Paper::A4).contains("size:A4 landscape"));
}

/// The text elements of a page: (x, baseline y, size, text).
fn texts(svg: &str) -> Vec<(f64, f64, f64, String)> {
    let mut found = Vec::new();
    for part in svg.split("<text ").skip(1) {
        let attr = |name: &str| -> f64 {
            let at = part.find(&format!("{name}=\"")).expect("an attribute") + name.len() + 2;
            part[at..].split('"').next().and_then(|v| v.parse().ok()).expect("a number")
        };
        let body = part.split('>').nth(1).and_then(|b| b.split("</text").next()).unwrap_or("");
        let body = body.replace("&amp;", "&").replace("&apos;", "'").replace("&quot;", "\"");
        found.push((attr("x"), attr("y"), attr("font-size"), body));
    }
    found
}

#[test]
fn every_shipped_scenarios_pages_hold_their_text_uncut_within_the_margins() {
    let scenarios = shipped_scenarios();
    assert!(scenarios.len() >= 6, "{scenarios:?}");
    for paper in [Paper::Letter, Paper::A4] {
        let (width, height) = paper.points();
        for file in &scenarios {
            let s = sheet_of(file);
            let pages = pages::pages(&s, paper);
            let mut seen = String::new();
            for (i, page) in pages.iter().enumerate() {
                assert!(page.contains(&format!("Page {} of {}", i + 1, pages.len())), "{file}");
                for (x, y, size, body) in texts(page) {
                    assert!(!body.contains('\u{2026}'), "{file}, page {}: cut: {body}", i + 1);
                    assert!(size >= 6.0, "{file}: {body} set at {size}");
                    assert!(
                        x >= 31.9 && x + text_width(&body, size) <= width - 31.9,
                        "{file}: {body} outside"
                    );
                    assert!(y >= 32.0 && y <= height - 31.9, "{file}: {body} at {y}");
                    seen.push_str(&body);
                    seen.push('\n');
                }
            }
            // Every unit's name and every brigade's is on some page, and each side starts one.
            for u in s.units() {
                assert!(seen.contains(&u.name), "{file}: {} missing", u.name);
            }
            for side in &s.sides {
                assert!(
                    pages.iter().any(|p| texts(p).iter().any(|t| t.3 == super::side_line(side))),
                    "{file}"
                );
                for b in &side.brigades {
                    assert!(seen.lines().any(|l| l == b.name), "{file}: {} missing", b.name);
                }
            }
        }
    }
}

#[test]
fn a_side_starts_its_own_page() {
    let s = sheet_of("scenarios/tutorial/fence-line.dotc");
    let pages = pages::pages(&s, Paper::Letter);
    let firsts: Vec<String> =
        pages.iter().map(|p| texts(p).into_iter().nth(1).map(|t| t.3).unwrap_or_default()).collect();
    // The tutorial's two sides each fit on one page.
    assert_eq!(firsts, s.sides.iter().map(super::side_line).collect::<Vec<_>>());
}

/// A regiment of 60 stands (the most a scenario may give) stays on its page: 30 boxes, then
/// the count; and nothing drawn runs past the right margin.
#[test]
fn a_huge_regiment_keeps_its_boxes_on_the_page() {
    let source = "scenario \"Big\" {\n    turns 2\n    table 48 x 36\n    side blue {\n        brigade \"B\" {\n            brigadier \"Col. B\" reliable at (5, 5)\n            regiment \"Horde\" { stands 60 veteran rifled_musket line at (10, 10) facing east }\n            regiment \"Horde II\" { stands 60 veteran rifled_musket line at (10, 20) facing east }\n        }\n    }\n    side red {\n        regiment \"Few\" { stands 2 veteran rifled_musket line at (30, 10) facing west }\n    }\n}\n";
    let analysis = dotc_lang::analyze(std::path::Path::new("big.dotc"), source, &crate::files::InputLoader);
    assert!(!analysis.has_errors(), "{:?}", analysis.diagnostics);
    let scenario = analysis.document.scenario.as_ref().expect("a scenario");
    let sheet = Sheet::of(scenario, &analysis.rule_data).expect("a sheet");
    let b = &sheet.sides[0].brigades[0];
    // 120 stands: Broken at 60 lost, past what a line of boxes holds.
    assert_eq!((b.clock_stands, b.broken_at), (120, 60));
    let (width, _) = Paper::Letter.points();
    let page = &pages::pages(&sheet, Paper::Letter)[0];
    assert_eq!(page.matches(">+30<").count(), 2, "no count of the stands past 30");
    for rect in page.split("<rect x=\"").skip(1) {
        let number = |key: &str| -> f64 {
            let at = rect.find(&format!("{key}=\"")).map(|i| i + key.len() + 2);
            at.and_then(|i| rect[i..].split('"').next()).and_then(|v| v.parse().ok()).unwrap_or(0.0)
        };
        let x: f64 = rect.split('"').next().and_then(|v| v.parse().ok()).expect("an x");
        assert!(x + number("width") <= width - 31.9, "a box at {x} runs past the margin");
    }
    for (x, _, size, body) in texts(page) {
        assert!(x + text_width(&body, size) <= width - 31.9, "{body} outside");
    }
    // The HTML page, which wraps, has every box.
    let html = html::page(&sheet, Paper::Letter);
    assert_eq!(html.matches("class=\"box\"").count(), 60 + 60 + 2 + 60);
}
