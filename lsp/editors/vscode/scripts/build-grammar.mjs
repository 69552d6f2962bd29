// Builds syntaxes/dotc.tmLanguage.json, the TextMate grammar of .dotc files.
//
// The grammar is written here as a JavaScript object so that its regular expressions can be
// written with String.raw (no JSON double escaping) and its word lists shared. The JSON file is
// what VS Code loads; it is committed, and `npm test` fails when it is out of date:
//
//   node scripts/build-grammar.mjs          # write syntaxes/dotc.tmLanguage.json
//   node scripts/build-grammar.mjs --check  # exit 1 when the committed JSON differs
//
// The language is defined by lang/src/grammar.pest (authoritative) and docs/language.md; the verbs
// by lang/src/verbs.rs, and the rule-data ids by stdlib/*.dotc. test/consistency.test.mjs checks
// that the word lists below still cover those files.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'syntaxes', 'dotc.tmLanguage.json');

// ------------------------------------------------------------------ word lists (exported for tests)

/** Action verbs of a game log (lang/src/verbs.rs, `verb(...)`). */
export const VERBS = [
  'pips', 'bonus', 'reserve', 'order', 'attach', 'detach', 'rally', 'friction', 'move', 'wheel',
  'about_face', 'formation', 'fall_back', 'double_time', 'limber', 'unlimber', 'dismount',
  'remount', 'screen', 'recall', 'garrison', 'enter', 'exit', 'hold', 'assault', 'react', 'fire',
  'concentrate', 'melee', 'retreat', 'consolidate', 'breakthrough', 'leader', 'clear_smoke',
  'reform', 'scripted', 'note', 'dig_in', 'refuse', 'spike', 'haul', 'token', 'fog', 'valor',
  'battle_cry', 'lead_horses', 'pursue', 'wave', 'reveal',
];
/** Steps of an assault block (lang/src/verbs.rs, `step(...)`). */
export const STEPS = [
  'closing_volley', 'discipline', 'contact', 'stall', 'rebel_yell', 'premature_fire', 'flat_footed', 'melee',
  'evade',
];
/** Steps of a campaign's post-battle sequence (lang/src/campaign.rs, `STEPS`; Ch14 1.0). */
export const CAMPAIGN_STEPS = ['field', 'surgeon', 'experience', 'trait', 'promotion', 'officer', 'replacements'];
/** The phases of a turn (grammar.pest, `phase_name`). */
export const PHASES = ['command', 'maneuver', 'fire', 'melee', 'status'];
/** Compass words, 16 points (docs/language.md, Facings). */
export const COMPASS = [
  'north', 'north_north_east', 'north_east', 'east_north_east', 'east', 'east_south_east',
  'south_east', 'south_south_east', 'south', 'south_south_west', 'south_west', 'west_south_west',
  'west', 'west_north_west', 'north_west', 'north_north_west',
];
/** Kinds of library entries (docs/language.md section 4). */
export const ENTRY_KINDS = [
  'weapon', 'terrain', 'obstacle', 'structure', 'movement', 'formation', 'rating', 'tier', 'order',
  'quality', 'trait', 'marker', 'health', 'brigade_state', 'leader_result', 'melee_result',
  'modifier', 'maneuver', 'reaction', 'ground', 'commander', 'elevation', 'weather', 'scale',
  'surgeon', 'experience', 'staff', 'draft',
];
export const QUALITIES = ['green', 'regular', 'veteran', 'elite'];
export const RATINGS = ['aggressive', 'reliable', 'timid'];
export const COMMAND_LEVELS = ['army', 'corps', 'division'];
export const WEAPONS = [
  'smoothbore_musket', 'rifled_musket', 'repeating_rifle', 'breechloading_carbine',
  'repeating_carbine', 'muzzleloading_carbine', 'shotgun_revolvers', 'napoleon', 'ordnance_rifle',
  'parrott_rifle', 'field_howitzer',
];
export const FORMATIONS = ['line', 'assault_column', 'road_column', 'skirmish', 'open_order', 'sharpshooter_order'];
export const TRAITS = [
  'rebel_yell', 'seen_the_elephant', 'iron_discipline', 'steady', 'sharpshooters', 'buck_and_ball',
  'elite_sharpshooters',
];
export const MARKERS = [
  'disorder', 'gunsmoke', 'low_ammo', 'clean_barrels', 'micro_hit', 'fouled', 'captured_guns',
];
/** Terrain, obstacle and structure kinds of the stdlib, plus the scenario-only hill and objective. */
export const TERRAIN_KINDS = [
  'open', 'cornfield', 'ploughed_field', 'orchard', 'light_woods', 'dense_woods', 'minor_stream',
  'major_river', 'sunken_road', 'road', 'marsh', 'town', 'rail_fence', 'stone_wall', 'hedge',
  'abatis', 'breastworks', 'masonry_building', 'hill', 'objective', 'hasty_works',
  'hasty_works_heavy',
];
export const TERRAIN_FLAGS = [
  'masonry', 'wooden', 'sunken', 'cut', 'embankment', 'unfinished', 'impassable',
];
export const UNIT_STATES = ['limbered', 'unlimbered', 'prolonge', 'horse', 'mounted', 'dismounted'];
export const MODULES = [
  'command_bidding', 'clean_barrels', 'friction_of_war', 'hidden_deployment', 'army_traits',
  'horse_holders', 'advanced_artillery', 'written_orders', 'elite_sharpshooters', 'premature_fire',
  'july_sun', 'uncontrollable_pursuit', 'refusing_the_flank', 'digging_in', 'spiking_the_guns',
  'psychological_shock', 'desperate_valor', 'caught_flat_footed', 'second_line', 'plunging_fire',
  'weather', 'open_order', 'wave_attack', 'low_ammo',
];
/** Other stdlib entry ids: health and brigade states, leader and melee results, modifiers,
 * command tiers, orders and movement rows. */
export const OTHER_IDS = [
  'fresh', 'worn', 'spent', 'shattered', 'hesitant', 'broken', 'unhurt', 'lightly_wounded',
  'severely_wounded', 'killed', 'defeated', 'bloody_draw', 'victor', 'breakthrough',
  'cavalry_defeated', 'enfilade', 'momentum', 'brigadier_attached', 'cavalry_shock',
  'battery_in_melee', 'bugle', 'courier', 'distant_courier', 'out_of_communication', 'advance',
  'change_formation', 'command_rally', 'concentrated_battery_fire', 'double_time',
  'dress_on_the_colors', 'hold_and_fire', 'limber', 'regimental_assault', 'reserve_for_reaction',
  'wheel', 'artillery_limbered', 'artillery_prolonge', 'cavalry_column', 'cavalry_line',
  'dismounted_cavalry', 'horse_artillery_limbered', 'horse_artillery_prolonge',
  'infantry_assault_column', 'infantry_line', 'infantry_road_column', 'infantry_sharpshooter_order',
  'uphill', 'crest',
  'crest_advantage',
  'roll', 'track', 'officers', 'replacements',
  'flat_footed', 'pivoted', 'opportunity_fire', 'skirmish_evade', 'refuse_flank',
  'counter_charge', 'fall_back', 'about_face', 'dismount', 'remount', 'shaken_fall_back',
  'pursuit', 'firm', 'soft', 'mud', 'plunging_fire', 'horse_holders', 'horse_holders_move',
  'horse_holders_road', 'general_at_the_front', 'panic_in_the_ranks', 'misinterpreted_orders',
  'downpour', 'light_fog',
  'dense_fog', 'severe', 'solitary_brigadier', 'dig_in', 'refuse_the_flank', 'refusing_the_flank',
  'premature_fire', 'bouncing_shot', 'second_line', 'desperate_valor', 'battle_cry', 'wave_attack',
  'spike_the_guns', 'haul_off_the_guns', 'drizzle', 'clear_fouling',
];
export const PRESETS = ['defaults', 'as_printed'];
export const VICTORY_LEVELS = ['decisive', 'major', 'minor', 'marginal'];
/** Words of a claimed result (docs/language.md, Claims). Other words are still claim items. */
export const CLAIM_WORDS = [
  'hits', 'saved', 'lost', 'micro', 'disordered', 'pass', 'fail', 'attacker', 'defender', 'wins',
  'draw', 'rallied', 'evaded', 'captured', 'structure', 'collapsed', 'refused', 'held', 'panicked',
];

// ------------------------------------------------------------------ building blocks

const words = (list) => String.raw`\b(?:${[...list].sort((a, b) => b.length - a.length).join('|')})\b`;
const IDENT = String.raw`[A-Za-z_][A-Za-z0-9_]*`;
/** A double-quoted string on one line, with escapes. */
const STRING = String.raw`"(?:[^"\\\n]|\\.)*"`;
/** Where a statement may start: the start of a line, or after `;`, `{` or `)`. */
const START = String.raw`(?:^|(?<=[;{]))\s*`;
/** The end of a one-line statement: the end of the line, or before `;`, `{`, `}`. */
const LINE_END = String.raw`(?=[;{}])|$`;
const NUMBER = String.raw`\d+(?:\.\d+)?`;

const kw = (name) => ({ name: `keyword.other.${name}.dotc` });
/** A capture holding a string, with an extra scope around it (names of things). */
const named = (scope) => ({ name: scope, patterns: [{ include: '#string' }] });
const blockEnd = { 0: { name: 'punctuation.section.block.end.dotc' } };
const blockBegin = { name: 'punctuation.section.block.begin.dotc' };

// ------------------------------------------------------------------ the grammar

const grammar = {
  $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
  name: 'dotc',
  scopeName: 'source.dotc',
  fileTypes: ['dotc'],
  comment:
    'Generated by scripts/build-grammar.mjs from the language of lang/src/grammar.pest; do not edit by hand.',
  patterns: [
    { include: '#comments' },
    { include: '#scenario' },
    { include: '#library' },
    { include: '#game' },
    { include: '#turn' },
    { include: '#campaign' },
    { include: '#brace-block' },
    { include: '#common' },
  ],
  repository: {
    // ------------------------------------------------------------ lexical
    comments: {
      patterns: [
        {
          // Block comments do not nest: the first `*/` closes.
          name: 'comment.block.dotc',
          begin: String.raw`/\*`,
          end: String.raw`\*/`,
          beginCaptures: { 0: { name: 'punctuation.definition.comment.begin.dotc' } },
          endCaptures: { 0: { name: 'punctuation.definition.comment.end.dotc' } },
        },
        {
          name: 'comment.line.double-slash.dotc',
          begin: '//',
          end: '$',
          beginCaptures: { 0: { name: 'punctuation.definition.comment.dotc' } },
        },
      ],
    },
    string: {
      // Ends at the closing quote, or (unterminated) at the end of its line.
      name: 'string.quoted.double.dotc',
      begin: '"',
      end: String.raw`(")|$`,
      beginCaptures: { 0: { name: 'punctuation.definition.string.begin.dotc' } },
      endCaptures: { 1: { name: 'punctuation.definition.string.end.dotc' } },
      patterns: [{ name: 'constant.character.escape.dotc', match: String.raw`\\.` }],
    },
    'text-block': {
      name: 'string.quoted.triple.dotc',
      begin: '"""',
      end: '"""',
      beginCaptures: { 0: { name: 'punctuation.definition.string.begin.dotc' } },
      endCaptures: { 0: { name: 'punctuation.definition.string.end.dotc' } },
    },
    strings: {
      patterns: [{ include: '#text-block' }, { include: '#string' }],
    },
    'script-block': {
      // ```rhai ... ``` : the language tag is optional.
      name: 'meta.embedded.block.rhai.dotc',
      contentName: 'source.rhai',
      begin: String.raw`(\x60\x60\x60)([A-Za-z]+)?`,
      end: String.raw`\x60\x60\x60`,
      beginCaptures: {
        1: { name: 'punctuation.definition.script.begin.dotc' },
        2: { name: 'entity.name.tag.language.dotc' },
      },
      endCaptures: { 0: { name: 'punctuation.definition.script.end.dotc' } },
      patterns: [{ include: '#rhai-template' }, { include: '#rhai' }],
    },
    'script-expr': {
      // `expr` : one line.
      name: 'meta.embedded.line.rhai.dotc',
      contentName: 'source.rhai',
      begin: String.raw`\x60(?!\x60\x60)`,
      end: String.raw`(\x60)|$`,
      beginCaptures: { 0: { name: 'punctuation.definition.script.begin.dotc' } },
      endCaptures: { 1: { name: 'punctuation.definition.script.end.dotc' } },
      patterns: [{ include: '#rhai' }],
    },
    code: {
      name: 'constant.other.diagnostic-code.dotc',
      match: String.raw`\bdotc::[A-Za-z0-9-]+`,
    },
    allow: {
      // @allow(dotc::out-of-range, "measured on the day")
      name: 'meta.annotation.allow.dotc',
      begin: String.raw`(@allow)\s*(\()`,
      end: String.raw`\)`,
      beginCaptures: {
        1: { name: 'storage.type.annotation.allow.dotc' },
        2: { name: 'punctuation.section.parens.begin.dotc' },
      },
      endCaptures: { 0: { name: 'punctuation.section.parens.end.dotc' } },
      patterns: [
        { include: '#comments' },
        { include: '#code' },
        { include: '#string' },
        { name: 'punctuation.separator.comma.dotc', match: ',' },
      ],
    },
    date: {
      name: 'constant.numeric.date.dotc',
      match: String.raw`\b\d{4}-\d{2}-\d{2}\b`,
    },
    time: {
      name: 'constant.numeric.time.dotc',
      match: String.raw`\b\d{1,2}:\d{2}\b`,
    },
    duration: {
      match: String.raw`\b(${NUMBER})\s*(minutes|minute|mins|min|hours|hour|h)\b`,
      captures: {
        1: { name: 'constant.numeric.decimal.dotc' },
        2: { name: 'keyword.other.unit.duration.dotc' },
      },
    },
    dimensions: {
      // table 48 x 36, size 2 x 2, 48x36
      match: String.raw`\b(${NUMBER})\s*(x)\s*(${NUMBER})\b`,
      captures: {
        1: { name: 'constant.numeric.decimal.dotc' },
        2: { name: 'keyword.operator.dimension.dotc' },
        3: { name: 'constant.numeric.decimal.dotc' },
      },
    },
    target: {
      name: 'constant.numeric.target.dotc',
      match: String.raw`\b\d+\+(?![\d+])`,
    },
    signed: {
      name: 'constant.numeric.signed.dotc',
      match: String.raw`(?<![\w.)\]])[+-]\d+(?:\.\d+)?\b`,
    },
    number: {
      // Inches, counts, percentages.
      name: 'constant.numeric.decimal.dotc',
      match: String.raw`\b${NUMBER}\b`,
    },
    numbers: {
      patterns: [
        { include: '#date' },
        { include: '#time' },
        { include: '#duration' },
        { include: '#dimensions' },
        { include: '#target' },
        { include: '#signed' },
        { include: '#number' },
      ],
    },
    point: {
      // (x, y) in inches; may span lines.
      name: 'meta.point.dotc',
      begin: String.raw`\(`,
      end: String.raw`\)`,
      beginCaptures: { 0: { name: 'punctuation.section.parens.begin.dotc' } },
      endCaptures: { 0: { name: 'punctuation.section.parens.end.dotc' } },
      patterns: [
        { include: '#comments' },
        { name: 'constant.numeric.coordinate.dotc', match: String.raw`-?\b${NUMBER}\b` },
        { name: 'punctuation.separator.comma.dotc', match: ',' },
        { name: 'invalid.illegal.point.dotc', match: String.raw`[^\s,)]+` },
      ],
    },
    dice: {
      // [3, 5, 2]: faces 1-6; anything else is flagged.
      name: 'meta.dice.dotc',
      begin: String.raw`\[`,
      end: String.raw`\]`,
      beginCaptures: { 0: { name: 'punctuation.section.brackets.begin.dotc' } },
      endCaptures: { 0: { name: 'punctuation.section.brackets.end.dotc' } },
      patterns: [
        { include: '#comments' },
        { name: 'constant.numeric.die.dotc', match: String.raw`(?<![\d-])[1-6](?!\d)` },
        { name: 'invalid.illegal.die.dotc', match: String.raw`-?\d+` },
        { name: 'punctuation.separator.comma.dotc', match: ',' },
        { name: 'invalid.illegal.die.dotc', match: String.raw`[^\s,\]]+` },
      ],
    },
    'dice-label': {
      // roll [..], saves [..], discipline [..], vs [..]
      match: String.raw`\b(${IDENT})(?=\s*\[)`,
      captures: { 1: { name: 'variable.parameter.dice-label.dotc' } },
    },
    facing: {
      patterns: [
        {
          match: String.raw`\b(facing)\s+(${NUMBER})\b`,
          captures: { 1: kw('facing'), 2: { name: 'constant.numeric.degrees.dotc' } },
        },
        { match: String.raw`\b(facing)\b`, captures: { 1: kw('facing') } },
      ],
    },
    compass: {
      name: 'constant.language.compass.dotc',
      match: words(COMPASS),
    },
    'rule-data': {
      patterns: [
        { name: 'support.constant.quality.dotc', match: words(QUALITIES) },
        { name: 'support.constant.rating.dotc', match: words(RATINGS) },
        { name: 'support.constant.weapon.dotc', match: words(WEAPONS) },
        { name: 'support.constant.formation.dotc', match: words(FORMATIONS) },
        { name: 'support.constant.trait.dotc', match: words(TRAITS) },
        { name: 'support.constant.marker.dotc', match: words(MARKERS) },
        { name: 'support.constant.state.dotc', match: words(UNIT_STATES) },
        { name: 'support.type.terrain.dotc', match: words(TERRAIN_KINDS) },
        { name: 'support.constant.flag.dotc', match: words(TERRAIN_FLAGS) },
        { name: 'support.constant.module.dotc', match: words(MODULES) },
        { name: 'support.constant.rule-data.dotc', match: words(OTHER_IDS) },
      ],
    },
    operators: {
      patterns: [
        { name: 'keyword.operator.arrow.dotc', match: '=>' },
        { name: 'keyword.operator.target.dotc', match: '->' },
        { name: 'keyword.operator.comparison.dotc', match: '>=|<=|==|>|<' },
        { name: 'keyword.operator.assignment.dotc', match: '=' },
        { name: 'punctuation.separator.comma.dotc', match: ',' },
        { name: 'punctuation.terminator.statement.dotc', match: ';' },
      ],
    },
    common: {
      patterns: [
        { include: '#comments' },
        { include: '#strings' },
        { include: '#script-block' },
        { include: '#script-expr' },
        { include: '#allow' },
        { include: '#code' },
        { include: '#facing' },
        { name: 'keyword.other.at.dotc', match: String.raw`\bat\b` },
        { include: '#numbers' },
        { include: '#point' },
        { include: '#dice-label' },
        { include: '#dice' },
        { include: '#compass' },
        { include: '#rule-data' },
        { include: '#operators' },
      ],
    },
    'brace-block': {
      // A block the grammar does not know (a typo): kept balanced so the rest still highlights.
      name: 'meta.block.dotc',
      begin: String.raw`\{`,
      end: String.raw`\}`,
      beginCaptures: { 0: blockBegin },
      endCaptures: blockEnd,
      patterns: [{ include: '#brace-block' }, { include: '#common' }],
    },

    // ------------------------------------------------------------ scenario
    scenario: {
      name: 'meta.block.scenario.dotc',
      begin: String.raw`\b(scenario)\s*(${STRING})?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.scenario.dotc' },
        2: named('entity.name.type.scenario.dotc'),
        3: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [{ include: '#scenario-body' }],
    },
    'scenario-body': {
      patterns: [
        { include: '#comments' },
        {
          match: String.raw`\b(date|start|turn_length|turns|table|men_per_stand|script_limits|notes)\b`,
          name: 'keyword.other.$1.dotc',
        },
        {
          match: String.raw`\b(first_side)\b(?:\s+(${IDENT}))?`,
          captures: { 1: kw('first_side'), 2: { name: 'variable.other.side.dotc' } },
        },
        { include: '#rules' },
        { include: '#terrain' },
        { include: '#side' },
        { include: '#reinforcements' },
        { include: '#victory' },
        { include: '#library' },
        { match: String.raw`\b(script)\b`, captures: { 1: kw('script') } },
        {
          match: String.raw`\b(trigger)\b\s*(${STRING})?`,
          captures: { 1: { name: 'storage.type.trigger.dotc' }, 2: named('entity.name.trigger.dotc') },
        },
        {
          // An optional trigger's switch: `option reynolds_falls default on`.
          match: String.raw`\b(option)\b(?:\s+(${IDENT}))?(?:\s+(default)\b(?:\s+(${IDENT}))?)?`,
          captures: {
            1: kw('option'),
            2: { name: 'variable.other.option.dotc' },
            3: kw('default'),
            4: { name: 'constant.language.switch.dotc' },
          },
        },
        { match: String.raw`\b(when)\b`, captures: { 1: { name: 'keyword.control.when.dotc' } } },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    rules: {
      name: 'meta.block.rules.dotc',
      begin: String.raw`\b(rules)\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: { 1: kw('rules'), 2: blockBegin },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        {
          name: 'meta.module.dotc',
          begin: String.raw`\b(module)\b`,
          end: LINE_END,
          beginCaptures: { 1: kw('module') },
          patterns: [
            { include: '#comments' },
            { name: 'support.constant.module.dotc', match: IDENT },
            { name: 'punctuation.separator.comma.dotc', match: ',' },
          ],
        },
        {
          match: String.raw`\b(ruling)\b(?:\s+(${IDENT}))?(?:\s*(=))?(?:\s*(${IDENT}))?`,
          captures: {
            1: kw('ruling'),
            2: { name: 'variable.other.ruling.dotc' },
            3: { name: 'keyword.operator.assignment.dotc' },
            4: { name: 'constant.other.ruling-value.dotc' },
          },
        },
        {
          match: String.raw`\b(preset)\b(?:\s+(${IDENT}))?`,
          captures: { 1: kw('preset'), 2: { name: 'support.constant.preset.dotc' } },
        },
        {
          match: String.raw`\b(option)\b(?:\s+(${IDENT}))?(?:\s*(=))?(?:\s*(${IDENT}))?`,
          captures: {
            1: kw('option'),
            2: { name: 'variable.other.option.dotc' },
            3: { name: 'keyword.operator.assignment.dotc' },
            4: { name: 'constant.language.switch.dotc' },
          },
        },
        {
          name: 'meta.weather.dotc',
          begin: String.raw`\b(weather)\b`,
          end: LINE_END,
          beginCaptures: { 1: kw('weather') },
          patterns: [
            { include: '#comments' },
            {
              match: String.raw`\b(${IDENT})(?:\s+(${IDENT}))?`,
              captures: {
                1: { name: 'variable.other.weather-aspect.dotc' },
                2: { name: 'constant.other.weather-condition.dotc' },
              },
            },
            { name: 'punctuation.separator.comma.dotc', match: ',' },
          ],
        },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    terrain: {
      name: 'meta.block.terrain.dotc',
      begin: String.raw`\b(terrain)\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: { 1: kw('terrain'), 2: blockBegin },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        {
          // kind "Name"? attributes...
          name: 'meta.feature.dotc',
          begin: String.raw`${START}(${IDENT})\b\s*(${STRING})?`,
          end: LINE_END,
          beginCaptures: {
            1: { name: 'support.type.terrain.dotc' },
            2: named('entity.name.feature.dotc'),
          },
          patterns: [
            { include: '#comments' },
            {
              match: String.raw`\b(polygon|line|size|level|crest|ford|bridge|capacity|vp|within|at)\b`,
              name: 'keyword.other.$1.dotc',
            },
            { include: '#point' },
            { include: '#numbers' },
            { include: '#strings' },
            { name: 'support.constant.flag.dotc', match: IDENT },
            { include: '#operators' },
          ],
        },
        { include: '#point' },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    side: {
      name: 'meta.block.side.dotc',
      begin: String.raw`\b(side)\s+(${IDENT})(?:\s*(${STRING}))?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.side.dotc' },
        2: { name: 'entity.name.type.side.dotc' },
        3: { patterns: [{ include: '#string' }] },
        4: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        { match: String.raw`\b(edge)\b`, captures: { 1: kw('edge') } },
        {
          // commander "Name" army|corps|division RATING? at POINT?
          match: String.raw`\b(commander)\b\s*(${STRING})?(?:\s*\b(army|corps|division)\b)?(?:\s+(?!at\b)(${IDENT}))?`,
          captures: {
            1: { name: 'storage.type.commander.dotc' },
            2: named('entity.name.leader.dotc'),
            3: { name: 'support.constant.command-level.dotc' },
            4: { name: 'support.constant.rating.dotc' },
          },
        },
        {
          // blind "B1" brigade "Name" at POINT, dummy "D1" at POINT (Ch13 4.0)
          match: String.raw`\b(blind|dummy)\b\s*(${STRING})?(?:\s*\b(brigade)\b\s*(${STRING})?)?`,
          captures: {
            1: { name: 'storage.type.blind.dotc' },
            2: named('entity.name.blind.dotc'),
            3: kw('brigade'),
            4: named('entity.name.brigade.dotc'),
          },
        },
        { include: '#brigade' },
        { include: '#unit' },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    brigade: {
      name: 'meta.block.brigade.dotc',
      begin: String.raw`\b(brigade)\s*(${STRING})?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.brigade.dotc' },
        2: named('entity.name.brigade.dotc'),
        3: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        {
          // brigadier "Name" RATING? (at POINT | attached "Regiment")? (replacement "Colonel")?
          match: String.raw`\b(brigadier)\b\s*(${STRING})?(?:\s+(?!at\b|attached\b|wounded\b|replacement\b)(${IDENT}))?`,
          captures: {
            1: { name: 'storage.type.brigadier.dotc' },
            2: named('entity.name.leader.dotc'),
            3: { name: 'support.constant.rating.dotc' },
          },
        },
        { match: String.raw`\b(attached|wounded|losses)\b`, captures: { 1: kw('$1') } },
        { match: String.raw`\b(replacement)\b`, captures: { 1: kw('replacement') } },
        { include: '#unit' },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    unit: {
      name: 'meta.block.unit.dotc',
      begin: String.raw`\b(regiment|battery|cavalry)\s*(${STRING})?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.$1.dotc' },
        2: named('entity.name.unit.dotc'),
        3: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        {
          match: String.raw`\b(traits)\b((?:\s*,?\s*(?!(?:stands|men|sections|at|facing|traits|markers|holders|screen|in|lost)\b)${IDENT})*)`,
          captures: {
            1: kw('traits'),
            2: {
              patterns: [
                { name: 'support.constant.trait.dotc', match: IDENT },
                { name: 'punctuation.separator.comma.dotc', match: ',' },
              ],
            },
          },
        },
        {
          match: String.raw`\b(markers)\b((?:\s*,?\s*(?!(?:stands|men|sections|at|facing|traits|markers|holders|screen|in|lost)\b)${IDENT})*)`,
          captures: {
            1: kw('markers'),
            2: {
              patterns: [
                { name: 'support.constant.marker.dotc', match: IDENT },
                { name: 'punctuation.separator.comma.dotc', match: ',' },
              ],
            },
          },
        },
        {
          match: String.raw`\b(stands|men|sections|holders|screen|in|lost)\b`,
          name: 'keyword.other.$1.dotc',
        },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    reinforcements: {
      name: 'meta.block.reinforcements.dotc',
      begin: String.raw`\b(reinforcements)\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: { 1: kw('reinforcements'), 2: blockBegin },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        {
          // at 10:30 | turn 3, then SIDE? KIND "Name"
          match: String.raw`${START}(?:(at)\s+(\d{1,2}:\d{2})|(turn)\s+(\d+))(?:\s+(?!(?:brigade|regiment|battery|cavalry|commander)\b)(${IDENT}))?(?:\s+(brigade|regiment|battery|cavalry|commander)\b)?(?:\s*(${STRING}))?`,
          captures: {
            1: kw('at'),
            2: { name: 'constant.numeric.time.dotc' },
            3: kw('turn'),
            4: { name: 'constant.numeric.decimal.dotc' },
            5: { name: 'variable.other.side.dotc' },
            6: { name: 'storage.type.$6.dotc' },
            7: { patterns: [{ include: '#string' }] },
          },
        },
        { match: String.raw`\b(enters)\b`, captures: { 1: kw('enters') } },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    victory: {
      name: 'meta.block.victory.dotc',
      begin: String.raw`\b(victory)\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: { 1: kw('victory'), 2: blockBegin },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        {
          match: String.raw`\b(held_by|vp|broken)\b(?:\s+(${IDENT}))?`,
          captures: { 1: { name: 'keyword.other.$1.dotc' }, 2: { name: 'variable.other.side.dotc' } },
        },
        { match: String.raw`\b(objective|at_end|for|turns)\b`, name: 'keyword.other.$1.dotc' },
        {
          match: String.raw`\b(otherwise|when)\b`,
          name: 'keyword.control.$1.dotc',
        },
        {
          // => SIDE LEVEL | => draw
          name: 'meta.outcome.dotc',
          match: String.raw`(=>)\s*(?:(draw)\b|(${IDENT})(?:\s+(${IDENT}))?)`,
          captures: {
            1: { name: 'keyword.operator.outcome.dotc' },
            2: { name: 'support.constant.outcome.dotc' },
            3: { name: 'variable.other.side.dotc' },
            4: { name: 'support.constant.outcome.dotc' },
          },
        },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },

    // ------------------------------------------------------------ library
    library: {
      name: 'meta.block.library.dotc',
      begin: String.raw`\b(library)\s*(${STRING})?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.library.dotc' },
        2: named('entity.name.type.library.dotc'),
        3: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        // A `script` block of functions for scenario scripts (the fence is in #common).
        { match: String.raw`\b(script)\b(?=\s*\`\`\`)`, captures: { 1: kw('script') } },
        { include: '#entry' },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    entry: {
      // KIND ID "Display name"? { properties }
      name: 'meta.block.entry.dotc',
      begin: String.raw`${START}(${IDENT})\s+(${IDENT})\s*(${STRING})?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.entry.dotc' },
        2: { name: 'entity.name.entry.dotc' },
        3: { patterns: [{ include: '#string' }] },
        4: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [{ include: '#comments' }, { include: '#property' }, { include: '#brace-block' }, { include: '#common' }],
    },
    property: {
      // key values... ; a trailing comma continues the values on the next line.
      name: 'meta.property.dotc',
      begin: String.raw`${START}(${IDENT})\b`,
      end: LINE_END,
      beginCaptures: { 1: { name: 'support.type.property-name.dotc' } },
      patterns: [{ include: '#continuation' }, { include: '#common' }],
    },
    continuation: {
      // A comma that ends the line: the values go on. The region covers only the line break, so
      // the next line stays in the property (its first word is a value, not a key), which then
      // ends at the end of that line.
      begin: String.raw`,(?=\s*(?://.*)?$)`,
      end: '^',
      beginCaptures: { 0: { name: 'punctuation.separator.continuation.dotc' } },
      patterns: [{ include: '#comments' }],
    },

    // ------------------------------------------------------------ game log
    game: {
      name: 'meta.block.game.dotc',
      begin: String.raw`\b(game)\s*(${STRING})?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.game.dotc' },
        2: named('entity.name.type.game.dotc'),
        3: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        { match: String.raw`\b(scenario|played|seed|notes)\b`, name: 'keyword.other.$1.dotc' },
        {
          name: 'meta.players.dotc',
          begin: String.raw`\b(players)\b`,
          end: LINE_END,
          beginCaptures: { 1: kw('players') },
          patterns: [
            { include: '#comments' },
            {
              match: String.raw`\b(${IDENT})\s*(${STRING})?`,
              captures: { 1: { name: 'variable.other.side.dotc' }, 2: named('entity.name.player.dotc') },
            },
            { name: 'punctuation.separator.comma.dotc', match: ',' },
          ],
        },
        { include: '#rules' },
        { include: '#bids' },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    bids: {
      // Pre-game command bidding (Ch13 1.0): `bid SIDE CATEGORY N ...`, `scouting SIDE "Piece"
      // by (dx, dy)` or `remove`, `logistics SIDE "Battery"`.
      name: 'meta.block.bids.dotc',
      begin: String.raw`\b(bids)\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: { 1: kw('bids'), 2: blockBegin },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        {
          match: String.raw`\b(bid|scouting|logistics)\b(?:\s+(${IDENT}))?`,
          captures: { 1: { name: 'keyword.other.$1.dotc' }, 2: { name: 'variable.other.side.dotc' } },
        },
        { match: String.raw`\b(by|remove)\b`, name: 'keyword.other.$1.dotc' },
        { include: '#common' },
      ],
    },
    // ------------------------------------------------------------ campaign (Ch14)
    campaign: {
      name: 'meta.block.campaign.dotc',
      begin: String.raw`\b(campaign)\s*(${STRING})?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.campaign.dotc' },
        2: named('entity.name.type.campaign.dotc'),
        3: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        { match: String.raw`\b(notes)\b`, name: 'keyword.other.$1.dotc' },
        { include: '#rules' },
        { include: '#battle' },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    battle: {
      // `battle "Name" { scenario "x.dotc"; log "x-game.dotc"; after { field union; surgeon ... } }`
      name: 'meta.block.battle.dotc',
      begin: String.raw`\b(battle)\s*(${STRING})?\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'storage.type.battle.dotc' },
        2: named('entity.name.type.battle.dotc'),
        3: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        { match: String.raw`\b(scenario|log)\b`, name: 'keyword.other.$1.dotc' },
        { include: '#after' },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    after: {
      // The post-battle sequence (Ch14 1.0): one step a line, written as a log's action.
      name: 'meta.block.after.dotc',
      begin: String.raw`\b(after)\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: { 1: kw('after'), 2: blockBegin },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        { include: '#allow' },
        {
          name: 'meta.action.dotc',
          begin: String.raw`(?:^|(?<=[;{)]))\s*(${IDENT})\b`,
          end: LINE_END,
          beginCaptures: {
            1: {
              patterns: [
                { name: 'support.function.verb.dotc', match: words(CAMPAIGN_STEPS) },
                { name: 'entity.name.function.verb.dotc', match: IDENT },
              ],
            },
          },
          patterns: [{ include: '#action-args' }],
        },
        { include: '#common' },
      ],
    },
    turn: {
      name: 'meta.block.turn.dotc',
      begin: String.raw`\b(turn)\s+(\d+)\s+(${IDENT})\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: {
        1: { name: 'keyword.control.turn.dotc' },
        2: { name: 'constant.numeric.decimal.dotc' },
        3: { name: 'variable.other.side.dotc' },
        4: blockBegin,
      },
      endCaptures: blockEnd,
      patterns: [{ include: '#comments' }, { include: '#phase' }, { include: '#brace-block' }, { include: '#common' }],
    },
    phase: {
      name: 'meta.block.phase.dotc',
      begin: String.raw`\b(${PHASES.join('|')})\s*(\{)`,
      end: String.raw`\}`,
      beginCaptures: { 1: { name: 'keyword.control.phase.$1.dotc' }, 2: blockBegin },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        { include: '#allow' },
        { include: '#action' },
        { include: '#steps' },
        { include: '#common' },
      ],
    },
    action: {
      // @allow(...)* VERB args... (=> claim)? ({ steps })?
      name: 'meta.action.dotc',
      begin: String.raw`(?:^|(?<=[;{)]))\s*(${IDENT})\b`,
      end: LINE_END,
      beginCaptures: {
        1: {
          patterns: [
            { name: 'support.function.verb.dotc', match: words(VERBS) },
            { name: 'entity.name.function.verb.dotc', match: IDENT },
          ],
        },
      },
      patterns: [{ include: '#action-args' }],
    },
    steps: {
      name: 'meta.block.steps.dotc',
      begin: String.raw`\{`,
      end: String.raw`\}`,
      beginCaptures: { 0: blockBegin },
      endCaptures: blockEnd,
      patterns: [
        { include: '#comments' },
        { include: '#allow' },
        {
          name: 'meta.step.dotc',
          begin: String.raw`(?:^|(?<=[;{)]))\s*(${IDENT})\b`,
          end: LINE_END,
          beginCaptures: {
            1: {
              patterns: [
                { name: 'support.function.step.dotc', match: words(STEPS) },
                { name: 'entity.name.function.step.dotc', match: IDENT },
              ],
            },
          },
          patterns: [{ include: '#action-args' }],
        },
        { include: '#brace-block' },
        { include: '#common' },
      ],
    },
    'action-args': {
      patterns: [
        { include: '#comments' },
        { include: '#claim' },
        { match: String.raw`\b(to|via|pip|enters|in)\b`, name: 'keyword.other.$1.dotc' },
        { include: '#common' },
      ],
    },
    claim: {
      // => hits 4, saved 2, lost 1
      name: 'meta.claim.dotc',
      begin: '=>',
      end: String.raw`(?=[;{}]|//|/\*)|$`,
      beginCaptures: { 0: { name: 'keyword.operator.claim.dotc' } },
      patterns: [
        { include: '#signed' },
        { include: '#number' },
        { name: 'support.constant.claim.dotc', match: words(CLAIM_WORDS) },
        { name: 'variable.other.claim.dotc', match: IDENT },
        { name: 'punctuation.separator.claim.dotc', match: ',' },
      ],
    },

    // ------------------------------------------------------------ rhai (a minimal scope)
    rhai: {
      patterns: [
        {
          name: 'comment.block.rhai',
          begin: String.raw`/\*`,
          end: String.raw`\*/`,
          captures: { 0: { name: 'punctuation.definition.comment.rhai' } },
        },
        {
          name: 'comment.line.double-slash.rhai',
          begin: '//',
          end: String.raw`$|(?=\x60)`,
          beginCaptures: { 0: { name: 'punctuation.definition.comment.rhai' } },
        },
        {
          name: 'string.quoted.double.rhai',
          begin: '"',
          end: String.raw`"|$|(?=\x60)`,
          patterns: [{ name: 'constant.character.escape.rhai', match: String.raw`\\.` }],
        },
        { name: 'string.quoted.single.rhai', match: String.raw`'(?:[^'\\]|\\.)'` },
        {
          match: String.raw`\b(fn)\s+(${IDENT})`,
          captures: {
            1: { name: 'storage.type.function.rhai' },
            2: { name: 'entity.name.function.rhai' },
          },
        },
        {
          name: 'keyword.control.rhai',
          match: String.raw`\b(?:if|else|while|loop|for|in|do|until|break|continue|return|throw|try|catch|switch)\b`,
        },
        {
          name: 'storage.type.rhai',
          match: String.raw`\b(?:let|const|fn|private|global|import|export|as)\b`,
        },
        { name: 'constant.language.boolean.rhai', match: String.raw`\b(?:true|false)\b` },
        { name: 'variable.language.this.rhai', match: String.raw`\bthis\b` },
        { name: 'constant.numeric.rhai', match: String.raw`\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b` },
        { name: 'entity.name.function.call.rhai', match: String.raw`\b${IDENT}(?=\s*\()` },
        { name: 'variable.other.rhai', match: String.raw`\b${IDENT}\b` },
        {
          name: 'keyword.operator.rhai',
          match: String.raw`==|!=|>=|<=|&&|\|\||\?\?|[-+*/%<>!=&|^]=?|\.\.=?`,
        },
        { name: 'punctuation.accessor.rhai', match: String.raw`\.` },
        { name: 'punctuation.terminator.statement.rhai', match: ';' },
        { name: 'punctuation.separator.comma.rhai', match: ',' },
        { name: 'punctuation.section.braces.rhai', match: String.raw`[{}]` },
        { name: 'punctuation.section.parens.rhai', match: String.raw`[()]` },
        { name: 'punctuation.section.brackets.rhai', match: String.raw`[\[\]]` },
      ],
    },
    'rhai-template': {
      // A Rhai back-tick string inside a script block (not the block's closing fence).
      name: 'string.interpolated.rhai',
      begin: String.raw`\x60(?!\x60\x60)`,
      end: String.raw`\x60`,
      patterns: [
        {
          name: 'meta.interpolation.rhai',
          begin: String.raw`\$\{`,
          end: String.raw`\}`,
          patterns: [{ include: '#rhai' }],
        },
      ],
    },
  },
};

const json = JSON.stringify(grammar, null, 2) + '\n';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(out, 'utf8');
    } catch {
      /* missing: reported below */
    }
    if (current !== json) {
      console.error('syntaxes/dotc.tmLanguage.json is out of date: run `npm run grammar`.');
      process.exit(1);
    }
    console.log('grammar: syntaxes/dotc.tmLanguage.json is up to date');
  } else {
    writeFileSync(out, json);
    console.log(`wrote ${out}`);
  }
}
