// Finding the dotc executable before the client starts it, so that a missing one is reported
// once, by the extension, with the setting that fixes it (issue 21). Without this check,
// vscode-languageclient reports the failed start itself as well, and the user sees two messages.
// Kept free of the `vscode` module so that `npm test` can run it under plain Node.

import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The file a command runs: a path with a directory part as it is, a bare name looked up on
 * `PATH` (with `PATHEXT` on Windows), as the system would. Undefined when there is no such
 * executable file.
 */
export function findExecutable(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const windows = platform === 'win32';
  const hasDir = command.includes('/') || (windows && command.includes('\\'));
  const extensions = windows
    ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e.length > 0)]
    : [''];
  const candidates = hasDir
    ? extensions.map((e) => command + e)
    : (env.PATH ?? '')
        .split(windows ? ';' : ':')
        .filter((dir) => dir.length > 0)
        .flatMap((dir) => extensions.map((e) => path.join(dir, command + e)));
  return candidates.find(isExecutableFile);
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The one message for a dotc that cannot be found, naming what was looked for and the fix. */
export function missingMessage(setting: string, resolved: string): string {
  const where = setting === resolved ? `\`${setting}\`` : `\`${setting}\` (${resolved})`;
  return (
    `The dotc language server was not found: no executable ${where} on this machine. ` +
    'Install dotc (cargo install --path . in its repository) or set dotc.server.path to the dotc executable.'
  );
}
