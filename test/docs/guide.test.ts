/**
 * docs/guide.md and the README cannot rot. The guide is whole programs: each ```js block is saved as the file
 * its `<!-- file: NAME -->` marker names and is examples/guide/NAME byte for byte; every file of
 * examples/guide/ is shown. Then both pages run here, on the built package (a folder inside the repository,
 * so that 'retrosim' resolves to it), by the conventions of ./snippets.ts: every program and every command of
 * a run block works, and prints what the page says it prints. test/package/snippets.test.ts runs them again
 * in a project that installed the packed tarball.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';
import { expectPageRuns, pageSteps, parseBlocks, runPage, spawnRunner } from './snippets.js';

const guide = readFileSync(join(repoRoot, 'docs/guide.md'), 'utf8');
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

// Folders of this run's own inside the repository: another run of the suite must not write into them.
mkdirSync(join(repoRoot, 'out'), { recursive: true });
const tmp = mkdtempSync(join(repoRoot, 'out', 'pages-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const runner = spawnRunner((args, cwd) => {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/retrosim.js'), ...args], { cwd, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}, PROCESS_TIMEOUT_MS);

describe('docs/guide.md', () => {
  it('shows whole programs: each is the example file it names, and every file of examples/guide/ is shown', () => {
    const blocks = parseBlocks(guide);
    const programs = blocks.filter((b) => b.lang === 'js' || b.lang === 'mjs');
    expect(programs.length).toBeGreaterThanOrEqual(8);
    for (const b of programs) {
      expect(b.file, `docs/guide.md:${b.line}: a program names its file`).toBeDefined();
      expect(b.text, `docs/guide.md:${b.line} is examples/guide/${b.file}`).toBe(readFileSync(join(repoRoot, 'examples/guide', b.file!), 'utf8'));
    }
    const shown = new Set(programs.map((b) => b.file));
    for (const f of readdirSync(join(repoRoot, 'examples/guide'))) expect(shown.has(f), `examples/guide/${f} is shown in the guide`).toBe(true);
    // Every run and output marker sits on a block of the right language, and the page has commands to run.
    const { steps } = pageSteps(guide, 'docs/guide.md');
    expect(steps.filter((s) => s.kind === 'command').length).toBeGreaterThanOrEqual(3);
    expect(steps.filter((s) => s.output !== undefined).length).toBeGreaterThanOrEqual(6);
  });

  it('every program and command runs, in order, and prints what the guide shows', () => {
    const dir = join(tmp, 'guide');
    mkdirSync(dir);
    expectPageRuns(runPage(guide, 'docs/guide.md', dir, runner));
  }, 600_000);
});

describe('README.md', () => {
  it('every program runs as written; the first prints a verified replay and its hash', () => {
    const dir = join(tmp, 'readme');
    mkdirSync(dir);
    const results = runPage(readme, 'README.md', dir, runner);
    expect(results.length).toBeGreaterThanOrEqual(1);
    expectPageRuns(results);
    expect(results[0]!.stdout).toMatch(/^true 0x[0-9a-f]{16}\n$/);
  }, 600_000);
});

describe('docs/netplay.md', () => {
  it('shows whole programs: each is the file of examples/netplay/ it names, and every file there is shown', () => {
    const page = readFileSync(join(repoRoot, 'docs/netplay.md'), 'utf8');
    const programs = parseBlocks(page).filter((b) => b.lang === 'js' || b.lang === 'mjs');
    expect(programs.length).toBeGreaterThanOrEqual(1);
    for (const b of programs) {
      expect(b.file, `docs/netplay.md:${b.line}: a program names its file`).toBeDefined();
      expect(b.text, `docs/netplay.md:${b.line} is examples/netplay/${b.file}`).toBe(readFileSync(join(repoRoot, 'examples/netplay', b.file!), 'utf8'));
    }
    const shown = new Set(programs.map((b) => b.file));
    for (const f of readdirSync(join(repoRoot, 'examples/netplay'))) expect(shown.has(f), `examples/netplay/${f} is shown in docs/netplay.md`).toBe(true);
  });
});
