// Tokenizes every shipped .dotc file of the repository (scenarios/ and stdlib/) with the grammar,
// as VS Code does, and checks that each file ends back at the top level (every block the grammar
// opened was closed) and that nothing in a clean file is marked invalid.
// Skipped when the extension is built outside the repository.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const vt = require('vscode-textmate');
const onig = require('vscode-oniguruma');

const ext = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(ext, '..', '..', '..');
const dirs = ['scenarios', 'stdlib'].map((d) => join(repo, d)).filter(existsSync);

function dotcFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? dotcFiles(join(dir, e.name)) : e.name.endsWith('.dotc') ? [join(dir, e.name)] : [],
  );
}

async function loadGrammar() {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await onig.loadWASM(wasm);
  const registry = new vt.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new onig.OnigScanner(patterns),
      createOnigString: (s) => new onig.OnigString(s),
    }),
    loadGrammar: async () =>
      vt.parseRawGrammar(readFileSync(join(ext, 'syntaxes', 'dotc.tmLanguage.json'), 'utf8'), 'dotc.tmLanguage.json'),
  });
  return registry.loadGrammar('source.dotc');
}

const files = dirs.flatMap(dotcFiles);

test('the shipped .dotc files tokenize back to the top level, with nothing invalid', {
  skip: files.length ? false : 'no scenarios/ or stdlib/ next to the extension',
}, async () => {
  const grammar = await loadGrammar();
  for (const file of files) {
    let stack = vt.INITIAL;
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    lines.forEach((line, i) => {
      const { tokens, ruleStack } = grammar.tokenizeLine(line, stack);
      stack = ruleStack;
      for (const t of tokens) {
        const bad = t.scopes.find((s) => s.startsWith('invalid.'));
        assert.equal(bad, undefined, `${file}:${i + 1}:${t.startIndex + 1}: ${bad}`);
      }
    });
    assert.equal(stack.depth, 1, `${file}: a block is still open at the end of the file`);
  }
});
