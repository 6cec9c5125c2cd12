/**
 * A small, strict argument parser shared by every command: `--name value`, `--flag`, `--name=value`, and
 * positionals. Unknown options and bad numbers are usage errors (exit code 2, one line on stderr).
 */
import type { WasmMode } from '../worlds/wasm-mode.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface OptionSpec {
  /** 'string' | 'int' | 'number' | 'flag', or 'list': a string option that may be given many times. */
  type: 'string' | 'int' | 'number' | 'flag' | 'list';
  /** Allowed range for numbers (inclusive). */
  min?: number;
  max?: number;
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | number | boolean | string[] | undefined>;
}

/**
 * Parses `argv` against `spec`. Integers accept decimal or 0x hex; negative numbers are taken as values, not
 * options ("--x -5"), and as positionals ("query f 0 -5 0").
 */
export function parseArgs(argv: string[], spec: Record<string, OptionSpec>): ParsedArgs {
  const positionals: string[] = [];
  const options: ParsedArgs['options'] = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const s = spec[name];
      if (!s) throw new UsageError(`unknown option --${name}`);
      if (s.type === 'flag') {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        options[name] = true;
        continue;
      }
      let raw: string | undefined;
      if (eq >= 0) raw = a.slice(eq + 1);
      else {
        raw = argv[++i];
        if (raw === undefined) throw new UsageError(`--${name} needs a value`);
      }
      if (s.type === 'list') {
        const list = (options[name] as string[] | undefined) ?? [];
        if (list.length >= 256) throw new UsageError(`--${name} is given more than 256 times`);
        list.push(raw);
        options[name] = list;
      } else options[name] = s.type === 'string' ? raw : parseNumber(raw, `--${name}`, s);
      continue;
    }
    positionals.push(a);
  }
  return { positionals, options };
}

export function parseNumber(raw: string, what: string, s: { type: string; min?: number; max?: number } = { type: 'number' }): number {
  const t = raw.trim();
  let v: number;
  if (s.type === 'int') {
    if (!/^-?(0x[0-9a-fA-F]+|\d+)$/.test(t)) throw new UsageError(`${what} must be an integer, got ${JSON.stringify(raw)}`);
    v = t.startsWith('-') ? -Number(t.slice(1)) : Number(t);
    if (!Number.isSafeInteger(v)) throw new UsageError(`${what} is out of range: ${raw}`);
  } else {
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) throw new UsageError(`${what} must be a number, got ${JSON.stringify(raw)}`);
    v = Number(t);
  }
  if (s.min !== undefined && v < s.min) throw new UsageError(`${what} must be at least ${s.min}, got ${raw}`);
  if (s.max !== undefined && v > s.max) throw new UsageError(`${what} must be at most ${s.max}, got ${raw}`);
  return v;
}

/** Exactly `n` positionals, else a usage error naming them. */
export function expectPositionals(p: string[], names: string[]): string[] {
  if (p.length !== names.length) {
    throw new UsageError(`expected ${names.length} argument(s) <${names.join('> <')}>, got ${p.length}`);
  }
  return p;
}

export function intArg(raw: string, what: string): number {
  return parseNumber(raw, what, { type: 'int' });
}

export function numArg(raw: string, what: string): number {
  return parseNumber(raw, what, { type: 'number' });
}

/**
 * `--threads`: `auto` (undefined here: the command picks by its work, `autoThreads`) or an integer in 1..max.
 */
export function parseThreads(raw: string | undefined, max: number): number | undefined {
  if (raw === undefined || raw.trim() === 'auto') return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > max) throw new UsageError(`--threads must be auto or an integer in 1..${max}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * The `--wasm off|on|auto` option of the commands that walk line of sight (`WasmMode`); `auto` when absent.
 * Anything else is a usage error.
 */
export function parseWasmMode(raw: string | undefined): WasmMode {
  if (raw === undefined) return 'auto';
  if (raw === 'off' || raw === 'on' || raw === 'auto') return raw;
  throw new UsageError(`--wasm must be off, on or auto (got ${JSON.stringify(raw)})`);
}
