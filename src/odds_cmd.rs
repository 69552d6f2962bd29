//! `dotc odds fire|melee|assault`: the exact odds of a game action (and a check by simulation).

use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use dotc_runtime::rulings::{Rulings, WhatIf};

use crate::output::{Format, FormatArgs, print_document, schema};

#[derive(Subcommand, Debug)]
pub enum OddsKind {
    /// The odds of one volley of fire (Ch16 5.0-5.7): dice, to-hit, save, expected hits and
    /// stands lost, the chance of a Shock trigger and the distribution of stands lost.
    Fire(FireArgs),
    /// The odds of an opposed melee roll (Ch16 7.3): 1D6 + engaged stands + modifiers a side;
    /// the higher score wins, a tie is a Bloody Draw.
    Melee(MeleeArgs),
    /// The odds of a whole assault (Ch16 7.2-7.4, Ch6 3.0): the defender's Closing Volley at the
    /// 4" line, the charger's Shock save and pre-contact check (RULINGS C3, C7), and the melee.
    Assault(AssaultArgs),
}

#[derive(clap::Args, Debug)]
pub struct MeleeArgs {
    /// The attacker's engaged stands (in contact with the enemy, RULINGS G3).
    #[arg(long)]
    attacker_stands: u32,
    /// The sum of the attacker's modifiers (Ch16 7.3), e.g. 2 for fresh and column.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    attacker_mod: i32,
    /// A condition of the attacker, by its rule data id, whose melee modifier is added to
    /// --attacker-mod (repeat it, or separate names with commas): a formation (assault_column),
    /// marker (disorder), trait (rebel_yell), health (fresh, spent), modifier (momentum,
    /// enfilade, brigadier_attached) or weapon (shotgun_revolvers).
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    attacker_has: Vec<String>,
    /// The defender's engaged stands.
    #[arg(long)]
    defender_stands: u32,
    /// The sum of the defender's modifiers, e.g. 2 behind a stone wall, -2 if Disordered.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    defender_mod: i32,
    /// A condition of the defender, by its rule data id, as --attacker-has; also the obstacle,
    /// terrain kind or structure it defends (stone_wall +2; abatis gives the attacker -2).
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    defender_has: Vec<String>,
    #[command(flatten)]
    output: OddsOutput,
}

#[derive(clap::Args, Debug)]
pub struct AssaultArgs {
    /// The defender's weapon, a weapon id of the stdlib (e.g. rifled_musket, napoleon).
    #[arg(long)]
    weapon: String,
    /// The defender's stands (gun sections for a battery): all of them fire the closing volley.
    #[arg(long)]
    stands: u32,
    /// Range of the closing volley in inches [default: the assault order's interruption line, 4"].
    #[arg(long)]
    range: Option<f64>,
    /// Inches from the charger to the defender when the charge is declared (at most its charge
    /// speed: 9" for infantry, Ch16 3.1).
    #[arg(long, default_value_t = 8.0)]
    distance: f64,
    /// The defender gives no closing volley (Ch16 6.0: it chose another reaction, or cannot).
    #[arg(long)]
    no_volley: bool,
    /// The charger's cover against the closing volley (Ch16 5.4): normally open.
    #[arg(long, value_enum, default_value_t = CoverArg::Open)]
    cover: CoverArg,
    /// The charger's formation (Ch16 7.1): a line, or an assault column (+1 in melee, 2 stands
    /// engaged a side, RULINGS G3).
    #[arg(long, value_enum, default_value_t = ChargeFormationArg::Line)]
    target: ChargeFormationArg,
    /// The charger's stands before the volley.
    #[arg(long)]
    charger_stands: u32,
    /// The stands the charger started the battle with, for its health (Ch16 8.1) [default:
    /// --charger-stands].
    #[arg(long, value_name = "N")]
    charger_starting: Option<u32>,
    /// The charger's quality, a quality id of the rule data (green, regular, veteran, elite);
    /// its traits come with it.
    #[arg(long, default_value = "regular")]
    charger_quality: String,
    /// The charger carries a micro-hit (RULE-05-3.3).
    #[arg(long)]
    charger_micro_hit: bool,
    /// The charger carries a Disorder marker: the charge is refused (RULE-05-4.4, RULINGS C6).
    #[arg(long)]
    charger_disordered: bool,
    /// A trait of the charger by rule data id (rebel_yell, steady, seen_the_elephant...).
    #[arg(long = "charger-trait", value_name = "TRAIT", value_delimiter = ',')]
    charger_traits: Vec<String>,
    /// The charger's brigadier is attached (Ch16 2.4; a Spent regiment charges only with him,
    /// RULE-07-4.2).
    #[arg(long)]
    brigadier: bool,
    /// The charger's stands in contact [default: worked out from both fronts, RULINGS G3].
    #[arg(long, value_name = "N")]
    charger_engaged: Option<u32>,
    /// Its brigadier declared Desperate Valor on the charger (module desperate_valor, switched
    /// on): its checks roll 2D6 and keep the higher (Ch13 17.0).
    #[arg(long)]
    valor: bool,
    /// The charger's brigade raised the battle cry (module psychological_shock, switched on):
    /// the defender's Discipline checks are at -1 (Ch13 16.0).
    #[arg(long)]
    battle_cry: bool,
    /// A friend stands in second line behind the charger (module second_line, switched on):
    /// its Discipline checks are at +1 (Ch13 19.0).
    #[arg(long)]
    charger_supported: bool,
    /// Heroic Momentum fell on the charger (module friction_of_war, switched on): it passes its
    /// check to close without a die (Ch13 3.0).
    #[arg(long)]
    heroic_momentum: bool,
    /// A friend stands in second line behind the defender (module second_line, switched on):
    /// its Discipline checks are at +1 (Ch13 19.0).
    #[arg(long)]
    defender_supported: bool,
    /// The defender's quality (a Rebel Yell tests green and regular defenders, Ch16 9.0).
    #[arg(long, default_value = "regular")]
    defender_quality: String,
    /// The defender's formation (a column charged with no reserved pip is caught flat-footed
    /// under `--module caught_flat_footed`, Ch13 18.0).
    #[arg(long, value_enum, default_value_t = ChargeFormationArg::Line)]
    defender_formation: ChargeFormationArg,
    /// A trait of the defender by rule data id (sharpshooters, buck_and_ball, steady...).
    #[arg(long = "defender-trait", value_name = "TRAIT", value_delimiter = ',')]
    defender_traits: Vec<String>,
    /// The defender's brigade: hesitant fires its closing volley at -1 only under RULINGS C13
    /// `all_fire`; a broken one cannot fire and routs on contact (RULE-07-2.4).
    #[arg(long, value_enum, default_value_t = BrigadeArg::Fresh)]
    defender_brigade: BrigadeArg,
    /// The defender's stands in contact [default: worked out from both fronts, RULINGS G3].
    #[arg(long, value_name = "N")]
    defender_engaged: Option<u32>,
    /// The ground the defender holds: a terrain, obstacle or structure id (stone_wall +2,
    /// rail_fence, abatis: -2 to the charger and no momentum).
    #[arg(long, value_name = "ID")]
    ground: Option<String>,
    /// The charge's last 3" crossed open ground: +1 momentum (Ch16 7.3, RULINGS G10).
    #[arg(long)]
    momentum: bool,
    /// A flank or rear charge (+2, Ch16 7.3).
    #[arg(long)]
    flank: bool,
    /// The defender counter-charged (Ch16 6.0 Reaction 5): no momentum for the charger.
    #[arg(long)]
    counter_charge: bool,
    /// An optional module switched on (Ch13), e.g. july_sun.
    #[arg(long = "module", value_name = "MODULE", value_delimiter = ',')]
    modules: Vec<String>,
    /// A ruling, as a file writes it (repeatable): e.g. suppression=any_six_disorders (C3),
    /// pre_contact_trigger=hit_or_six (C7), broken_during_charge=goes_in (dotc D1).
    #[arg(long, value_name = "NAME=VALUE")]
    ruling: Vec<String>,
    /// Start from a preset of rulings (defaults, as_printed) before any --ruling.
    #[arg(long, value_name = "PRESET", default_value = "defaults")]
    preset: String,
    #[command(flatten)]
    output: OddsOutput,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum BrigadeArg {
    Fresh,
    Hesitant,
    Broken,
}

#[derive(clap::Args, Debug)]
pub struct FireArgs {
    /// Weapon id of the stdlib (e.g. rifled_musket, napoleon).
    #[arg(long)]
    weapon: String,
    /// Stands firing (gun sections for artillery).
    #[arg(long)]
    stands: u32,
    /// Range to the target in inches.
    #[arg(long)]
    range: f64,
    /// The target's cover (Ch16 5.4); `light` is read as a frontal obstacle such as a fence.
    #[arg(long, value_enum, default_value_t = CoverArg::Open)]
    cover: CoverArg,
    /// The target's formation (Ch16 5.6): column is an assault column.
    #[arg(long, value_enum, default_value_t = TargetArg::Line)]
    target: TargetArg,
    /// Sight passes through gunsmoke (-1 beyond 6", Ch16 5.7).
    #[arg(long)]
    smoke: bool,
    /// Firing through the unit's own skirmish screen (-1, RULE-05-6.2).
    #[arg(long)]
    screen: bool,
    /// Enfilade fire (+1 to hit, no frontal Light save; RULE-05-1.5, RULINGS C15).
    #[arg(long)]
    enfilade: bool,
    /// The firer is Disordered (-1, RULE-05-4.4).
    #[arg(long)]
    disordered: bool,
    /// The firer's brigade is Hesitant (-1, RULINGS C13).
    #[arg(long)]
    hesitant: bool,
    /// Concentrated Battery Fire (target saves at -1, RULE-05-2.4).
    #[arg(long)]
    concentrated: bool,
    /// The firer pivoted or re-formed before firing (-1, Ch16 5.1).
    #[arg(long)]
    pivoted: bool,
    /// The firer carries Low Ammo (-1, RULE-05-2.5b).
    #[arg(long)]
    low_ammo: bool,
    /// A Sudden Squall was rolled this turn: the pool is halved, rounded down (Ch13 3.0).
    #[arg(long)]
    squall: bool,
    /// The volley is a closing volley at a charger (Ch16 6.0, 7.2; RULINGS C13, Ch13 20.0).
    #[arg(long)]
    closing: bool,
    /// The target has its own skirmish screen ahead of it (Ch16 3.4, RULINGS G12).
    #[arg(long)]
    target_screened: bool,
    /// A trait of the firer by rule data id (sharpshooters, buck_and_ball); repeat or use commas.
    #[arg(long = "trait", value_name = "TRAIT", value_delimiter = ',')]
    traits: Vec<String>,
    /// A trait of the target by rule data id (steady, iron_discipline, elite_sharpshooters).
    #[arg(long, value_name = "TRAIT", value_delimiter = ',')]
    target_trait: Vec<String>,
    /// An optional module switched on (Ch13: plunging_fire, elite_sharpshooters, low_ammo...).
    #[arg(long, value_name = "MODULE", value_delimiter = ',')]
    module: Vec<String>,
    /// The target stands behind hasty works dug on its `--cover` (module digging_in, Ch13 14.0):
    /// open ground becomes light cover, light cover heavy.
    #[arg(long)]
    works: bool,
    /// A friendly formed regiment stands in second line behind the target: +1 on its Discipline
    /// saves (module second_line, Ch13 19.0, switched on by this flag).
    #[arg(long)]
    target_supported: bool,
    #[command(flatten)]
    output: OddsOutput,
}

/// The most trials `--monte-carlo` runs: about a second in a release build (six in a debug
/// build), and by then a probability's standard error is below 0.05%.
const MAX_TRIALS: u64 = 1_000_000;

/// How `dotc odds` prints, and whether it also simulates.
#[derive(clap::Args, Debug)]
pub struct OddsOutput {
    /// Text for people; JSON or YAML for tools (docs/schemas/odds-fire.schema.json, odds-melee,
    /// odds-assault).
    #[command(flatten)]
    format: FormatArgs,
    /// Also simulate N trials with seeded dice and print the estimates beside the exact values
    /// (1 to 1,000,000 trials).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(..=MAX_TRIALS))]
    monte_carlo: Option<u64>,
    /// The seed of the simulation.
    #[arg(long, value_name = "S", requires = "monte_carlo", default_value_t = 1)]
    seed: u64,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum CoverArg {
    Open,
    Light,
    Heavy,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum TargetArg {
    Line,
    Column,
    Road,
    Skirmish,
    /// An unlimbered battery (counter-battery fire under `--module advanced_artillery`, Ch13 7.0).
    Battery,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ChargeFormationArg {
    Line,
    Column,
}

/// Run one of the odds commands.
pub fn odds(what: &OddsKind) -> Result<ExitCode, String> {
    match what {
        OddsKind::Fire(args) => odds_fire(args),
        OddsKind::Melee(args) => odds_melee(args),
        OddsKind::Assault(args) => odds_assault(args),
    }
}

fn odds_fire(args: &FireArgs) -> Result<ExitCode, String> {
    use dotc_runtime::engine::fire::FireKind;
    use dotc_runtime::odds::{Cover, FireQuery, TargetFormation, fire_monte_carlo, fire_odds};
    use dotc_runtime::rulings::Rulings;

    let query = FireQuery {
        weapon: args.weapon.clone(),
        stands: args.stands,
        range: args.range,
        cover: match args.cover {
            CoverArg::Open => Cover::Open,
            CoverArg::Light => Cover::Light,
            CoverArg::Heavy => Cover::Heavy,
        },
        target: match args.target {
            TargetArg::Line => TargetFormation::Line,
            TargetArg::Column => TargetFormation::Column,
            TargetArg::Road => TargetFormation::Road,
            TargetArg::Skirmish => TargetFormation::Skirmish,
            TargetArg::Battery => TargetFormation::Battery,
        },
        smoke: args.smoke,
        screen: args.screen,
        enfilade: args.enfilade,
        disordered: args.disordered,
        hesitant: args.hesitant,
        concentrated: args.concentrated,
        kind: if args.closing { FireKind::Closing } else { FireKind::Phase3 },
        pivoted: args.pivoted,
        low_ammo: args.low_ammo,
        squall: args.squall,
        target_screened: args.target_screened,
        traits: args.traits.clone(),
        target_traits: args.target_trait.clone(),
        modules: args.module.clone(),
        works: args.works,
        target_supported: args.target_supported,
    };
    let data = dotc_lang::stdlib();
    let rulings = Rulings::default();
    let odds = fire_odds(&query, data, &rulings).map_err(|e| e.to_string())?;
    let estimate = match args.output.monte_carlo {
        None => None,
        Some(0) => return Err("--monte-carlo needs at least 1 volley".to_string()),
        Some(n) => {
            Some(fire_monte_carlo(&query, data, &rulings, n, args.output.seed).map_err(|e| e.to_string())?)
        }
    };

    if args.output.format.get() != Format::Text {
        let mut value = serde_json::to_value(&odds).map_err(|e| e.to_string())?;
        if let (Some(est), Some(map)) = (estimate, value.as_object_mut()) {
            map.insert("monte_carlo".to_string(), serde_json::to_value(est).map_err(|e| e.to_string())?);
        }
        print_document(args.output.format.get(), schema::ODDS_FIRE, &value)?;
        return Ok(ExitCode::SUCCESS);
    }

    let mut out = String::new();
    let save = odds.save.map_or("none".to_string(), |s| format!("{s}+"));
    out.push_str(&format!("{} x{} at {}\" ({} range)\n", args.weapon, args.stands, args.range, odds.band));
    out.push_str(&format!("  dice         {}D6\n", odds.dice));
    out.push_str(&format!("  to hit       {}+  ({:.1}% a die)\n", odds.to_hit, odds.p_hit * 100.0));
    out.push_str(&format!("  save         {save}\n"));
    match &estimate {
        None => {
            out.push_str(&format!("  hits         {:.3}\n", odds.expected_hits));
            out.push_str(&format!("  unsaved      {:.3}\n", odds.expected_unsaved));
            out.push_str(&format!("  stands lost  {:.3}  (unsaved / 2)\n", odds.expected_stands_lost));
            out.push_str(&format!("  shock        {:.1}%\n", odds.p_shock * 100.0));
        }
        Some(est) => {
            out.push_str(&format!(
                "                exact     simulated ({} volleys, seed {})\n",
                est.volleys, est.seed
            ));
            for (name, exact, e, scale) in [
                ("hits", odds.expected_hits, est.expected_hits, 1.0),
                ("stands lost", odds.expected_stands_lost, est.expected_stands_lost, 1.0),
                ("shock %", odds.p_shock, est.p_shock, 100.0),
            ] {
                out.push_str(&format!(
                    "  {name:<12} {:>8.3}  {:>8.3} \u{b1} {:.3}\n",
                    exact * scale,
                    e.mean * scale,
                    e.std_error * scale
                ));
            }
            out.push_str(&format!("  unsaved      {:>8.3}\n", odds.expected_unsaved));
        }
    }
    out.push_str("  stands lost by this volley (no micro-hit before):\n");
    for (k, p) in odds.stands_lost.iter().enumerate() {
        out.push_str(&format!("    {k}  {:>5.1}%\n", p * 100.0));
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

/// The named melee conditions of one side, summed (see `dotc_runtime::odds::melee::named_modifier`).
#[derive(Default)]
struct NamedSum {
    /// To the side that has them.
    own: i32,
    /// To the other side (an abatis, cavalry shock).
    opponent: i32,
    engaged: Option<u32>,
    closing_volley_discipline: i32,
    shock_discipline: i32,
    /// "assault_column +1", for the table.
    parts: Vec<String>,
}

fn named_sum(names: &[String], role: dotc_runtime::odds::melee::Role) -> Result<NamedSum, String> {
    use dotc_runtime::odds::melee::named_modifier;
    let data = dotc_lang::stdlib();
    let mut sum = NamedSum::default();
    let mut seen: Vec<&str> = Vec::new();
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        if seen.contains(&name) {
            return Err(format!("`{name}` is named twice; each modifier counts once"));
        }
        seen.push(name);
        let m = named_modifier(data, name, role).map_err(|e| e.to_string())?;
        sum.own += m.own;
        sum.opponent += m.opponent;
        sum.engaged = m.engaged.or(sum.engaged);
        sum.closing_volley_discipline += m.closing_volley_discipline;
        sum.shock_discipline += m.shock_discipline;
        let mut part = format!("{name} {:+}", m.own);
        if m.opponent != 0 {
            part.push_str(&format!(" ({:+} to the other side)", m.opponent));
        }
        if let Some(e) = m.engaged {
            part.push_str(&format!(" ({e} engaged)"));
        }
        sum.parts.push(part);
    }
    Ok(sum)
}

fn odds_melee(args: &MeleeArgs) -> Result<ExitCode, String> {
    use dotc_runtime::odds::melee::{MeleeSide, Role, melee_monte_carlo, melee_odds};
    let named_a = named_sum(&args.attacker_has, Role::Attacker)?;
    let mut named_d = named_sum(&args.defender_has, Role::Defender)?;
    // RULINGS G15: cavalry shock's -2 against Disordered infantry is the Disorder's own -2, not a
    // second one (the engine's melee reads it the same way).
    let has = |names: &[String], id: &str| names.iter().any(|n| n.trim() == id);
    if has(&args.attacker_has, "cavalry_shock") && has(&args.defender_has, "disorder") {
        let shock =
            dotc_runtime::odds::melee::named_modifier(dotc_lang::stdlib(), "cavalry_shock", Role::Attacker)
                .map_err(|e| e.to_string())?;
        named_d.own -= shock.opponent;
        named_d
            .parts
            .push(format!("cavalry shock {:+} not doubled on Disorder (RULINGS G15)", -shock.opponent));
    }
    // Ch16 4.2, RULINGS G17: an obstacle such as an abatis cancels the charge's momentum (the
    // engine's melee reads the same `cancels_momentum` of the rule data).
    let data = dotc_lang::stdlib();
    let cancelling =
        args.defender_has.iter().find(|n| data.obstacle(n.trim()).is_some_and(|o| o.cancels_momentum));
    let mut named_a = named_a;
    if let (Some(obstacle), true) = (cancelling, has(&args.attacker_has, "momentum")) {
        let momentum = dotc_runtime::odds::melee::named_modifier(data, "momentum", Role::Attacker)
            .map_err(|e| e.to_string())?;
        named_a.own -= momentum.own;
        named_a.parts.push(format!(
            "momentum {:+} cancelled by the {} (Ch16 4.2, RULINGS G17)",
            -momentum.own,
            obstacle.trim()
        ));
    }
    let attacker = MeleeSide {
        engaged_stands: named_a.engaged.map_or(args.attacker_stands, |e| e.min(args.attacker_stands)),
        modifier: args.attacker_mod + named_a.own + named_d.opponent,
    };
    let defender = MeleeSide {
        engaged_stands: named_d.engaged.map_or(args.defender_stands, |e| e.min(args.defender_stands)),
        modifier: args.defender_mod + named_d.own + named_a.opponent,
    };
    let odds = melee_odds(attacker, defender).map_err(|e| e.to_string())?;
    let estimate = match args.output.monte_carlo {
        Some(0) => return Err("--monte-carlo needs at least 1 melee".to_string()),
        Some(n) => {
            Some(melee_monte_carlo(attacker, defender, n, args.output.seed).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    if args.output.format.get() != Format::Text {
        let mut value = serde_json::to_value(&odds).map_err(|e| e.to_string())?;
        if let Some(map) = value.as_object_mut() {
            map.insert("attacker_modifier".into(), attacker.modifier.into());
            map.insert("defender_modifier".into(), defender.modifier.into());
            if let Some(est) = &estimate {
                map.insert("monte_carlo".into(), serde_json::to_value(est).map_err(|e| e.to_string())?);
            }
        }
        print_document(args.output.format.get(), schema::ODDS_MELEE, &value)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = format!(
        "melee: attacker {} stands {:+}, defender {} stands {:+} (1D6 + stands + modifiers)\n",
        attacker.engaged_stands, attacker.modifier, defender.engaged_stands, defender.modifier
    );
    for (side, named, given) in
        [("attacker", &named_a, args.attacker_mod), ("defender", &named_d, args.defender_mod)]
    {
        if !named.parts.is_empty() {
            out.push_str(&format!("  {side}: {}, {given:+} given\n", named.parts.join(", ")));
        }
    }
    let rows = [
        (
            "attacker wins",
            odds.attacker_wins,
            estimate.as_ref().map(|e| (e.attacker_wins, e.attacker_wins_se)),
        ),
        ("bloody draw", odds.draw, estimate.as_ref().map(|e| (e.draw, e.draw_se))),
        (
            "defender wins",
            odds.defender_wins,
            estimate.as_ref().map(|e| (e.defender_wins, e.defender_wins_se)),
        ),
    ];
    match &estimate {
        Some(est) => out.push_str(&format!(
            "                  exact     simulated ({} melees, seed {})\n",
            est.trials, args.output.seed
        )),
        None => out.push_str("                  exact\n"),
    }
    for (label, exact, simulated) in rows {
        out.push_str(&format!("  {label:<14} {:>6.1}%", exact * 100.0));
        if let Some((p, se)) = simulated {
            out.push_str(&format!("   {:>6.1}% ± {:.1}", p * 100.0, se * 100.0));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "  attacker wins by 4 or more (breakthrough if Fresh, Ch16 7.4): {:.1}%\n",
        odds.attacker_wins_by_4_or_more * 100.0
    ));
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn odds_assault(args: &AssaultArgs) -> Result<ExitCode, String> {
    use dotc_runtime::engine::events::BrigadeStatus;
    use dotc_runtime::odds::assault::{
        AssaultQuery, Charger, Defender, assault_monte_carlo, assault_odds, plan_charge,
    };
    use dotc_runtime::odds::explain::assault_lines;
    use dotc_runtime::odds::{Cover, FireQuery, TargetFormation};

    let data = dotc_lang::stdlib();
    // The same parse of --preset and --ruling as `dotc replay` and `dotc audit`.
    let rulings = WhatIf::parse(Some(&args.preset), &args.ruling)?.apply(Rulings::default());
    let range = match args.range {
        Some(r) => r,
        None => data
            .order("regimental_assault")
            .and_then(|o| o.interruption)
            .ok_or("the rule data gives no interruption line (order regimental_assault); give --range")?,
    };
    let mut volley = FireQuery::new(&args.weapon, args.stands, range);
    volley.cover = match args.cover {
        CoverArg::Open => Cover::Open,
        CoverArg::Light => Cover::Light,
        CoverArg::Heavy => Cover::Heavy,
    };
    volley.target = match args.target {
        ChargeFormationArg::Line => TargetFormation::Line,
        ChargeFormationArg::Column => TargetFormation::Column,
    };
    volley.traits = args.defender_traits.clone();
    volley.target_traits = args.charger_traits.clone();
    volley.modules = args.modules.clone();
    volley.hesitant = args.defender_brigade == BrigadeArg::Hesitant;
    let query = AssaultQuery {
        volley,
        closing_volley: !args.no_volley,
        distance: args.distance,
        charger: Charger {
            stands: args.charger_stands,
            starting_stands: args.charger_starting.unwrap_or(args.charger_stands),
            quality: args.charger_quality.clone(),
            micro_hit: args.charger_micro_hit,
            disordered: args.charger_disordered,
            brigadier: args.brigadier,
            engaged: args.charger_engaged.unwrap_or(0),
            valor: args.valor,
            battle_cry: args.battle_cry,
            supported: args.charger_supported,
            heroic: args.heroic_momentum,
        },
        defender: Defender {
            quality: args.defender_quality.clone(),
            brigade: match args.defender_brigade {
                BrigadeArg::Fresh => BrigadeStatus::Fresh,
                BrigadeArg::Hesitant => BrigadeStatus::Hesitant,
                BrigadeArg::Broken => BrigadeStatus::Broken,
            },
            engaged: args.defender_engaged.unwrap_or(0),
            formation: match args.defender_formation {
                ChargeFormationArg::Line => "line".to_string(),
                ChargeFormationArg::Column => "assault_column".to_string(),
            },
            supported: args.defender_supported,
        },
        momentum: args.momentum,
        flank: args.flank,
        counter_charge: args.counter_charge,
        ground: args.ground.clone(),
    };
    let odds = assault_odds(&query, data, &rulings).map_err(|e| e.to_string())?;
    let estimate = match args.output.monte_carlo {
        None => None,
        Some(0) => return Err("--monte-carlo needs at least 1 assault".to_string()),
        Some(n) => Some(
            assault_monte_carlo(&query, data, &rulings, n, args.output.seed).map_err(|e| e.to_string())?,
        ),
    };
    if args.output.format.get() != Format::Text {
        let mut value = serde_json::to_value(&odds).map_err(|e| e.to_string())?;
        if let (Some(est), Some(map)) = (&estimate, value.as_object_mut()) {
            map.insert("monte_carlo".into(), serde_json::to_value(est).map_err(|e| e.to_string())?);
        }
        print_document(args.output.format.get(), schema::ODDS_ASSAULT, &value)?;
        return Ok(ExitCode::SUCCESS);
    }
    // The plan again, for the closing volley's lines: the same plan the odds priced.
    let charge = plan_charge(&query, data, &rulings).map_err(|e| e.to_string())?;
    let volley = charge.plan.closing.as_ref().map(|c| &c.plan).zip(odds.closing_volley.as_ref());
    let mut out = String::new();
    for l in assault_lines("the charger", "the defender", &odds, volley) {
        out.push_str(&format!("{l}\n"));
    }
    if let Some(est) = &estimate {
        out.push_str(&format!("simulated ({} assaults, seed {}):\n", est.trials, est.seed));
        for (label, exact, e) in [
            ("destroyed by the volley", odds.p_destroyed, est.p_destroyed),
            ("stalled 2\" short", odds.p_stalled, est.p_stalled),
            ("melee", odds.p_melee, est.p_melee),
            ("  attacker wins", odds.p_attacker_wins, est.p_attacker_wins),
            ("  bloody draw", odds.p_draw, est.p_draw),
            ("  defender wins", odds.p_defender_wins, est.p_defender_wins),
            ("check called for", odds.p_pre_contact_check, est.p_pre_contact_check),
        ] {
            out.push_str(&format!(
                "  {label:<23} exact {:>6.1}%   simulated {:>6.1}% ± {:.1}\n",
                exact * 100.0,
                e.mean * 100.0,
                e.std_error * 100.0
            ));
        }
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}
