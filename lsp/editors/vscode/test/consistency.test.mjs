// Checks that the extension still matches the language it highlights, and that its manifest is
// sound. Run by `npm test` (node --test) before the grammar tests.
//
// The word lists of scripts/build-grammar.mjs are compared with their sources in the repository
// (lang/src/verbs.rs, lang/src/grammar.pest, lang/src/rulings.rs, lang/src/names.rs, stdlib/).
// Those checks are skipped, with a note, when the extension is built outside the repository.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as G from '../scripts/build-grammar.mjs';

const ext = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(ext, '..', '..', '..');
const inRepo = existsSync(join(repo, 'lang', 'src', 'grammar.pest'));
const skip = inRepo ? false : 'not inside the dotc repository';
const read = (...p) => readFileSync(join(...p), 'utf8');
const grammarJson = read(ext, 'syntaxes', 'dotc.tmLanguage.json');
const tests = readdirSync(join(ext, 'test', 'grammar'))
  .filter((f) => f.endsWith('.dotc'))
  .map((f) => read(ext, 'test', 'grammar', f))
  .join('\n');

const sorted = (xs) => [...new Set(xs)].sort();
const wordIn = (text, w) => new RegExp(`(?<![A-Za-z0-9_])${w}(?![A-Za-z0-9_])`).test(text);

test('the verbs and assault steps are those of lang/src/verbs.rs', { skip }, () => {
  const src = read(repo, 'lang', 'src', 'verbs.rs');
  const verbs = [...src.matchAll(/\bverb\(\s*"([a-z_]+)"/g)].map((m) => m[1]);
  const steps = [...src.matchAll(/\bstep\(\s*"([a-z_]+)"/g)].map((m) => m[1]);
  assert.ok(verbs.length > 20, 'verbs.rs parsed');
  assert.deepEqual(sorted(G.VERBS), sorted(verbs));
  assert.deepEqual(sorted(G.STEPS), sorted(steps));
});

test('every keyword of lang/src/grammar.pest is in the TextMate grammar', { skip }, () => {
  const pest = read(repo, 'lang', 'src', 'grammar.pest');
  const words = sorted([...pest.matchAll(/"([a-z_]{2,})"/g)].map((m) => m[1]));
  assert.ok(words.length > 60, 'grammar.pest parsed');
  const missing = words.filter((w) => !wordIn(grammarJson, w));
  assert.deepEqual(missing, [], `keywords missing from the TextMate grammar: ${missing.join(', ')}`);
});

test('modules, presets and compass words are those of lang/src', { skip }, () => {
  const rulings = read(repo, 'lang', 'src', 'rulings.rs');
  const block = (name) => {
    const from = name.endsWith('{') ? rulings.indexOf(`\n${name}`) : rulings.indexOf(`pub const ${name}`);
    return rulings.slice(from).split(name.endsWith('{') ? '\n}' : '];')[0];
  };
  // `modules! { CommandBidding = "command_bidding", "Ch13 1.0", NotPlayed; ... }`
  const modules = [...block('modules! {').matchAll(/=\s*"([a-z_]+)"/g)].map((m) => m[1]);
  assert.ok(modules.length > 20, 'the modules of rulings.rs parsed');
  const presets = [...block('PRESETS').matchAll(/\("([a-z_]+)"/g)].map((m) => m[1]);
  assert.deepEqual(sorted(G.MODULES), sorted(modules));
  assert.deepEqual(sorted(G.PRESETS), sorted(presets));
  const names = read(repo, 'lang', 'src', 'names.rs');
  const compass = names.slice(names.indexOf('pub const COMPASS')).split('];')[0];
  assert.deepEqual(sorted(G.COMPASS), sorted([...compass.matchAll(/\("([a-z_]+)"/g)].map((m) => m[1])));
});

test('every stdlib entry kind and id is highlighted as rule data', { skip }, () => {
  const dir = join(repo, 'stdlib');
  const known = new Set([
    ...G.QUALITIES, ...G.RATINGS, ...G.WEAPONS, ...G.FORMATIONS, ...G.TRAITS, ...G.MARKERS,
    ...G.TERRAIN_KINDS, ...G.OTHER_IDS,
  ]);
  // An id that is also a keyword of the language (the `brigadier` movement row) is highlighted
  // as the keyword.
  const pest = read(repo, 'lang', 'src', 'grammar.pest');
  for (const m of pest.matchAll(/"([a-z_]{2,})"/g)) known.add(m[1]);
  const kinds = new Set();
  const missing = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.dotc'))) {
    for (const m of read(dir, f).matchAll(/^\s*([a-z_]+)\s+([a-z_0-9]+)(?:\s+"[^"]*")?\s*\{/gm)) {
      if (m[1] === 'library') continue;
      kinds.add(m[1]);
      if (!known.has(m[2])) missing.push(`${m[1]} ${m[2]}`);
    }
  }
  assert.deepEqual(missing, [], `stdlib ids missing from the word lists: ${missing.join(', ')}`);
  assert.deepEqual(sorted(G.ENTRY_KINDS), sorted(kinds));
});

test('the grammar tests use every verb, step, phase and compass word', () => {
  const missing = [...G.VERBS, ...G.STEPS, ...G.PHASES, 'north_north_east'].filter((w) => !wordIn(tests, w));
  assert.deepEqual(missing, []);
});

test('the manifest points at files that exist and parse', () => {
  const pkg = JSON.parse(read(ext, 'package.json'));
  assert.equal(pkg.name, 'dotc');
  assert.ok(pkg.engines.vscode.startsWith('^1.'));
  const lang = pkg.contributes.languages.find((l) => l.id === 'dotc');
  assert.deepEqual(lang.extensions, ['.dotc']);
  const paths = [
    lang.configuration,
    ...pkg.contributes.grammars.map((g) => g.path),
    ...pkg.contributes.snippets.map((s) => s.path),
  ];
  for (const p of paths) JSON.parse(read(ext, p));
  const grammar = JSON.parse(grammarJson);
  assert.equal(grammar.scopeName, pkg.contributes.grammars[0].scopeName);
  // Every `#name` include resolves.
  const includes = [...grammarJson.matchAll(/"include": "#([^"]+)"/g)].map((m) => m[1]);
  for (const name of includes) assert.ok(grammar.repository[name], `#${name} is defined`);
  const settings = pkg.contributes.configuration.properties;
  assert.equal(settings['dotc.server.path'].default, 'dotc');
  assert.deepEqual(settings['dotc.server.extraArgs'].default, []);
  const commands = pkg.contributes.commands.map((c) => c.command);
  assert.ok(commands.includes('dotc.restartServer'));
});

test('the language configuration has the comments, brackets and pairs of the language', () => {
  const conf = JSON.parse(read(ext, 'language-configuration.json'));
  assert.equal(conf.comments.lineComment, '//');
  assert.deepEqual(conf.comments.blockComment, ['/*', '*/']);
  const opens = conf.autoClosingPairs.map((p) => p.open);
  for (const o of ['{', '[', '(', '"', '`']) assert.ok(opens.includes(o), `auto-closes ${o}`);
  const start = new RegExp(conf.folding.markers.start);
  const end = new RegExp(conf.folding.markers.end);
  assert.ok(start.test('    brigade "Iron Brigade" {'));
  assert.ok(start.test('turn 1 union {  // the first turn'));
  assert.ok(!start.test('    regiment "X" { stands 5 }'));
  assert.ok(end.test('    }'));
});

test('each snippet has a prefix, a body and a description, and prefixes are unique', () => {
  const snippets = JSON.parse(read(ext, 'snippets', 'dotc.json'));
  const prefixes = new Set();
  for (const [name, s] of Object.entries(snippets)) {
    assert.ok(s.prefix && s.body && s.description, name);
    for (const p of [s.prefix].flat()) {
      assert.ok(!prefixes.has(p), `duplicate prefix ${p}`);
      prefixes.add(p);
    }
    const body = [s.body].flat().join('\n');
    // Braces balance once placeholders are filled in.
    const filled = body.replace(/\$\{\d+(?::[^}|]*)?\}|\$\{\d+\|[^|]*\|\}|\$\d+/g, 'X');
    const count = (c) => filled.split(c).length - 1;
    assert.equal(count('{'), count('}'), `${name}: braces balance`);
  }
  const required = [
    'scenario', 'side', 'brigade', 'regiment', 'battery', 'cavalry', 'terrain', 'reinforcement',
    'victory', 'game', 'turn', 'fire', 'move', 'assault', 'trigger',
  ];
  for (const p of required) assert.ok(prefixes.has(p), `a snippet for ${p}`);
});
