/**
 * docs/guide.md cannot rot: every code block marked `<!-- example: FILE -->` appears verbatim in that file,
 * and every command of a block marked `<!-- run -->` runs (with the built CLI) and exits 0.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS, repoRoot, runCli } from '../cli/run-cli.js';

const guide = readFileSync(join(repoRoot, 'docs/guide.md'), 'utf8');
const BLOCK = /<!-- (example: ([^\s]+)|run) -->\n```[a-z]*\n([\s\S]*?)\n```/g;
const blocks = [...guide.matchAll(BLOCK)].map((m) => ({ kind: m[2] ? 'example' : 'run', file: m[2], text: m[3]! }));

describe('docs/guide.md', () => {
  it('every example snippet is taken from its example file', () => {
    const examples = blocks.filter((b) => b.kind === 'example');
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const b of examples) {
      const source = readFileSync(join(repoRoot, b.file!), 'utf8');
      expect(source.includes(b.text), `${b.file}:\n${b.text}`).toBe(true);
    }
    // Every fenced code block of the guide is either marked or a shell/plain block.
    const fences = guide.match(/```[a-z]*\n/g)!.length;
    const unmarked = [...guide.matchAll(/```(js|ts)\n/g)].length - examples.length;
    expect(fences).toBeGreaterThan(examples.length);
    expect(unmarked).toBe(0);
  });

  it('every command of a run block works', () => {
    const commands = blocks.filter((b) => b.kind === 'run').flatMap((b) => b.text.split('\n')).filter((l) => l.startsWith('npx retrosim '));
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const c of commands) {
      const r = runCli(c.slice('npx retrosim '.length).split(' '));
      expect(r.stderr, c).toBe('');
      expect(r.code, c).toBe(0);
    }
  });
});

describe('README.md', () => {
  it("the library snippet runs as written and its replay verifies", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const js = /```js\n([\s\S]*?)\n```/.exec(readme)![1]!;
    // A file of this run's own inside the repository (so that 'retrosim' resolves to it): another run of the
    // suite must not be rewriting it while this one runs it.
    mkdirSync(join(repoRoot, 'out'), { recursive: true });
    const dir = mkdtempSync(join(repoRoot, 'out', 'readme-'));
    const file = join(dir, 'readme-snippet.mjs');
    writeFileSync(file, js);
    const r = spawnSync(process.execPath, [file], { cwd: repoRoot, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
    rmSync(dir, { recursive: true, force: true });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^true 0x[0-9a-f]{16}\n$/);
  });
});
