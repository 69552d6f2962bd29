// The extension is bundled as vsce asks (issue 21): esbuild writes the client and
// vscode-languageclient into one out/extension.js (`npm run bundle`, run by `npm test` and by
// vscode:prepublish), which needs nothing at run time but Node's own modules and `vscode`; the
// .vsix then packs no node_modules and no sources.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ext = join(dirname(fileURLToPath(import.meta.url)), '..');

test('the bundle requires only Node modules and vscode', () => {
  const bundle = readFileSync(join(ext, 'out', 'extension.js'), 'utf8');
  const required = [...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
  assert.ok(required.includes('vscode'), 'the bundle uses vscode');
  const allowed = new Set(['vscode', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  const outside = [...new Set(required.filter((r) => !allowed.has(r)))];
  assert.deepEqual(outside, [], 'modules the bundle would load from node_modules');
  assert.match(bundle, /findExecutable|not found/, 'the executable check is in the bundle');
});

test('the package holds the bundle, the grammar and the manifest, and no node_modules or sources', () => {
  const vsce = join(ext, 'node_modules', '.bin', 'vsce');
  const files = execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: ext, encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.length > 0);
  for (const want of ['package.json', 'out/extension.js', 'syntaxes/dotc.tmLanguage.json', 'snippets/dotc.json']) {
    assert.ok(files.includes(want), `${want} is not packed: ${files}`);
  }
  const stray = files.filter((f) => f.startsWith('node_modules/') || f.startsWith('src/') || f.endsWith('.map') || f === 'out/executable.js');
  assert.deepEqual(stray, []);
});
