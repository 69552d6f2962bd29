//! The stdlib entries the engine reads, and the rule numbers that must not live in Rust.

use std::path::Path;

use dotc_lang::library::{EntryKind, MeleeSide, RuleData, STDLIB_FILES};

use super::*;

/// Every entry [`Tables::from_rule_data`] looks up, as `"<kind> <id>"`. A lookup of an entry not
/// listed here fails `the_engine_reads_exactly_these_entries`: add it here and to the stdlib,
/// with its `source`.
const ENTRIES_READ: &[&str] = &[
    "brigade_state broken",
    "brigade_state hesitant",
    "commander corps",
    "commander division",
    "elevation crest",
    "ground mud",
    "ground soft",
    "health fresh",
    "health shattered",
    "health spent",
    "health worn",
    "maneuver about_face",
    "maneuver blind",
    "maneuver dismount",
    "maneuver fall_back",
    "maneuver horse_holders",
    "maneuver horse_holders_move",
    "maneuver horse_holders_road",
    "maneuver misinterpreted_orders",
    "maneuver pursuit",
    "maneuver remount",
    "maneuver scouting",
    "maneuver shaken_fall_back",
    "marker clean_barrels",
    "marker disorder",
    "marker gunsmoke",
    "marker low_ammo",
    "marker fouled",
    "marker micro_hit",
    "melee_result bloody_draw",
    "melee_result breakthrough",
    "melee_result cavalry_defeated",
    "melee_result defeated",
    "melee_result victor",
    "modifier battery_in_melee",
    "modifier battle_cry",
    "modifier bouncing_shot",
    "modifier brigadier_attached",
    "modifier cavalry_shock",
    "modifier crest",
    "modifier crest_advantage",
    "modifier enfilade",
    "modifier flat_footed",
    "modifier general_at_the_front",
    "modifier momentum",
    "modifier panic_in_the_ranks",
    "modifier pivoted",
    "modifier plunging_fire",
    "modifier premature_fire",
    "modifier second_line",
    "modifier uphill",
    "order regimental_assault",
    "reaction counter_charge",
    "reaction solitary_brigadier",
    "reaction opportunity_fire",
    "reaction refuse_flank",
    "reaction skirmish_evade",
    "scale table",
    "weather dense_fog",
    "weather downpour",
    "weather drizzle",
    "weather light_fog",
    "weather severe",
];

fn split(what: &str) -> (EntryKind, &str) {
    let (kind, id) = what.split_once(' ').unwrap_or_else(|| panic!("`{what}` is not `<kind> <id>`"));
    let kind = EntryKind::from_word(kind).unwrap_or_else(|| panic!("`{what}`: no entry kind `{kind}`"));
    (kind, id)
}

/// The stdlib read from its text, with one entry (`what`) cut out, or none.
fn stdlib_without(what: Option<&str>) -> RuleData {
    let mut diags = Vec::new();
    let sources: Vec<String> = STDLIB_FILES
        .iter()
        .map(|(_, text)| {
            let Some(what) = what else { return text.to_string() };
            let head = format!("\n    {what} ");
            let Some(start) = text.find(&head) else { return text.to_string() };
            let end = start + text[start..].find("\n    }\n").expect("an entry ends") + "\n    }".len();
            format!("{}{}", &text[..start], &text[end..])
        })
        .collect();
    let documents: Vec<_> = sources.iter().map(|s| dotc_lang::parse(s).document).collect();
    RuleData::from_libraries(documents.iter().flat_map(|d| d.libraries.iter()), &mut diags)
}

/// The engine's lookups are the list above, each entry is in the stdlib and cites its source.
#[test]
fn the_engine_reads_exactly_these_entries() {
    let data = dotc_lang::stdlib();
    let tables = Tables::from_rule_data(data).expect("the stdlib is complete");
    let mut read = tables.entries_read.clone();
    read.sort_unstable();
    let unknown: Vec<&&str> = read.iter().filter(|w| !ENTRIES_READ.contains(w)).collect();
    assert!(unknown.is_empty(), "the engine reads entries this test does not list: {unknown:?}");
    let unread: Vec<&&str> = ENTRIES_READ.iter().filter(|w| !read.contains(w)).collect();
    assert!(unread.is_empty(), "listed but no longer read: {unread:?}");
    for what in ENTRIES_READ {
        let (kind, id) = split(what);
        let meta = data.meta(kind, id).unwrap_or_else(|| panic!("the stdlib has no `{what}`"));
        assert!(meta.source.as_deref().is_some_and(|s| !s.trim().is_empty()), "`{what}` cites no source");
    }
}

/// Rule data without any one of those entries is refused, naming it.
#[test]
fn rule_data_without_an_entry_the_engine_reads_is_refused() {
    assert!(Tables::from_rule_data(&stdlib_without(None)).is_ok());
    for what in ENTRIES_READ {
        let data = stdlib_without(Some(what));
        let (kind, id) = split(what);
        assert!(!data.contains(kind, id), "`{what}` was not cut out");
        match Tables::from_rule_data(&data) {
            Err(EngineError::MissingRuleData(missing)) => assert_eq!(missing, *what),
            other => panic!("without `{what}`: {other:?}"),
        }
    }
}

/// The numbers the stdlib states, as the engine reads them (Ch16 2.1, 3.3, 4.4, 6.0, 10.2;
/// Ch13 6.0, 12.0, 21.0; RULE-05-5.1, RULE-07-1.5, RULE-07-3.5).
#[test]
fn stdlib_numbers() {
    let t = Tables::from_rule_data(dotc_lang::stdlib()).expect("the stdlib is complete");
    assert_eq!((t.fall_back, t.about_face, t.shaken_fall_back), (3.0, 1.0, 3.0));
    assert_eq!((t.dismount, t.remount), (Cost::Half, Cost::Half));
    assert_eq!(t.horse_holders, (2.0, 3.0));
    assert_eq!((t.holders_move, t.holders_road, t.holders_tether), (4.0, 8.0, 4.0));
    assert_eq!((t.pursuit_check, t.pursuit_move), (4, 4.0));
    // Ch13 3.0: +2 pips for the General at the Front, Disordered on 1-3 (a 4+ holds), 6" march.
    assert_eq!((t.front_pips, t.panic_check, t.misread_march), (2, 4, 6.0));
    // Ch13 1.0: 15 Pre-Battle Staff Points; Scouting moves a piece up to 6.0".
    assert_eq!((t.staff_points, t.scouting_move), (15, 6.0));
    // Ch13 4.0: a blind moves a flat 9" and an enemy within 12" unmasks it; dotc D28 places a
    // revealed brigade within 6" of its blind.
    assert_eq!((t.blind_move, t.blind_spotting, t.blind_reveal_within), (9.0, 12.0, 6.0));
    assert_eq!(t.opportunity_fire_within, 8.0);
    assert_eq!((t.skirmish_evade_within, t.skirmish_evade_move), (6.0, (4.0, 6.0)));
    assert_eq!(t.refuse_flank_check, 4);
    assert_eq!((t.counter_charge_within, t.counter_charge_surge), (9.0, (2.0, 3.0)));
    // RULE-07-4.5: a lone brigadier is a target within 6" and evades 6".
    assert_eq!((t.solitary_within, t.solitary_evasion), (6.0, (6.0, 6.0)));
    assert_eq!((t.reform_turns, t.reform_beyond), (2, 12.0));
    assert_eq!((t.smoke_size, t.dead_ground), (1.0, 1.0));
    assert_eq!(t.uphill.melee.map(|m| m.value), Some(-1));
    assert_eq!(t.crest.melee.map(|m| m.value), Some(1));
    assert_eq!(t.crest_advantage.melee.map(|m| (m.value, m.side)), Some((1, MeleeSide::Attacker)));
    assert_eq!(t.flat_footed.melee.map(|m| m.value), Some(-1));
    assert_eq!(t.pivoted.to_hit, -1);
    for level in ["division", "corps"] {
        let c = t.commander(level).expect("a commander");
        assert_eq!((c.bonus_pips, c.within, c.base), (Some(1), Some(18.0), Some(1.5)));
    }
    assert_eq!((t.stand_width, t.yards_per_inch), (1.0, 25.0));
    use dotc_lang::library::Arm;
    assert_eq!((t.soft_ground.penalty(Arm::Infantry), t.soft_ground.penalty(Arm::Cavalry)), (1.0, 1.0));
    assert_eq!((t.mud.penalty(Arm::Infantry), t.mud.penalty(Arm::Cavalry)), (2.0, 4.0));
    assert_eq!(t.soft_ground.penalty(Arm::Artillery), 0.0);
    assert_eq!(t.soft_ground.unlimber_pips, Some(2));
    assert_eq!((t.downpour.sight, t.light_fog.sight, t.dense_fog.sight), (Some(12.0), Some(18.0), Some(6.0)));
    assert!(t.downpour.no_first_volley && !t.light_fog.no_first_volley && !t.dense_fog.no_first_volley);
    let heat = t.severe_heat.exertion.as_ref().expect("severe heat's exertion");
    assert_eq!((heat.hits, heat.arms.as_slice()), (1, [Arm::Infantry].as_slice()));
    assert_eq!(
        (t.plunging_fire.weapons.as_slice(), t.plunging_fire.hits),
        (&["rifled_musket".to_string()][..], Some(5))
    );
}

/// A `const` of a number (or a pair of numbers) whose doc comment cites the rulebook (a
/// chapter, a RULE id or a RULINGS id) is a rule number, and belongs in the stdlib. The numbers
/// that are dotc's own say so in their doc comment: "dotc's own, not a rule".
#[test]
fn no_rule_numbers_in_rust() {
    const MARK: &str = "dotc's own, not a rule";
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    // A chapter (`Ch16 3.2`, `Ch8`), a RULE id or a RULINGS id.
    let cites = |doc: &str| {
        doc.match_indices("Ch").any(|(i, _)| doc[i + 2..].starts_with(|c: char| c.is_ascii_digit()))
            || doc.contains("RULE-")
            || doc.contains("RULINGS")
    };
    let numeric = |ty: &str| {
        let ty = ty.trim();
        ["f64", "f32", "i32", "u32", "u8", "i64", "u64", "usize", "(f64, f64)", "(u32, u32)"].contains(&ty)
    };
    let mut found = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&root).expect("under src").to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(path).expect("readable");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.trim_start();
            let code =
                code.strip_prefix("pub(crate) ").or_else(|| code.strip_prefix("pub(super) ")).unwrap_or(code);
            let code = code.strip_prefix("pub ").unwrap_or(code);
            let Some(rest) = code.strip_prefix("const ") else { continue };
            let Some((name, rest)) = rest.split_once(':') else { continue };
            let Some((ty, _)) = rest.split_once('=') else { continue };
            if !numeric(ty) {
                continue;
            }
            let mut doc: Vec<&str> = lines[..i]
                .iter()
                .rev()
                .map_while(|l| l.trim_start().strip_prefix("///"))
                .map(str::trim)
                .collect();
            doc.reverse();
            let doc = doc.join(" ");
            if !cites(&doc) || doc.contains(MARK) {
                continue;
            }
            found.push(format!("{rel}:{}: {}", i + 1, name.trim()));
        }
    }
    assert!(
        found.is_empty(),
        "rule numbers in Rust (move them to the stdlib, or mark them \"{MARK}\"): {found:#?}"
    );
    let tolerances = std::fs::read_to_string(root.join("battlefield/tolerances.rs")).expect("readable");
    let settings = tolerances.matches("\npub const ").count();
    assert!(
        settings > 0 && tolerances.matches(MARK).count() >= settings,
        "every setting in tolerances.rs says \"{MARK}\""
    );
}
