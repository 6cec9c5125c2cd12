import { UsageError } from './args.js';
import type { Command } from './command.js';
import { FormatError } from '../binary/format-error.js';

/**
 * The `retrosim` command. Each subcommand lives in its own module under ./commands and is loaded only when
 * used, so `retrosim rng` never pays for the field generator or the replay code.
 */
const COMMANDS = ['run', 'rng', 'replay', 'world', 'rugrats', 'llama', 'colbin', 'col', 'field', 'ambient', 'los', 'batch', 'worker', 'bench'];

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

export async function main(argv: string[]): Promise<number> {
  ignoreClosedPipe();
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write((await help()) + '\n');
      return 0;
    }
    if (name === '--version') {
      process.stdout.write('retrosim 0.1.0\n');
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
    if (e instanceof UsageError) {
      process.stderr.write(`retrosim: ${e.message}\n`);
      return 2;
    }
    if (e instanceof FormatError) {
      process.stderr.write(`retrosim: ${e.message}\n`);
      return 1;
    }
    if (e instanceof RangeError || e instanceof TypeError) {
      process.stderr.write(`retrosim: internal error: ${(e as Error).stack ?? e}\n`);
      return 70;
    }
    process.stderr.write(`retrosim: ${(e as Error).message ?? e}\n`);
    return 1;
  }
}
