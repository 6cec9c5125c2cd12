// A divergence is a result; a scenario that is not the one recorded is an error, thrown before any frame runs.
import { readFileSync } from 'node:fs';
import { openWorld, readReplay, verifyReplay } from 'retrosim';
import guards from './guards.mjs';

const world = await openWorld('rugrats-demo');
try {
  const result = verifyReplay(readReplay(readFileSync('guards.replay')), { world, scenario: guards });
  console.log(result.ok ? 'verified' : `diverged at frame ${result.divergence?.frame}`);
} catch (e) {
  if (e.name === 'FormatError' && e.format.startsWith('scenario')) console.log('not the recorded scenario:', e.message);
  else throw e;
}
