/**
 * "A file that claims 2^31 elements is rejected before allocating": systematically, not by chance. Every
 * aligned u32 of each binary corpus file's first 256 bytes (where the headers, counts and offsets live) is set
 * in turn to 2^31 − 1, 2^31 and 2^32 − 1, and every aligned u16 to 0x7fff and 0xffff; each such file must end in
 * a parsed world or a FormatError, with ArrayBuffer growth within the harness's stated bound and, for a
 * world, every query answering at the hostile positions (the fuzz engine's `runCase`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/scripts/fuzz/', import.meta.url));
const BINARY_TARGETS = ['rugrats-col', 'llama-trak', 'llama-map', 'colbin', 'gta-col', 'replay-payload'];
const SPAN = 256;

describe('huge counts', async () => {
  if (!existsSync(dist + 'engine.js')) throw new Error('dist/ is missing: run `npm run build` (npm test does it)');
  const { runCase } = (await import(dist + 'engine.js')) as typeof import('../../scripts/fuzz/engine.js');
  const { loadTarget } = (await import(dist + 'targets.js')) as typeof import('../../scripts/fuzz/targets.js');

  for (const name of BINARY_TARGETS) {
    it(`${name}: every header word set to 2^31, 2^32 − 1, ... is a FormatError or a clean parse, within the allocation bound`, async () => {
      const t = await loadTarget(name);
      const failures: string[] = [];
      let refused = 0;
      for (const [fileIndex, base] of t.corpus().entries()) {
        const span = Math.min(base.length, SPAN);
        const variants: [number, number, number][] = [];
        for (let at = 0; at + 4 <= span; at += 4) for (const v of [0x7fffffff, 0x80000000, 0xffffffff]) variants.push([at, 4, v]);
        for (let at = 0; at + 2 <= span; at += 2) for (const v of [0x7fff, 0xffff]) variants.push([at, 2, v]);
        for (const [at, width, v] of variants) {
          const b = base.slice();
          const view = new DataView(b.buffer);
          if (width === 4) view.setUint32(at, v, true);
          else view.setUint16(at, v, true);
          const r = runCase(t, b);
          if (r.formatError) refused++;
          if (r.failure) failures.push(`file ${fileIndex}, u${8 * width} 0x${v.toString(16)} at ${at}: ${r.failure}`);
        }
      }
      expect(failures.slice(0, 5)).toEqual([]);
      // The values did reach checks: most such files are refused.
      expect(refused).toBeGreaterThan(0);
    });
  }
});
