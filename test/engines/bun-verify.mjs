// Run by Bun (bun.test.ts): verifies replay files through the public API ('retrosim' is this package, by
// its own name: dist/), and prints one JSON line per replay with the result.
//
//   bun test/engines/bun-verify.mjs '[{"file":"A.replay","world":"rugrats-demo","scenario":"guards.mjs"}, ...]'
//
// Paths are relative to the current folder; "scenario" (a module file) is optional.
import { readFileSync } from 'node:fs';
import { loadScenarioFile, openWorld, readReplay, seekReplay, verifyReplay } from 'retrosim';

for (const job of JSON.parse(process.argv[2] ?? '[]')) {
  const world = await openWorld(job.world);
  const scenario = job.scenario === undefined ? undefined : (await loadScenarioFile(job.scenario)).scenario;
  // readFileSync gives a Buffer (a Uint8Array subclass), read as it is: verify, and a seek to the middle.
  const rp = readReplay(readFileSync(job.file));
  const r = verifyReplay(rp, { world, ...(scenario ? { scenario } : {}) });
  const seek = seekReplay(rp, { world, ...(scenario ? { scenario } : {}) }, Math.floor(rp.frames.count / 2) + 1);
  console.log(JSON.stringify({ file: job.file, ok: r.ok, frames: r.frames, keyframes: r.keyframes, finalHash: r.finalHash, divergence: r.divergence ?? null, warnings: r.warnings, seekVerified: seek.verified }));
}
