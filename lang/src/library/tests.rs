use super::*;
use crate::ast::Ident;

/// Builds syntax trees by hand, giving every node its own span so labels can be checked.
#[derive(Default)]
struct Build {
    next: usize,
}

impl Build {
    fn span(&mut self, len: usize) -> Span {
        let span = Span::new(self.next, self.next + len);
        self.next += len + 1;
        span
    }

    fn ident(&mut self, word: &str) -> Ident {
        Spanned::new(word.to_string(), self.span(word.len()))
    }

    fn value(&mut self, token: &str) -> Spanned<Value> {
        let span = self.span(token.len());
        let value = if let Some(text) = token.strip_prefix('"') {
            Value::Text(text.trim_end_matches('"').to_string())
        } else if let Some(t) = token.strip_suffix('+').filter(|t| t.chars().all(|c| c.is_ascii_digit())) {
            Value::Target(t.parse().unwrap())
        } else if token.starts_with(['+', '-']) {
            Value::Signed(token.parse().unwrap())
        } else if let Ok(n) = token.parse::<f64>() {
            Value::Number(n)
        } else {
            Value::Word(token.to_string())
        };
        Spanned::new(value, span)
    }

    /// One property line, written as in a file: `short to 6 hits 4+`. A quoted value runs
    /// to the end of the line; commas are dropped as the grammar drops them.
    fn prop(&mut self, line: &str) -> Prop {
        let start = self.next;
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let key = self.ident(key);
        let mut values = Vec::new();
        if rest.starts_with('"') {
            values.push(self.value(rest));
        } else {
            for token in rest.split([' ', ',']).filter(|t| !t.is_empty()) {
                values.push(self.value(token));
            }
        }
        Prop { span: Span::new(start, self.next - 1), key, values }
    }

    fn entry(&mut self, kind: &str, id: &str, lines: &[&str]) -> Entry {
        let start = self.next;
        let kind = self.ident(kind);
        let id = self.ident(id);
        let props = lines.iter().map(|l| self.prop(l)).collect();
        Entry { span: Span::new(start, self.next), kind, id, name: None, props, broken: false }
    }
}

fn library(entries: Vec<Entry>) -> Library {
    Library { span: Span::default(), name: None, entries, scripts: Vec::new() }
}

/// Read hand-built entries; return the data and the diagnostics.
fn read(entries: Vec<Entry>) -> (RuleData, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let data = RuleData::from_libraries([&library(entries)], &mut diags);
    (data, diags)
}

fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.code).collect()
}

const RIFLED: &[&str] = &[
    "class small_arm",
    "dice 1 per stand",
    "short to 6 hits 4+",
    "medium to 14 hits 4+",
    "long to 20 hits 5+",
    "source \"Ch16 5.2\"",
];

#[test]
fn weapon_bands_and_pool() {
    let mut b = Build::default();
    let (data, diags) = read(vec![b.entry("weapon", "rifled_musket", RIFLED)]);
    assert!(diags.is_empty(), "{diags:#?}");
    let w = data.weapon("rifled_musket").unwrap();
    assert_eq!(w.class, WeaponClass::SmallArm);
    assert_eq!(w.dice, DicePool { dice: 1, per: DicePer::Stand });
    assert_eq!(w.bands[1], Band { name: BandName::Medium, from: 6.0, to: 14.0, hits: 4 });
    // RULINGS G4: a limit belongs to the nearer band.
    assert_eq!(w.band_at(Arm::Infantry, 0.0).unwrap().name, BandName::Short);
    assert_eq!(w.band_at(Arm::Infantry, 6.0).unwrap().name, BandName::Short);
    assert_eq!(w.band_at(Arm::Infantry, 6.1).unwrap().name, BandName::Medium);
    assert_eq!(w.band_at(Arm::Infantry, 20.0).unwrap().hits, 5);
    assert_eq!(w.band_at(Arm::Infantry, 20.5), None);
    assert_eq!(w.pool(5), 5);
    assert_eq!(w.meta.source.as_deref(), Some("Ch16 5.2"));
    assert!(data.summary(EntryKind::Weapon, "rifled_musket").unwrap().contains("medium 6-14\" 4+"));
}

#[test]
fn breechloader_bonus_is_floor_half_and_cavalry_band_differs() {
    let mut b = Build::default();
    let (data, diags) = read(vec![b.entry(
        "weapon",
        "breechloading_carbine",
        &[
            "class carbine",
            "dice 1 per stand",
            "bonus_dice +1 per 2 stands",
            "short to 6 hits 4+",
            "medium to 14 hits 4+",
            "long to 20 hits 5+",
            "cavalry long to 18 hits 5+",
        ],
    )]);
    assert!(diags.is_empty(), "{diags:#?}");
    let w = data.weapon("breechloading_carbine").unwrap();
    // RULINGS G16: floor(stands / 2) bonus dice; five stands roll 7D6.
    assert_eq!((w.pool(1), w.pool(4), w.pool(5)), (1, 6, 7));
    // RULINGS C21: Ch16 5.2 for infantry, 10.3 for cavalry.
    assert_eq!(w.max_range(Arm::Infantry), 20.0);
    assert_eq!(w.max_range(Arm::Cavalry), 18.0);
    assert_eq!(w.band_at(Arm::Cavalry, 19.0), None);
    assert_eq!(
        w.band_at(Arm::Cavalry, 15.0).unwrap(),
        Band { name: BandName::Long, from: 14.0, to: 18.0, hits: 5 }
    );
}

#[test]
fn unknown_kind_suggests_the_nearest() {
    let mut b = Build::default();
    let entry = b.entry("weapn", "x", &["class small_arm"]);
    let kind_span = entry.kind.span;
    let (data, diags) = read(vec![entry]);
    assert_eq!(codes(&diags), ["dotc::unknown-entry-kind"]);
    assert_eq!(diags[0].primary.span, kind_span);
    assert_eq!(diags[0].fix.as_ref().unwrap().replacement, "weapon");
    assert!(data.ids(EntryKind::Weapon).is_empty());
}

#[test]
fn unknown_property_suggests_the_nearest_key() {
    let mut b = Build::default();
    let mut lines = RIFLED.to_vec();
    lines.push("shrt to 6 hits 4+");
    let entry = b.entry("weapon", "w", &lines);
    let key_span = entry.props.last().unwrap().key.span;
    let (_, diags) = read(vec![entry]);
    assert_eq!(codes(&diags), ["dotc::unknown-property"]);
    assert_eq!(diags[0].primary.span, key_span);
    assert_eq!(diags[0].help.as_deref(), Some("did you mean `short`?"));
}

#[test]
fn bad_values_point_at_the_value() {
    let mut b = Build::default();
    let entry = b.entry(
        "weapon",
        "w",
        &[
            "class musket",
            "dice 1 per stand",
            "short 6 hits 4+",
            "medium to 14 hits 7+",
            "long to 20 hits 5+ extra",
        ],
    );
    let value = |p: usize, v: usize| entry.props[p].values[v].span;
    let spans = [value(0, 0), value(2, 0), value(3, 3), value(4, 4)];
    let (data, diags) = read(vec![entry]);
    assert_eq!(codes(&diags), ["dotc::bad-property"; 4]);
    let got: Vec<Span> = diags.iter().map(|d| d.primary.span).collect();
    assert_eq!(got, spans);
    assert!(diags[0].primary.text.contains("`small_arm`"), "{}", diags[0].primary.text);
    assert_eq!(diags[1].primary.text, "expected `to`, found the number 6");
    assert_eq!(diags[1].help.as_deref(), Some("write it as `short to <inches> hits <target>`"));
    assert_eq!(diags[2].primary.text, "a die target runs from 2+ to 6+");
    assert_eq!(diags[3].primary.text, "unexpected `extra`");
    // The entry is still recorded, so later checks know the id.
    assert!(data.contains(EntryKind::Weapon, "w"));
}

#[test]
fn missing_property_is_reported_at_the_id() {
    let mut b = Build::default();
    let entry = b.entry("weapon", "w", &["class small_arm", "short to 6 hits 4+"]);
    let id_span = entry.id.span;
    let (_, diags) = read(vec![entry]);
    assert_eq!(codes(&diags), ["dotc::missing-property"]);
    assert_eq!(diags[0].primary.span, id_span);
    assert_eq!(diags[0].message, "weapon `w` has no `dice`");
    assert_eq!(diags[0].help.as_deref(), Some("add a line `dice <count> per stand|section`"));
}

#[test]
fn weapon_without_bands_is_missing_one() {
    let mut b = Build::default();
    let (_, diags) = read(vec![b.entry("weapon", "w", &["class small_arm", "dice 1 per stand"])]);
    assert_eq!(codes(&diags), ["dotc::missing-property"]);
    assert!(diags[0].message.contains("`short`"));
}

#[test]
fn duplicate_entry_keeps_the_first() {
    let mut b = Build::default();
    let first = b.entry("weapon", "w", RIFLED);
    let mut lines = RIFLED.to_vec();
    lines[2] = "short to 6 hits 2+";
    let second = b.entry("weapon", "w", &lines);
    let (first_span, second_span) = (first.id.span, second.id.span);
    let (data, diags) = read(vec![first, second]);
    assert_eq!(codes(&diags), ["dotc::duplicate-entry"]);
    assert_eq!(diags[0].primary.span, second_span);
    assert_eq!(diags[0].secondary[0].span, first_span);
    assert_eq!(data.weapon("w").unwrap().bands[0].hits, 4);
    assert_eq!(data.ids(EntryKind::Weapon), ["w"]);
}

#[test]
fn same_id_in_two_kinds_is_fine() {
    let mut b = Build::default();
    let (_, diags) = read(vec![
        b.entry("formation", "line", &["fire all", "frontage all"]),
        b.entry(
            "movement",
            "line",
            &["arm infantry", "open 6", "rough 4", "road 6", "obstacle -2", "charge 9"],
        ),
    ]);
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn repeated_key_is_reported_with_the_first() {
    let mut b = Build::default();
    let mut lines = RIFLED.to_vec();
    lines.push("class carbine");
    let entry = b.entry("weapon", "w", &lines);
    let (first, again) = (entry.props[0].key.span, entry.props.last().unwrap().key.span);
    let (data, diags) = read(vec![entry]);
    assert_eq!(codes(&diags), ["dotc::bad-property"]);
    assert_eq!((diags[0].primary.span, diags[0].secondary[0].span), (again, first));
    assert_eq!(data.weapon("w").unwrap().class, WeaponClass::SmallArm);
}

#[test]
fn bands_must_run_nearest_first() {
    let mut b = Build::default();
    let entry = b.entry(
        "weapon",
        "w",
        &[
            "class small_arm",
            "dice 1 per stand",
            "short to 6 hits 4+",
            "long to 20 hits 5+",
            "medium to 14 hits 4+",
        ],
    );
    let medium = entry.props[4].span;
    let (data, diags) = read(vec![entry]);
    assert_eq!(codes(&diags), ["dotc::bad-property"]);
    assert_eq!(diags[0].primary.span, medium);
    assert_eq!(data.weapon("w").unwrap().bands.len(), 2);
}

#[test]
fn cavalry_line_must_replace_an_existing_band() {
    let mut b = Build::default();
    let mut lines: Vec<&str> = RIFLED[..4].to_vec();
    lines.push("cavalry long to 18 hits 5+");
    let (_, diags) = read(vec![b.entry("weapon", "w", &lines)]);
    assert_eq!(codes(&diags), ["dotc::bad-property"]);
    assert!(diags[0].primary.text.contains("no `long` band"));
}

#[test]
fn flags_take_no_values() {
    let mut b = Build::default();
    let mut lines = RIFLED.to_vec();
    lines.push("canister_disorder yes");
    let (data, diags) = read(vec![b.entry("weapon", "w", &lines)]);
    assert_eq!(codes(&diags), ["dotc::bad-property"]);
    assert!(data.weapon("w").unwrap().canister_disorder);
}

#[test]
fn terrain_values() {
    let mut b = Build::default();
    let (data, diags) = read(vec![
        b.entry(
            "terrain",
            "dense_woods",
            &["shape area", "move rough max 3", "cover light 5+", "los 3", "formed_disorder"],
        ),
        b.entry(
            "terrain",
            "cornfield",
            &["shape area", "move open -2", "cover light 5+", "los 4", "conceals", "melee +1 defender"],
        ),
    ]);
    assert!(diags.is_empty(), "{diags:#?}");
    let woods = data.terrain("dense_woods").unwrap();
    assert_eq!(
        woods.movement,
        TerrainMove::Passable { column: MoveColumn::Rough, penalty: 0.0, cap: Some(3.0) }
    );
    assert_eq!(woods.cover, Cover { class: CoverClass::Light, save: Some(5) });
    assert_eq!(woods.los, SightLimit::Inches(3.0));
    assert!(woods.formed_disorder && !woods.conceals);
    let corn = data.terrain("cornfield").unwrap();
    assert_eq!(corn.movement, TerrainMove::Passable { column: MoveColumn::Open, penalty: -2.0, cap: None });
    assert_eq!(corn.melee, Some(MeleeModifier { value: 1, side: MeleeSide::Defender }));
}

#[test]
fn light_cover_needs_its_save() {
    let mut b = Build::default();
    let (_, diags) =
        read(vec![b.entry("terrain", "t", &["shape area", "move open", "cover light", "los unlimited"])]);
    assert_eq!(codes(&diags), ["dotc::bad-property"]);
    assert_eq!(diags[0].primary.text, "expected a die target such as `4+` after this");
}

#[test]
fn rating_formula_and_range_check() {
    let mut b = Build::default();
    let (data, diags) = read(vec![
        b.entry("rating", "timid", &["pips d3 halve up", "range 1 to 2"]),
        b.entry("rating", "aggressive", &["pips d3 +1", "range 2 to 5"]),
    ]);
    assert_eq!(codes(&diags), ["dotc::bad-property"]);
    assert_eq!(diags[0].primary.text, "the formula gives 2 to 4 pips, not 2 to 5");
    let timid = data.rating("timid").unwrap();
    // RULINGS G2: Timid = ceil(1D3 / 2) -> 1, 1, 2.
    assert_eq!([timid.pips(1), timid.pips(2), timid.pips(3)], [1, 1, 2]);
    assert_eq!(data.rating("aggressive").unwrap().pip_range(), (2, 4));
}

#[test]
fn tier_needs_a_reach() {
    let mut b = Build::default();
    let (_, diags) = read(vec![b.entry("tier", "t", &["level 1", "order_cost standard"])]);
    assert_eq!(codes(&diags), ["dotc::missing-property"]);
    assert!(diags[0].message.contains("`within`"));
}

#[test]
fn references_resolve_after_extend() {
    let mut b = Build::default();
    let quality = b.entry("quality", "green", &["discipline 5+", "rally 5+", "traits seen_the_elefant"]);
    let trait_span = quality.props[2].values[0].span;
    let (mut data, diags) = read(vec![quality]);
    assert!(diags.is_empty());
    let (traits, diags) = read(vec![b.entry("trait", "seen_the_elephant", &["category morale"])]);
    assert!(diags.is_empty());
    data.extend(traits);
    let mut diags = Vec::new();
    data.check_references(&mut diags);
    assert_eq!(codes(&diags), ["dotc::unknown-reference"]);
    assert_eq!(diags[0].primary.span, trait_span);
    assert_eq!(diags[0].fix.as_ref().unwrap().replacement, "seen_the_elephant");

    // A reference to an entry defined in the data it is laid over resolves.
    let (scenario, _) =
        read(vec![b.entry("quality", "raw", &["discipline 5+", "rally 5+", "traits seen_the_elephant"])]);
    let mut base = traits_only(&mut b);
    base.extend(scenario);
    let mut diags = Vec::new();
    base.check_references(&mut diags);
    assert!(diags.is_empty(), "{diags:#?}");
}

fn traits_only(b: &mut Build) -> RuleData {
    read(vec![b.entry("trait", "seen_the_elephant", &["category morale"])]).0
}

#[test]
fn extend_adds_and_replaces() {
    let mut b = Build::default();
    let (mut data, _) = read(vec![b.entry("weapon", "rifled_musket", RIFLED)]);
    let whitworth = [
        "class small_arm",
        "dice 1 per stand",
        "short to 6 hits 4+",
        "medium to 14 hits 3+",
        "long to 24 hits 4+",
    ];
    let mut stronger = RIFLED.to_vec();
    stronger[3] = "medium to 14 hits 3+";
    let (scenario, diags) = read(vec![
        b.entry("weapon", "whitworth_rifle", &whitworth),
        b.entry("weapon", "rifled_musket", &stronger),
    ]);
    assert!(diags.is_empty());
    data.extend(scenario);
    assert_eq!(data.ids(EntryKind::Weapon), ["rifled_musket", "whitworth_rifle"]);
    assert_eq!(data.weapon("rifled_musket").unwrap().bands[1].hits, 3);
    assert_eq!(data.weapon("whitworth_rifle").unwrap().max_range(Arm::Infantry), 24.0);
}

#[test]
fn every_kind_word_round_trips_and_keys_are_unique() {
    for kind in EntryKind::ALL {
        assert_eq!(EntryKind::from_word(kind.word()), Some(kind));
        let keys = kind.keys();
        for (i, key) in keys.iter().enumerate() {
            assert!(!keys[..i].contains(key), "{} repeats `{key}`", kind.word());
        }
    }
}

// ---------------------------------------------------------------- the stdlib

/// Parse every stdlib file with the real parser and read it all.
fn stdlib() -> (RuleData, Vec<String>) {
    let mut problems = Vec::new();
    let mut documents = Vec::new();
    for (file, source) in STDLIB_FILES {
        let parsed = crate::parse(source);
        problems.extend(parsed.diagnostics.iter().map(|d| format!("{file}: {}: {}", d.code, d.message)));
        assert_eq!(parsed.document.libraries.len(), 1, "{file} holds one library");
        documents.push((file, parsed.document));
    }
    let mut data = RuleData::default();
    for (file, document) in &documents {
        let mut diags = Vec::new();
        data.extend(RuleData::from_libraries(document.libraries.iter(), &mut diags));
        problems
            .extend(diags.iter().map(|d| format!("{file}: {}: {} ({})", d.code, d.message, d.primary.text)));
    }
    // Entries are unique across files, not only within one.
    let mut diags = Vec::new();
    let all: Vec<&Library> = documents.iter().flat_map(|(_, d)| d.libraries.iter()).collect();
    let together = RuleData::from_libraries(all, &mut diags);
    together.check_references(&mut diags);
    problems.extend(diags.iter().map(|d| format!("stdlib: {}: {} ({})", d.code, d.message, d.primary.text)));
    (data, problems)
}

#[test]
fn stdlib_reads_without_diagnostics() {
    let (data, problems) = stdlib();
    assert!(problems.is_empty(), "{problems:#?}");
    for kind in EntryKind::ALL {
        assert!(!data.ids(kind).is_empty(), "no {} in the stdlib", kind.word());
        for meta in data.metas(kind) {
            assert!(meta.name.is_some(), "{} {} has no display name", kind.word(), meta.id);
            assert!(meta.source.is_some(), "{} {} has no source", kind.word(), meta.id);
        }
    }
    assert!(serde_json::to_string(&data).is_ok());
}

#[test]
fn stdlib_has_the_ids_scenarios_rely_on() {
    let (data, _) = stdlib();
    let expect = |kind: EntryKind, ids: &[&str]| {
        for id in ids {
            assert!(data.contains(kind, id), "stdlib lacks {} {id}", kind.word());
        }
    };
    expect(
        EntryKind::Weapon,
        &[
            "smoothbore_musket",
            "rifled_musket",
            "repeating_rifle",
            "breechloading_carbine",
            "muzzleloading_carbine",
            "shotgun_revolvers",
            "repeating_carbine",
            "napoleon",
            "ordnance_rifle",
            "parrott_rifle",
            "field_howitzer",
        ],
    );
    expect(
        EntryKind::Terrain,
        &[
            "open",
            "cornfield",
            "ploughed_field",
            "orchard",
            "light_woods",
            "dense_woods",
            "minor_stream",
            "major_river",
            "sunken_road",
            "road",
            "marsh",
            "town",
        ],
    );
    expect(EntryKind::Obstacle, &["rail_fence", "stone_wall", "hedge", "abatis", "breastworks"]);
    expect(EntryKind::Structure, &["masonry_building"]);
    expect(EntryKind::Formation, &["line", "assault_column", "road_column", "skirmish", "open_order"]);
    expect(EntryKind::Rating, &["aggressive", "reliable", "timid"]);
    expect(EntryKind::Quality, &["green", "regular", "veteran", "elite"]);
    expect(
        EntryKind::Trait,
        &["rebel_yell", "seen_the_elephant", "iron_discipline", "steady", "sharpshooters", "buck_and_ball"],
    );
    expect(EntryKind::Marker, &["disorder", "gunsmoke", "low_ammo", "clean_barrels", "micro_hit"]);
    expect(EntryKind::Health, &["fresh", "worn", "spent", "shattered"]);
    expect(EntryKind::BrigadeState, &["hesitant", "broken"]);
    expect(EntryKind::LeaderResult, &["unhurt", "lightly_wounded", "severely_wounded", "killed"]);
    expect(
        EntryKind::MeleeResult,
        &["defeated", "bloody_draw", "victor", "breakthrough", "cavalry_defeated"],
    );
    expect(
        EntryKind::Modifier,
        &["enfilade", "momentum", "brigadier_attached", "cavalry_shock", "battery_in_melee"],
    );
    expect(EntryKind::Order, &["regimental_assault", "dress_on_the_colors"]);
    assert_eq!(
        data.movement_rates().len(),
        12,
        "ten Ch16 3.1 rows, horse artillery by hand (Ch16 10.4) and the sharpshooters' order (Ch13 9.0)"
    );
    assert_eq!(data.tiers().len(), 4);
}

#[test]
fn stdlib_spot_values() {
    let (data, _) = stdlib();
    // Ch16 5.2
    let rifled = data.weapon("rifled_musket").unwrap();
    assert_eq!(rifled.bands[1], Band { name: BandName::Medium, from: 6.0, to: 14.0, hits: 4 });
    assert_eq!(data.weapon("smoothbore_musket").unwrap().max_range(Arm::Infantry), 14.0);
    assert_eq!(data.weapon("repeating_rifle").unwrap().pool(5), 7);
    assert_eq!(data.weapon("breechloading_carbine").unwrap().pool(5), 7);
    // RULINGS C21
    let carbine = data.weapon("breechloading_carbine").unwrap();
    assert_eq!((carbine.max_range(Arm::Infantry), carbine.max_range(Arm::Cavalry)), (20.0, 18.0));
    // Ch16 5.3
    let napoleon = data.weapon("napoleon").unwrap();
    assert_eq!(napoleon.bands[0], Band { name: BandName::Canister, from: 0.0, to: 6.0, hits: 2 });
    assert!(napoleon.canister_disorder);
    assert_eq!(napoleon.pool(2), 4);
    assert_eq!(data.weapon("ordnance_rifle").unwrap().band_at(Arm::Artillery, 24.0).unwrap().hits, 4);
    // Ch16 4.1, 4.2
    assert_eq!(data.terrain("dense_woods").unwrap().los, SightLimit::Inches(3.0));
    let wall = data.obstacle("stone_wall").unwrap();
    assert_eq!(wall.cover, Cover { class: CoverClass::Heavy, save: Some(4) });
    assert_eq!(wall.melee, Some(MeleeModifier { value: 2, side: MeleeSide::Defender }));
    assert_eq!(wall.crossing, Crossing::Inches { cost: 2.0, check: Some(4) });
    // Ch16 2.1
    let aggressive = data.rating("aggressive").unwrap();
    assert_eq!((aggressive.die, aggressive.bonus, aggressive.halve), (3, 1, None));
    let timid = data.rating("timid").unwrap();
    assert_eq!((timid.die, timid.halve), (3, Some(Rounding::Up)));
    assert_eq!(timid.pips(3), 2);
    // Ch16 3.1
    let line = data.movement("infantry_line").unwrap();
    assert_eq!((line.open, line.rough, line.charge), (6.0, 4.0, Charge::Inches(9.0)));
    assert_eq!(data.movement_for(Arm::Infantry, Some("line"), None).unwrap().meta.id, "infantry_line");
    assert_eq!(
        data.movement_for(Arm::Cavalry, Some("skirmish"), Some(MoveState::Dismounted)).unwrap().meta.id,
        "dismounted_cavalry"
    );
    // Ch16 5.5, 8.3
    let green = data.quality("green").unwrap();
    assert_eq!((green.discipline, green.rally), (5, 5));
    assert_eq!(green.traits, ["seen_the_elephant"]);
    // Ch16 3.2 (the runtime's footprint helpers)
    let column = data.formation("assault_column").unwrap();
    assert_eq!((column.frontage_stands(), column.firing_stands(5)), (Some(2), 2));
    assert_eq!(data.formation("line").unwrap().frontage_stands(), None);
    assert_eq!(data.formation("open_order").unwrap().gap_inches(), 1.0);
    assert_eq!(data.formation("line").unwrap().change_cost("assault_column"), Some(Cost::Half));
}

#[test]
fn stdlib_command_tiers() {
    let (data, _) = stdlib();
    let tier = |d: f64| data.tier_at(d).unwrap().meta.id.as_str();
    let tiers: Vec<&str> = [0.0, 6.0, 6.1, 12.0, 24.0, 24.1].into_iter().map(tier).collect();
    assert_eq!(tiers, ["bugle", "bugle", "courier", "courier", "distant_courier", "out_of_communication"]);
    assert_eq!(data.tier("distant_courier").unwrap().order_cost.factor(), Some(2));
    assert_eq!(data.tier("out_of_communication").unwrap().order_cost.factor(), None);
    let rally = data.order("command_rally").unwrap();
    assert_eq!((rally.pip_cost(12.0), rally.pip_cost(12.5)), (Some(1), Some(2)));
}

#[test]
fn stdlib_terrain_movement_follows_c24_and_c25() {
    let (data, _) = stdlib();
    let row = |id: &str| data.movement(id).unwrap();
    let terrain = |id: &str| data.terrain(id).unwrap();
    // RULINGS C24: the slower of the rough rate and the terrain cap.
    assert_eq!(terrain("light_woods").move_rate(row("infantry_line")), Some(4.0));
    assert_eq!(terrain("light_woods").move_rate(row("infantry_assault_column")), Some(4.0));
    assert_eq!(terrain("dense_woods").move_rate(row("infantry_road_column")), Some(3.0));
    assert_eq!(terrain("dense_woods").move_rate(row("artillery_limbered")), Some(3.0));
    assert_eq!(terrain("cornfield").move_rate(row("infantry_line")), Some(4.0));
    assert_eq!(terrain("road").move_rate(row("infantry_road_column")), Some(12.0));
    assert_eq!(terrain("major_river").move_rate(row("infantry_line")), None);
    // RULINGS C25: the higher of the formation's and the obstacle's cost.
    let obstacle = |id: &str| data.obstacle(id).unwrap();
    assert_eq!(obstacle("abatis").crossing_cost(row("infantry_line")), Some(3.0));
    assert_eq!(obstacle("rail_fence").crossing_cost(row("infantry_road_column")), Some(2.0));
    assert_eq!(obstacle("rail_fence").crossing_cost(row("artillery_limbered")), Some(4.0));
    assert_eq!(obstacle("rail_fence").crossing_cost(row("cavalry_column")), Some(2.0));
    assert_eq!(obstacle("breastworks").crossing_cost(row("infantry_line")), Some(2.0));
    assert_eq!(obstacle("stone_wall").crossing_cost(row("brigadier")), Some(0.0));
    assert_eq!(obstacle("hedge").crossing_cost(row("artillery_prolonge")), None);
}

#[test]
fn stdlib_markers() {
    let (data, _) = stdlib();
    let disorder = data.marker("disorder").unwrap();
    // Ch16 5.5, RULINGS C3: one 6 at <= 6", two beyond.
    assert_eq!((disorder.sixes_for_shock(6.0), disorder.sixes_for_shock(6.5)), (Some(1), Some(2)));
    assert_eq!(disorder.excess.as_deref(), Some("micro_hit"));
    assert_eq!(data.marker("micro_hit").unwrap().hits_per_stand, Some(2));
    assert_eq!(data.marker("gunsmoke").unwrap().to_hit, [ToHitModifier { value: -1, beyond: Some(6.0) }]);
    let ball = data.army_trait("buck_and_ball").unwrap();
    assert_eq!(ball.hits, [BandHits { band: BandName::Short, hits: 3 }]);
    assert_eq!(ball.max_range, Some(14.0));
}
// ---------------------------------------------------------------- combat (stdlib/combat.dotc)

/// The health state of a regiment with `left` of `starting` stands, as RULINGS C4 combines
/// the stand counts and the percentages: the tightest stand count first, then a percentage,
/// then the state with no bound of its own.
fn health_c4(data: &RuleData, left: u32, starting: u32) -> Option<&str> {
    let states = data.health_states();
    states
        .iter()
        .filter(|h| h.by_stand_count(left))
        .min_by_key(|h| h.at_most_stands)
        .or_else(|| states.iter().find(|h| h.by_percentage(left, starting)))
        .or_else(|| {
            states.iter().find(|h| {
                h.above_percent.is_none() && h.below_percent.is_none() && h.at_most_stands.is_none()
            })
        })
        .map(|h| h.meta.id.as_str())
}

#[test]
fn stdlib_health_states_follow_c4_and_the_stand_count_table() {
    let (data, _) = stdlib();
    let fresh = data.health("fresh").unwrap();
    assert_eq!(fresh.above_percent, Some(75));
    assert_eq!(fresh.melee, Some(MeleeModifier { value: 1, side: MeleeSide::Either }));
    let worn = data.health("worn").unwrap();
    assert_eq!(
        (worn.above_percent, worn.below_percent, worn.at_most_stands, worn.melee),
        (None, None, None, None)
    );
    let spent = data.health("spent").unwrap();
    assert_eq!((spent.below_percent, spent.at_most_stands), (Some(35), Some(2)));
    assert_eq!(spent.melee, Some(MeleeModifier { value: -1, side: MeleeSide::Either }));
    assert!(spent.assault_needs_brigadier && spent.tests_under_fire && !spent.removed);
    let shattered = data.health("shattered").unwrap();
    assert_eq!((shattered.at_most_stands, shattered.removed), (Some(1), true));
    // Exact shares: 3 of 4 is 75%, not above it.
    assert!(!fresh.by_percentage(3, 4) && fresh.by_percentage(7, 8));
    assert!(spent.by_percentage(2, 6) && !spent.by_percentage(3, 8));
    assert!(!worn.by_percentage(5, 8) && !worn.by_stand_count(1));
    // Ch16 8.1 stand count table, row by row: (starting, [state for 1, 2, ... starting left]).
    let table: [(u32, &[&str]); 5] = [
        (8, &["shattered", "spent", "worn", "worn", "worn", "worn", "fresh", "fresh"]),
        (6, &["shattered", "spent", "worn", "worn", "fresh", "fresh"]),
        (5, &["shattered", "spent", "worn", "fresh", "fresh"]),
        (4, &["shattered", "spent", "worn", "fresh"]),
        (3, &["shattered", "spent", "fresh"]),
    ];
    for (starting, states) in table {
        for (left, want) in (1..=starting).zip(states.iter()) {
            assert_eq!(health_c4(&data, left, starting), Some(*want), "{left} of {starting} stands");
        }
    }
    // RULINGS C4 extends to sizes the table lacks: 10 stands, 3 left is 30%.
    assert_eq!(health_c4(&data, 3, 10), Some("spent"));
}

#[test]
fn stdlib_brigade_clock() {
    let (data, _) = stdlib();
    let hesitant = data.brigade_state("hesitant").unwrap();
    assert_eq!(hesitant.losses_percent, 30);
    assert_eq!(hesitant.table, [(16, 5), (20, 6), (24, 7), (28, 8), (32, 10)]);
    assert_eq!((hesitant.to_hit, hesitant.discipline), (-1, -1));
    assert!(hesitant.no_assault && hesitant.no_double_time);
    assert!(!hesitant.no_fire && !hesitant.disorders_all && hesitant.retreat.is_none());
    // RULINGS G6: round-half-up(30%) fits every Hesitant row, ceil(50%) every Broken row.
    for (stands, lost) in &hesitant.table {
        assert_eq!((stands * 30 + 50) / 100, *lost, "Hesitant row for {stands} stands");
    }
    assert_eq!((hesitant.table_losses(20), hesitant.table_losses(21)), (Some(6), None));
    let broken = data.brigade_state("broken").unwrap();
    assert_eq!(broken.losses_percent, 50);
    assert_eq!(broken.table, [(16, 8), (20, 10), (24, 12), (28, 14), (32, 16)]);
    for (stands, lost) in &broken.table {
        assert_eq!(stands.div_ceil(2), *lost, "Broken row for {stands} stands");
    }
    assert_eq!(broken.retreat, Some(6.0));
    assert!(
        broken.disorders_all
            && broken.forfeits_pips
            && broken.no_fire
            && broken.no_rally
            && broken.routs_when_charged
            && broken.no_assault
    );
    assert_eq!((broken.to_hit, broken.discipline), (0, 0));
}

#[test]
fn stdlib_leader_casualty_table_covers_each_roll_once() {
    let (data, _) = stdlib();
    // Ch16 2.4: every face of the d6 gives exactly one result.
    for roll in 1..=6 {
        let results: Vec<&str> =
            data.leader_results().iter().filter(|r| r.covers(roll)).map(|r| r.meta.id.as_str()).collect();
        assert_eq!(results.len(), 1, "roll {roll} gives {results:?}");
    }
    assert!(data.leader_result_for(0).is_none() && data.leader_result_for(7).is_none());
    let id = |roll: u32| data.leader_result_for(roll).unwrap().meta.id.as_str();
    assert_eq!(
        [id(1), id(3), id(4), id(5), id(6)],
        ["unhurt", "unhurt", "lightly_wounded", "severely_wounded", "killed"]
    );
    let unhurt = data.leader_result("unhurt").unwrap();
    assert_eq!((unhurt.rolls, unhurt.pips, unhurt.removed), ((1, 3), 0, false));
    let light = data.leader_result_for(4).unwrap();
    assert_eq!((light.pips, light.removed, light.replacement.as_deref()), (-1, false, None));
    let severe = data.leader_result("severely_wounded").unwrap();
    assert!(severe.removed && !severe.permanent && !severe.disorders_unit);
    assert_eq!(severe.replacement.as_deref(), Some("timid"));
    let killed = data.leader_result("killed").unwrap();
    assert!(killed.removed && killed.permanent && killed.disorders_unit && killed.loses_unspent_pips);
    // The replacement names a rating (Ch16 2.4: the Timid formula).
    let timid = data.rating(killed.replacement.as_deref().unwrap()).unwrap();
    assert_eq!(timid.pip_range(), (1, 2));
}

#[test]
fn stdlib_melee_results_and_modifiers() {
    let (data, _) = stdlib();
    // Ch16 7.4
    let defeated = data.melee_result("defeated").unwrap();
    assert_eq!((defeated.stands, defeated.retreat, defeated.disorder), (1, Some(6.0), true));
    assert!(!defeated.cavalry && !defeated.locked);
    let draw = data.melee_result("bloody_draw").unwrap();
    assert_eq!((draw.stands, draw.micro_hits, draw.disorder, draw.locked), (0, 1, true, true));
    assert_eq!(draw.retreat, None);
    let victor = data.melee_result("victor").unwrap();
    assert_eq!((victor.stands, victor.consolidate, victor.disorder), (0, Some(2.0), false));
    let sweep = data.melee_result("breakthrough").unwrap();
    assert_eq!((sweep.margin, sweep.pips, sweep.sweep), (Some(4), 1, Some(4.0)));
    assert!(sweep.fresh_only && sweep.enemy_removed);
    // Ch16 10.1
    let cavalry = data.melee_result("cavalry_defeated").unwrap();
    assert_eq!(
        (cavalry.cavalry, cavalry.stands, cavalry.retreat, cavalry.disorder),
        (true, 1, Some(9.0), true)
    );
    // Ch16 5.6, 7.3, 2.4, 10.1; Ch8 6.0
    let enfilade = data.modifier("enfilade").unwrap();
    assert_eq!(enfilade.to_hit, 1);
    assert_eq!(enfilade.melee, Some(MeleeModifier { value: 2, side: MeleeSide::Attacker }));
    let momentum = data.modifier("momentum").unwrap();
    assert_eq!((momentum.melee.unwrap().value, momentum.run), (1, Some(3.0)));
    let brigadier = data.modifier("brigadier_attached").unwrap();
    assert_eq!(brigadier.melee, Some(MeleeModifier { value: 1, side: MeleeSide::Either }));
    assert_eq!(brigadier.discipline, 1);
    let shock = data.modifier("cavalry_shock").unwrap();
    assert_eq!(shock.melee, Some(MeleeModifier { value: 1, side: MeleeSide::Attacker }));
    assert_eq!(shock.opponent_melee, -2);
    let battery = data.modifier("battery_in_melee").unwrap();
    assert_eq!((battery.engaged, battery.melee, battery.to_hit), (Some(1), None, 0));
    // Ch16 7.2: the 4" pause and the 2" stall of both assault orders.
    for id in ["regimental_assault", "dress_on_the_colors"] {
        let order = data.order(id).unwrap();
        assert_eq!((order.interruption, order.stall), (Some(4.0), Some(2.0)), "{id}");
    }
    assert_eq!(data.order("double_time").unwrap().interruption, None);
    assert!(data.summary(EntryKind::MeleeResult, "defeated").unwrap().contains("retreats 6\""));
}

#[test]
fn health_values_are_checked() {
    let mut b = Build::default();
    let too_high = b.entry("health", "a", &["above 120"]);
    let crossed = b.entry("health", "b", &["above 75", "below 70", "melee +1 either"]);
    let spans = [too_high.props[0].values[0].span, crossed.props[1].span];
    let (data, diags) = read(vec![too_high, crossed]);
    assert_eq!(codes(&diags), ["dotc::bad-property"; 2]);
    assert_eq!(diags.iter().map(|d| d.primary.span).collect::<Vec<_>>(), spans);
    assert_eq!(diags[0].primary.text, "a percentage is a whole number from 0 to 100");
    assert_eq!(diags[0].help.as_deref(), Some("write it as `above <percent>`"));
    assert!(diags[1].primary.text.contains("above 75% and below 70%"), "{}", diags[1].primary.text);
    assert_eq!(data.health("a").unwrap().above_percent, None);
    assert_eq!(data.health("b").unwrap().melee, Some(MeleeModifier { value: 1, side: MeleeSide::Either }));
}

#[test]
fn brigade_state_values_are_checked() {
    let mut b = Build::default();
    let state = b.entry("brigade_state", "s", &["losses 30", "table 16 20", "table 20 6", "table 20 7"]);
    let spans = [state.props[1].values[1].span, state.props[3].span];
    let no_losses = b.entry("brigade_state", "t", &["table 16 5"]);
    let id_span = no_losses.id.span;
    let (data, diags) = read(vec![state, no_losses]);
    assert_eq!(codes(&diags), ["dotc::bad-property", "dotc::bad-property", "dotc::missing-property"]);
    assert_eq!((diags[0].primary.span, diags[1].primary.span), (spans[0], spans[1]));
    assert_eq!(diags[0].primary.text, "a brigade of 16 stands cannot lose 20");
    assert_eq!(diags[2].primary.span, id_span);
    assert_eq!(diags[2].message, "brigade_state `t` has no `losses`");
    // The rows that read are kept.
    assert_eq!(data.brigade_state("s").unwrap().table, [(20, 6)]);
}

#[test]
fn leader_result_values_and_references_are_checked() {
    let mut b = Build::default();
    let high = b.entry("leader_result", "a", &["roll 7"]);
    let backwards = b.entry("leader_result", "b", &["roll 5 to 3"]);
    let unremoved = b.entry("leader_result", "c", &["roll 6", "replacement timid"]);
    let typo = b.entry("leader_result", "d", &["roll 6", "removed", "replacement timd"]);
    let spans = [high.props[0].values[0].span, backwards.props[0].values[2].span, unremoved.props[1].span];
    let typo_span = typo.props[2].values[0].span;
    let (mut data, diags) = read(vec![high, backwards, unremoved, typo]);
    assert_eq!(codes(&diags), ["dotc::bad-property"; 3]);
    assert_eq!(diags.iter().map(|d| d.primary.span).collect::<Vec<_>>(), spans);
    assert_eq!(diags[0].primary.text, "a d6 roll runs from 1 to 6");
    assert_eq!(diags[1].primary.text, "a run of rolls goes upward: `3 to 5`");
    assert_eq!(data.leader_result("a").unwrap().rolls, (0, 0));
    assert!(data.leader_result_for(6).is_some() && data.leader_result_for(1).is_none());
    // The replacement is a rating, resolved once every library is in.
    let (ratings, _) = read(vec![b.entry("rating", "timid", &["pips d3 halve up"])]);
    data.extend(ratings);
    let mut diags = Vec::new();
    data.check_references(&mut diags);
    assert_eq!(codes(&diags), ["dotc::unknown-reference"]);
    assert_eq!(diags[0].primary.span, typo_span);
    assert_eq!(diags[0].fix.as_ref().unwrap().replacement, "timid");
}

#[test]
fn melee_result_and_modifier_values_are_checked() {
    let mut b = Build::default();
    let result = b.entry("melee_result", "r", &["margin 0", "retreat 6", "locked"]);
    let modifier = b.entry("modifier", "m", &["melee +2 flank", "engaged two", "to_hit +1"]);
    let order = b.entry("order", "o", &["phase 2", "pips 1", "charge 9", "interruption 4", "stall 4"]);
    let spans = [
        result.props[0].values[0].span,
        result.props[2].span,
        modifier.props[0].values[1].span,
        modifier.props[1].values[0].span,
        order.props[4].span,
    ];
    let (data, diags) = read(vec![result, modifier, order]);
    assert_eq!(codes(&diags), ["dotc::bad-property"; 5]);
    assert_eq!(diags.iter().map(|d| d.primary.span).collect::<Vec<_>>(), spans);
    assert_eq!(diags[0].primary.text, "a winning margin is at least 1");
    assert_eq!(diags[2].help.as_deref(), Some(format!("write it as `{MELEE_USAGE}`").as_str()));
    assert_eq!(diags[3].primary.text, "expected a number of stands, found `two`");
    let m = data.modifier("m").unwrap();
    assert_eq!((m.melee, m.engaged, m.to_hit), (None, None, 1));
    let o = data.order("o").unwrap();
    assert_eq!((o.interruption, o.stall), (Some(4.0), Some(4.0)));
}

/// The set moves, reactions, ground conditions, commanders, elevation, weather and the scale
/// read as written; a range written longest first is inconsistent, a ground penalty needs its
/// arms, the scale needs both its numbers.
#[test]
fn the_kinds_of_issue_13_read() {
    let mut b = Build::default();
    let entries = vec![
        b.entry("maneuver", "holders", &["distance 2 to 3", "cost half", "check 4+"]),
        b.entry("maneuver", "backwards", &["distance 3 to 2"]),
        b.entry("reaction", "evade", &["within 6", "move 4 to 6", "check 4+"]),
        b.entry(
            "ground",
            "mud",
            &["penalty 2 infantry", "penalty 4 cavalry, horse_artillery", "unlimber_pips 2"],
        ),
        b.entry("ground", "bog", &["penalty 1"]),
        b.entry("commander", "army", &["bonus_pips 2", "within 24"]),
        b.entry("commander", "corps", &["base 1.5"]),
        b.entry("elevation", "crest", &["dead_ground 1"]),
        b.entry("weather", "fog", &["sight 6", "no_first_volley", "exertion 1 infantry, cavalry"]),
        b.entry("scale", "table", &["stand_width 1", "yards_per_inch 25"]),
        b.entry("scale", "half", &["stand_width 0.5"]),
    ];
    let (data, diags) = read(entries);
    assert_eq!(
        codes(&diags),
        ["dotc::bad-property", "dotc::bad-property", "dotc::missing-property"],
        "{diags:?}"
    );
    let holders = data.maneuver("holders").unwrap();
    assert_eq!(
        (holders.distance, holders.cost, holders.check),
        (Some((2.0, 3.0)), Some(Cost::Half), Some(4))
    );
    assert_eq!(holders.most(), Some(3.0));
    assert_eq!(
        data.maneuver("holders").unwrap().meta.summary,
        "holders: 2\"-3\"; costs half move; Discipline check 4+."
    );
    let evade = data.reaction("evade").unwrap();
    assert_eq!((evade.within, evade.moves, evade.check), (Some(6.0), Some((4.0, 6.0)), Some(4)));
    let mud = data.ground("mud").unwrap();
    assert_eq!(
        (mud.penalty(Arm::Infantry), mud.penalty(Arm::HorseArtillery), mud.penalty(Arm::Leader)),
        (2.0, 4.0, 0.0)
    );
    assert_eq!(mud.unlimber_pips, Some(2));
    let army = data.commander("army").unwrap();
    assert_eq!((army.bonus_pips, army.within, army.base), (Some(2), Some(24.0), None));
    assert_eq!(data.commander("corps").unwrap().base, Some(1.5));
    assert_eq!(data.elevation("crest").unwrap().dead_ground, Some(1.0));
    let fog = data.weather("fog").unwrap();
    assert_eq!((fog.sight, fog.no_first_volley), (Some(6.0), true));
    assert_eq!(
        fog.exertion.as_ref().map(|e| (e.hits, e.arms.clone())),
        Some((1, vec![Arm::Infantry, Arm::Cavalry]))
    );
    assert_eq!(
        fog.meta.summary,
        "fog: sight 6\"; no first-volley bonus; 1 hit to infantry, cavalry on a Double-Time or Assault order."
    );
    let table = data.scale("table").unwrap();
    assert_eq!((table.stand_width, table.yards_per_inch), (Some(1.0), Some(25.0)));
    assert_eq!(table.meta.summary, "table: stands 1\" wide; 1\" = 25 yards.");
}

// ---------------------------------------------------------------- the ready-made stdlib

/// `stdlib.cache` is the stdlib's rule data as parsing the sources gives it, made from the sources
/// built in (issue 16). Made again with `DOTC_BLESS_STDLIB=1 cargo test -p dotc-lang
/// the_stdlib_cache`.
#[test]
fn the_stdlib_cache_is_up_to_date() {
    let fresh = super::cache::render(&crate::stdlib_parsed());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/library/stdlib.cache");
    if std::env::var_os("DOTC_BLESS_STDLIB").is_some() {
        std::fs::write(&path, &fresh).expect("write stdlib.cache");
    }
    let committed = std::fs::read_to_string(&path).expect("read stdlib.cache");
    assert!(
        committed == fresh,
        "lang/src/library/stdlib.cache is not the stdlib's rule data: make it again with \
         `DOTC_BLESS_STDLIB=1 cargo test -p dotc-lang the_stdlib_cache`"
    );
}

/// What the cache gives back is exactly what parsing gives, and a binary uses it.
#[test]
fn the_stdlib_read_from_the_cache_is_the_parsed_stdlib() {
    let cached = super::cache::load().expect("the cache matches the stdlib built in");
    assert_eq!(format!("{cached:?}"), format!("{:?}", crate::stdlib_parsed()));
    assert_eq!(format!("{:?}", crate::stdlib()), format!("{cached:?}"));
}

/// A cache made from other sources is not used: its fingerprint differs.
#[test]
fn a_cache_of_other_sources_is_not_read() {
    let fingerprint = super::cache::fingerprint();
    assert!(fingerprint.starts_with("stdlib ") && fingerprint.len() == "stdlib ".len() + 16);
    let rendered = super::cache::render(&crate::stdlib_parsed());
    assert!(rendered.starts_with(&format!("{fingerprint}\n")));
    assert!(
        super::cache::load_from(&rendered.replacen(&fingerprint, "stdlib 0000000000000000", 1)).is_none()
    );
    assert!(super::cache::load_from(&rendered).is_some());
    assert!(super::cache::load_from("").is_none());
    assert!(super::cache::load_from(&format!("{fingerprint}\n{{\"weapons\": 3}}")).is_none());
}
