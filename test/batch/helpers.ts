/**
 * Shared by the batch tests: the CLI run as a child process (async, so workers can run beside it), a real
 * redis-server on a free loopback port with no persistence, worker processes, and waiting on conditions
 * (never on time alone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../cli/run-cli.js';

export { repoRoot };

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface Proc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number>;
}

const live = new Set<ChildProcess>();

/** Starts `node bin/retrosim.js ...args` in the repository; its output is collected. */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  return cliOf(repoRoot, args, env);
}

/** Starts `node <root>/bin/retrosim.js ...args` with `root` as its folder: the runtime copied there (copyRuntime). */
export function cliOf(root: string, args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  const child = spawn(process.execPath, [join(root, 'bin/retrosim.js'), ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  // 'close', not 'exit': a process's last output can still be in its pipes when it has exited.
  const exited = new Promise<number>((resolve) => {
    child.on('exit', () => live.delete(child));
    child.on('close', (code, signal) => {
      resolve(code ?? (signal === 'SIGKILL' ? 137 : signal === 'SIGTERM' ? 143 : -1));
    });
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs the CLI to the end: exit code and output. */
export async function runCliAsync(args: string[], timeoutMs = 600_000): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = cli(args);
  const t = setTimeout(() => p.child.kill('SIGKILL'), timeoutMs);
  const code = await p.exited;
  clearTimeout(t);
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** Polls `cond` until it holds (every `everyMs`), failing after a generous `timeoutMs` with `what`. */
export async function waitFor<T>(what: string, cond: () => T | Promise<T>, timeoutMs = 300_000, everyMs = 25): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Kills every process a test started that is still running (afterAll). */
export async function killAll(): Promise<void> {
  const waits = [...live].map((c) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : (c.once('exit', () => r()), c.kill('SIGKILL')))));
  await Promise.all(waits);
}

/** A port nothing listens on now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

export interface RedisServer {
  port: number;
  url: string;
  child: ChildProcess;
  /** Stops the server (SIGKILL: it keeps nothing anyway) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts Debian's redis-server on `port` (a free one by default), loopback only, no persistence. */
export async function startRedis(port?: number): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} is not installed: apt-get install redis-server (the tests start their own server)`);
  for (let attempt = 0; ; attempt++) {
    const p = port ?? (await freePort());
    const child = spawn(REDIS_SERVER, ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let log = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d));
    const exited = new Promise<void>((r) => child.on('exit', () => (live.delete(child), r())));
    const ready = await Promise.race([
      waitFor('redis-server to accept connections', () => /Ready to accept connections/.test(log), 30_000).then(() => true),
      exited.then(() => false),
    ]);
    if (ready) {
      return {
        port: p,
        url: `redis://127.0.0.1:${p}`,
        child,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      };
    }
    if (port !== undefined || attempt >= 5) throw new Error(`redis-server did not start on port ${p}: ${log.slice(-500)}`);
  }
}

/** Writes a batch file (JSON) into `dir`, returning its path. */
export function writeBatch(dir: string, name: string, batch: unknown): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(batch, null, 1));
  return path;
}

/**
 * A copy of the built runtime in `dir` (its dist/src, bin and package.json; node_modules and assets linked to
 * the repository's), with `patch` applied to the copy's folder: a worker of other code that still says the
 * same version.
 */
export function copyRuntime(dir: string, patch: (root: string) => void): string {
  mkdirSync(join(dir, 'dist'), { recursive: true });
  cpSync(join(repoRoot, 'dist', 'src'), join(dir, 'dist', 'src'), { recursive: true });
  cpSync(join(repoRoot, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(repoRoot, 'assets'), join(dir, 'assets'));
  patch(dir);
  return dir;
}
