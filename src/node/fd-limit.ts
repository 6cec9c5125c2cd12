/**
 * This process's limit of open descriptors (RLIMIT_NOFILE), read from /proc/self/limits. Node itself raises
 * its soft limit to the hard one when it starts (on Linux and macOS): a relay started under `ulimit -Sn 256`
 * runs with the hard limit as its soft one, so there is nothing left to raise; what the relay can do is size
 * its connections to the limit it has (relay-limits.ts). Where the limits cannot be read (no /proc), null.
 */
import { readFileSync } from 'node:fs';

/** The soft and hard limits of open descriptors. */
export interface DescriptorLimits {
  soft: number;
  hard: number;
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
  return { soft: parse(m[1]!), hard: parse(m[2]!) };
}
