// The extension's lookup of the dotc executable (src/executable.ts, compiled by `npm test`): a
// missing one is found missing before the client starts, so the user is told once (issue 21).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { findExecutable, missingMessage } = require('../out/executable.js');

function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'dotc-ext-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'dotc'), '#!/bin/sh\n');
  chmodSync(join(bin, 'dotc'), 0o755);
  writeFileSync(join(bin, 'not-executable'), 'text');
  chmodSync(join(bin, 'not-executable'), 0o644);
  return { dir, bin };
}

test('a bare name is found on PATH, as the system finds it', () => {
  const { bin } = folder();
  assert.equal(findExecutable('dotc', { PATH: `/nowhere:${bin}` }, 'linux'), join(bin, 'dotc'));
  assert.equal(findExecutable('dotc', { PATH: '/nowhere' }, 'linux'), undefined);
  assert.equal(findExecutable('dotc', {}, 'linux'), undefined);
});

test('a path is taken as it is; a file that is not executable, or a folder, is not a server', () => {
  const { dir, bin } = folder();
  assert.equal(findExecutable(join(bin, 'dotc'), { PATH: '' }, 'linux'), join(bin, 'dotc'));
  assert.equal(findExecutable(join(bin, 'not-executable'), { PATH: '' }, 'linux'), undefined);
  assert.equal(findExecutable('not-executable', { PATH: bin }, 'linux'), undefined);
  assert.equal(findExecutable(bin, { PATH: '' }, 'linux'), undefined);
  assert.equal(findExecutable(join(dir, 'missing', 'dotc'), { PATH: bin }, 'linux'), undefined);
});

test('the one message names what was looked for and the setting that fixes it', () => {
  const text = missingMessage('target/debug/dotc', '/work/target/debug/dotc');
  assert.match(text, /`target\/debug\/dotc` \(\/work\/target\/debug\/dotc\)/);
  assert.match(text, /set dotc\.server\.path/);
  assert.equal(missingMessage('dotc', 'dotc').includes('(dotc)'), false);
});
