/**
 * The images the docs show exist and are used: every image a page of docs/ or the README links to is a PNG
 * file of docs/images/, and every file of docs/images/ is shown by some page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../cli/run-cli.js';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The pages written by hand (docs/api/ is typedoc's output, not kept in the repository). */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return relative(repoRoot, path) === join('docs', 'api') ? [] : markdownFiles(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

const pages = [join(repoRoot, 'README.md'), ...markdownFiles(join(repoRoot, 'docs'))];
const links = pages.flatMap((page) =>
  [...readFileSync(page, 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+\.png)\)/g)].map((m) => ({ page: relative(repoRoot, page), target: relative(repoRoot, resolve(dirname(page), m[1]!)) })),
);

describe('docs images', () => {
  it('every image a page shows is a PNG in docs/images/', () => {
    expect(links.length).toBeGreaterThanOrEqual(8);
    for (const l of links) {
      expect(l.target.startsWith('docs/images/'), `${l.page}: ${l.target}`).toBe(true);
      const bytes = readFileSync(join(repoRoot, l.target));
      expect([...bytes.subarray(0, 8)], `${l.page}: ${l.target}`).toEqual(PNG);
    }
  });

  it('every file of docs/images/ is shown by a page', () => {
    const shown = new Set(links.map((l) => l.target));
    const files = readdirSync(join(repoRoot, 'docs/images')).map((f) => `docs/images/${f}`);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(shown.has(f), f).toBe(true);
  });
});
