/**
 * Bun (JavaScriptCore), the fourth engine of the determinism tests: finding the devDependency's binary and
 * running it shut in. Bun is required, not optional: a missing or broken binary fails with what to do.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The platform packages of the `bun` npm package, by Node's platform and architecture (its postinstall's table). */
const PLATFORM_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  'linux-x64': ['bun-linux-x64', 'bun-linux-x64-baseline', 'bun-linux-x64-musl', 'bun-linux-x64-musl-baseline'],
  'linux-arm64': ['bun-linux-aarch64', 'bun-linux-aarch64-musl'],
  'android-x64': ['bun-linux-x64-android'],
  'android-arm64': ['bun-linux-aarch64-android'],
  'darwin-x64': ['bun-darwin-x64', 'bun-darwin-x64-baseline'],
  'darwin-arm64': ['bun-darwin-aarch64'],
  'freebsd-x64': ['bun-freebsd-x64'],
  'freebsd-arm64': ['bun-freebsd-aarch64'],
  'win32-x64': ['bun-windows-x64', 'bun-windows-x64-baseline'],
  'win32-arm64': ['bun-windows-aarch64'],
};

/** The version package.json pins (a devDependency): the one the tests must run. */
export function pinnedBunVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const v = pkg.devDependencies?.['bun'];
  if (!v || !/^\d+\.\d+\.\d+$/.test(v)) throw new Error(`package.json: devDependencies.bun should pin an exact version, not ${JSON.stringify(v)}`);
  return v;
}

/** Where the binary may be: the link npm makes (the postinstall's target), else the platform package's own. */
export function bunCandidates(platform: string = process.platform, arch: string = process.arch): string[] {
  const exe = platform === 'win32' ? 'bun.exe' : 'bun';
  const nm = join(ROOT, 'node_modules');
  return [
    join(nm, '.bin', exe),
    join(nm, 'bun', 'bin', 'bun.exe'),
    ...(PLATFORM_PACKAGES[`${platform}-${arch}`] ?? []).map((p) => join(nm, '@oven', p, 'bin', exe)),
  ];
}

/** The Bun binary and its version. */
export interface BunBinary {
  path: string;
  version: string;
}

/**
 * The first candidate that runs and reports the pinned version. Throws, naming each candidate and what was
 * wrong with it, and saying to run `npm ci`, when none does.
 */
export function findBun(candidates: readonly string[] = bunCandidates()): BunBinary {
  const want = pinnedBunVersion();
  const tried: string[] = [];
  for (const path of candidates) {
    if (!existsSync(path)) {
      tried.push(`${path}: missing`);
      continue;
    }
    const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env['PATH'] ?? '' } });
    const got = (r.stdout ?? '').trim();
    if (r.error || r.status !== 0) tried.push(`${path}: does not run (${r.error?.message ?? `exit ${r.status}${r.signal ? `, ${r.signal}` : ''}: ${(r.stderr ?? '').trim().split('\n')[0]}`})`);
    else if (got !== want) tried.push(`${path}: version ${JSON.stringify(got)}, package.json pins ${want}`);
    else return { path, version: got };
  }
  throw new Error(
    `bun ${want} (a devDependency: the fourth engine of the determinism tests) is not usable; run \`npm ci\` with install scripts allowed (bun's postinstall puts its binary in place). Tried:\n  ${tried.join('\n  ')}`,
  );
}

/** What a run of Bun gave. */
export interface BunRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bun <args>` shut in: no auto-install (`--no-install`; and should it try anyway, the registry is a
 * closed local port), no .env file read, HOME, caches and TMPDIR in `home` (a temporary folder), an
 * environment of its own (nothing of the caller's but PATH), no telemetry or crash reports. Resolves when
 * it exits (a hang is killed after `timeoutMs`, a net, not a speed check).
 */
export function runBun(bun: BunBinary, args: readonly string[], opts: { cwd: string; home: string; timeoutMs?: number }): Promise<BunRun> {
  const tmp = join(opts.home, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const closed = 'http://127.0.0.1:9/';
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: opts.home,
    USERPROFILE: opts.home,
    TMPDIR: tmp,
    XDG_CACHE_HOME: join(opts.home, '.cache'),
    XDG_CONFIG_HOME: join(opts.home, '.config'),
    BUN_INSTALL: join(opts.home, '.bun'),
    BUN_INSTALL_CACHE_DIR: join(opts.home, 'install-cache'),
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0',
    BUN_CONFIG_REGISTRY: closed,
    NPM_CONFIG_REGISTRY: closed,
    DO_NOT_TRACK: '1',
    BUN_ENABLE_CRASH_REPORTING: '0',
    NO_COLOR: '1',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(bun.path, ['--no-install', '--no-env-file', ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 600_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`bun ${args.join(' ')}: ${e.message} (run \`npm ci\`)`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
