import { UsageError } from './args.js';
import type { Command } from './command.js';
import { FormatError } from '../binary/format-error.js';
import { ScenarioError } from '../sim/scenario.js';
import { ParamError } from '../sim/params.js';
import { PACKAGE_VERSION } from '../version.js';

/**
 * The `retrosim` command. Each subcommand lives in its own module under ./commands and is loaded only when
 * used, so `retrosim rng` never pays for the field generator or the replay code.
 */
const COMMANDS = ['run', 'rng', 'replay', 'world', 'rugrats', 'llama', 'colbin', 'col', 'field', 'ambient', 'los', 'nav', 'batch', 'worker', 'relay', 'netplay', 'bench'];

async function loadCommand(name: string): Promise<Command | undefined> {
  if (!COMMANDS.includes(name)) return undefined;
  try {
    const mod = (await import(`./commands/${name}.js`)) as { command: Command };
    return mod.command;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String((e as Error).message).includes(`commands/${name}.js`)) {
      return undefined;
    }
    throw e;
  }
}

async function help(): Promise<string> {
  const lines = [
    'retrosim: a deterministic game-simulation runtime for retro collision worlds',
    '',
    'usage: retrosim <command> [arguments] [--json]',
    '',
    'commands:',
  ];
  for (const name of COMMANDS) {
    const c = await loadCommand(name);
    if (c) lines.push(`  ${name.padEnd(9)} ${c.summary}`);
  }
  lines.push('', 'Run `retrosim <command> --help` for a command\'s arguments. Machine output: --json.');
  return lines.join('\n');
}

/** A reader that closes the pipe early (`retrosim replay export F | head`) is not an error: stop quietly. */
function ignoreClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

/** What a failing command reports: a kind, a message, and the file and byte offset when known. */
export interface CliError {
  /** "usage" (exit 2), "format" (bad bytes in a file), "scenario" (a scenario module or its parameters),
   * "input" (any other refused input), or "internal" (a fault in retrosim itself, exit 70). */
  kind: 'usage' | 'format' | 'scenario' | 'input' | 'internal';
  message: string;
  file: string | null;
  offset: number | null;
}

/** The exit code and report of an error thrown by a command. */
export function describeError(e: unknown): { code: number; error: CliError; line: string } {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof UsageError) return { code: 2, error: { kind: 'usage', message, file: null, offset: null }, line: message };
  if (e instanceof FormatError) {
    const file = e.file ?? null;
    const line = file !== null && !message.includes(file) ? `${file}: ${message}` : message;
    const kind = e.format.startsWith('scenario') ? 'scenario' : 'format';
    return { code: 1, error: { kind, message, file, offset: e.offset >= 0 ? e.offset : null }, line };
  }
  if (e instanceof ScenarioError || e instanceof ParamError) return { code: 1, error: { kind: 'scenario', message, file: null, offset: null }, line: message };
  if (e instanceof RangeError || e instanceof TypeError) {
    return { code: 70, error: { kind: 'internal', message, file: null, offset: null }, line: `internal error: ${(e as Error).stack ?? message}` };
  }
  return { code: 1, error: { kind: 'input', message, file: null, offset: null }, line: message };
}

/** True when the arguments ask for JSON (before any "--", after which everything is a positional). */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

export async function main(argv: string[]): Promise<number> {
  ignoreClosedPipe();
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write((await help()) + '\n');
      return 0;
    }
    if (name === '--version') {
      process.stdout.write(`retrosim ${PACKAGE_VERSION}\n`); // as RUNTIME_VERSION, without loading the replay code
      return 0;
    }
    const cmd = await loadCommand(name);
    if (!cmd) throw new UsageError(`unknown command ${JSON.stringify(name)} (see retrosim --help)`);
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(cmd.usage.trimEnd() + '\n');
      return 0;
    }
    return await cmd.run(rest);
  } catch (e) {
    // One line on stderr always; with --json also one line of JSON on stdout, so scripts can parse failures.
    const { code, error, line } = describeError(e);
    process.stderr.write(`retrosim: ${line}\n`);
    if (wantsJson(argv)) process.stdout.write(JSON.stringify({ error }) + '\n');
    return code;
  }
}
