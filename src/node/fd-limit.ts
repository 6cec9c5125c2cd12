/**
 * This process's limit of open descriptors (RLIMIT_NOFILE): read from /proc/self/limits, and raised from the
 * soft limit to the hard one. Node has no call for setrlimit; on Linux the util-linux `prlimit` tool sets
 * another process's limits, and a process of the same user may raise its own soft limit up to the hard
 * one, so the relay runs `prlimit --pid <its own pid> --nofile=HARD:HARD` once at start. Elsewhere (no /proc,
 * no prlimit) the limits stay as they are and are reported as unknown or unchanged.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The soft and hard limits of open descriptors; null when they cannot be read. */
export interface DescriptorLimits {
  soft: number;
  hard: number;
}

/** What raising the limit did. */
export interface DescriptorRaise {
  /** The limits before. */
  before: DescriptorLimits | null;
  /** The limits after (the same as before when nothing changed). */
  after: DescriptorLimits | null;
  /** Why it was not raised, when it was not and it was below the hard limit (no /proc, no prlimit, refused). */
  failure: string | null;
}

const parse = (v: string): number => (v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v));

/** This process's descriptor limits, from /proc/self/limits; null where there is no such file. */
export function descriptorLimits(): DescriptorLimits | null {
  let text: string;
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  const m = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(text);
  if (!m) return null;
  const soft = parse(m[1]!);
  const hard = parse(m[2]!);
  return Number.isFinite(soft) || Number.isFinite(hard) ? { soft, hard } : null;
}

/** Raises this process's soft descriptor limit to its hard limit (see the module comment). */
export function raiseDescriptorLimit(): DescriptorRaise {
  const before = descriptorLimits();
  if (!before) return { before, after: before, failure: 'the limits cannot be read here (no /proc/self/limits)' };
  if (before.soft >= before.hard || !Number.isFinite(before.hard)) return { before, after: before, failure: null };
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${before.hard}:${before.hard}`], { stdio: 'ignore', timeout: 10_000 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { before, after: descriptorLimits(), failure: code === 'ENOENT' ? 'the prlimit tool is not installed (util-linux)' : `prlimit failed: ${(e as Error).message.split('\n')[0]}` };
  }
  const after = descriptorLimits();
  return { before, after, failure: after && after.soft >= before.hard ? null : 'prlimit left the soft limit as it was' };
}
