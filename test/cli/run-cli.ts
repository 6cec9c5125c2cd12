import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root, resolved from this file (test/cli/). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** How long a spawned process may run before it is taken for a hung one: a net, generous for a loaded machine. */
export const PROCESS_TIMEOUT_MS = 900_000;

/** Runs the built `retrosim` CLI (npm test builds first) and returns its exit code and output. */
export function runCli(args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/retrosim.js', ...args], { cwd: repoRoot, encoding: 'utf8', input, timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
