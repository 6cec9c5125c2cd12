/**
 * Regenerates the synthetic COLBIN files in assets/worlds/colbin/ (no real COLBIN is published; see the
 * README there). Run from the repository root after a build: `node dist/scripts/make-colbin-assets.js`.
 * test/worlds/colbin/assets.test.ts checks that regenerating gives byte-identical files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildColbin } from '../src/worlds/colbin/level-builder.js';
import { writeColbin } from '../src/worlds/colbin/write.js';
import { demoLevelDescription, workedExampleDescription } from '../src/worlds/colbin/demo-level.js';

export const COLBIN_ASSET_DIR = 'assets/worlds/colbin';

/** Every asset: file name and bytes, in a fixed order. */
export function colbinAssets(): { name: string; bytes: Uint8Array }[] {
  return [
    { name: 'worked-example.colbin', bytes: writeColbin(buildColbin(workedExampleDescription())) },
    { name: 'demo.colbin', bytes: writeColbin(buildColbin(demoLevelDescription(2, 'footprint'))) },
    { name: 'demo-exporter-grid.colbin', bytes: writeColbin(buildColbin(demoLevelDescription(2, 'exporter'))) },
    { name: 'demo-v1.colbin', bytes: writeColbin(buildColbin(demoLevelDescription(1))) },
  ];
}

export function writeColbinAssets(root = '.'): string[] {
  const dir = join(root, COLBIN_ASSET_DIR);
  mkdirSync(dir, { recursive: true });
  return colbinAssets().map(({ name, bytes }) => {
    writeFileSync(join(dir, name), bytes);
    return `${COLBIN_ASSET_DIR}/${name} (${bytes.length} bytes)`;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of writeColbinAssets()) process.stdout.write(line + '\n');
}
