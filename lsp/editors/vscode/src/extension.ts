// The dotc extension's client: starts `dotc lsp` on stdio and connects VS Code to it.
//
// Settings (package.json `contributes.configuration`):
//   dotc.server.path       the dotc executable (default `dotc`, looked up on PATH)
//   dotc.server.extraArgs  arguments added after `lsp`
//   dotc.trace.server      protocol tracing (read by vscode-languageclient itself)
// Commands: `dotc: Restart Language Server`, `dotc: Show Language Server Output`.

import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  Executable,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { findExecutable, missingMessage } from './executable';

const CLIENT_ID = 'dotc';
const CLIENT_NAME = 'dotc Language Server';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let traceOutput: vscode.OutputChannel;
let status: vscode.LanguageStatusItem;
/** Serialises start, stop and restart so that quick repeated commands do not overlap. */
let pending: Promise<void> = Promise.resolve();

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel(CLIENT_NAME);
  traceOutput = vscode.window.createOutputChannel(`${CLIENT_NAME} Trace`);
  status = vscode.languages.createLanguageStatusItem('dotc.server', { language: 'dotc' });
  status.name = CLIENT_NAME;
  status.command = { title: 'Restart', command: 'dotc.restartServer' };
  context.subscriptions.push(output, traceOutput, status);

  context.subscriptions.push(
    vscode.commands.registerCommand('dotc.restartServer', () => queue(restart)),
    vscode.commands.registerCommand('dotc.showOutput', () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('dotc.server')) {
        output.appendLine('dotc.server settings changed: restarting the server.');
        void queue(restart);
      }
    }),
  );

  await queue(start);
}

export async function deactivate(): Promise<void> {
  await queue(stop);
}

function queue(task: () => Promise<void>): Promise<void> {
  pending = pending.then(task, task);
  return pending;
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop(2000);
    } catch (error) {
      output.appendLine(`Stopping the server failed: ${message(error)}`);
    }
    await running.dispose();
  }
}

async function start(): Promise<void> {
  const config = vscode.workspace.getConfiguration('dotc');
  const setting = config.get<string>('server.path') || 'dotc';
  const command = resolveServerPath(setting);
  const extraArgs = config.get<string[]>('server.extraArgs') ?? [];
  const args = ['lsp', ...extraArgs.map(String)];

  // A missing executable is said once, here, with the setting that fixes it; the client is not
  // started, so it does not report the failed start a second time.
  if (!findExecutable(command)) {
    const text = missingMessage(setting, command);
    output.appendLine(text);
    setStatus('Not found', vscode.LanguageStatusSeverity.Error, false);
    status.detail = 'Set dotc.server.path to the dotc executable';
    offerFix(text);
    return;
  }

  // No `transport`: the server speaks LSP on its stdin and stdout as started, and
  // vscode-languageclient would otherwise append `--stdio` to the arguments.
  const executable: Executable = {
    command,
    args,
    options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, env: process.env },
  };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'dotc' },
      { scheme: 'untitled', language: 'dotc' },
    ],
    synchronize: {
      // A game log depends on its scenario, a scenario on its libraries: tell the server.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.dotc'),
    },
    initializationOptions: {
      maxAuditFindings: config.get<number>('audit.maxFindingsShown') ?? 1000,
    },
    outputChannel: output,
    traceOutputChannel: traceOutput,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  };

  const next = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  next.onDidChangeState((event) => {
    if (client === next) showState(event.newState, command);
  });
  client = next;
  setStatus('Starting…', vscode.LanguageStatusSeverity.Information, true);
  output.appendLine(`Starting ${command} ${args.join(' ')}`);
  try {
    await next.start();
  } catch (error) {
    if (client === next) client = undefined;
    const text = `Could not start the dotc language server (${command} ${args.join(' ')}): ${message(error)}`;
    output.appendLine(text);
    setStatus('Not running', vscode.LanguageStatusSeverity.Error, false);
    status.detail = 'Set dotc.server.path to the dotc executable';
    // vscode-languageclient has shown its own notification of the failed start: not a second.
    try {
      await next.dispose();
    } catch {
      /* already stopped */
    }
  }
}

/** The error notification with its two ways out: the settings, or the server's output. */
function offerFix(text: string): void {
  void vscode.window.showErrorMessage(text, 'Open Settings', 'Show Output').then((choice) => {
    if (choice === 'Open Settings') {
      void vscode.commands.executeCommand('workbench.action.openSettings', 'dotc.server');
    } else if (choice === 'Show Output') {
      output.show(true);
    }
  });
}

function showState(state: State, command: string): void {
  switch (state) {
    case State.Running: {
      const version = client?.initializeResult?.serverInfo?.version;
      setStatus(version ? `dotc ${version}` : 'dotc', vscode.LanguageStatusSeverity.Information, false);
      status.detail = command;
      break;
    }
    case State.Starting:
      setStatus('Starting…', vscode.LanguageStatusSeverity.Information, true);
      break;
    case State.Stopped:
      setStatus('Stopped', vscode.LanguageStatusSeverity.Warning, false);
      status.detail = 'Click Restart to start it again';
      break;
  }
}

function setStatus(text: string, severity: vscode.LanguageStatusSeverity, busy: boolean): void {
  status.text = text;
  status.severity = severity;
  status.busy = busy;
}

/**
 * `~` and `${workspaceFolder}` are expanded; a relative path with a directory part
 * (`target/debug/dotc`) is taken from the first workspace folder; a bare name is left for the
 * system to find on PATH.
 */
export function resolveServerPath(setting: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let p = setting.trim();
  if (folder) p = p.replace(/\$\{workspaceFolder\}/g, folder);
  p = p.replace(/\$\{userHome\}/g, os.homedir());
  if (p === '~' || p.startsWith('~/')) p = path.join(os.homedir(), p.slice(1));
  const hasDir = p.includes('/') || (process.platform === 'win32' && p.includes('\\'));
  if (hasDir && !path.isAbsolute(p) && folder) p = path.join(folder, p);
  return p;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
