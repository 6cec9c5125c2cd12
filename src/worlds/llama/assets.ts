import { buildLevel, type LevelDescription } from './level-builder.js';
import { brokenLevel, demoLevel, minimalLevel } from './demo-levels.js';

/** The files under assets/worlds/llama: name → bytes, all made from the descriptions in demo-levels.ts. */
export function llamaAssetFiles(): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const levels: LevelDescription[] = [demoLevel(), minimalLevel(), brokenLevel()];
  for (const desc of levels) {
    const built = buildLevel(desc);
    files.set(`${desc.name}.trak`, built.trakBytes);
    files.set(`${desc.name}.map`, built.mapBytes);
    files.set(`${desc.name}.level.json`, new TextEncoder().encode(JSON.stringify(desc, null, 2) + '\n'));
  }
  return files;
}
