// Open a built-in world and ask it questions: which way is up, the ground under a point, and whether the
// line between two points is clear, one segment at a time and many in one batch.
import { SEGMENT_STRIDE, losBatch, newLosOutput, newSegmentResult, openWorld } from 'retrosim';

const { world, identity } = await openWorld('rugrats-demo'); // a built-in id, or a world file's path
console.log(world.kind, world.name, 'up:', world.up, 'units per metre:', world.scale, 'whole units:', world.integer);
console.log('spawn point:', world.spawnPoint(), 'identity:', identity.source, identity.contentHash);

// The floor at or below a point. This level is y-down (up is -y), so a raised floor has a negative height;
// outside the level there is none.
for (const p of [[1536, -2000, 1536], [4608, -2000, 2560], [20000, -2000, 3584]]) {
  const g = world.ground(p);
  console.log('ground under', p, g.hasFloor ? `floor at y = ${g.floor}` : 'no floor');
}

// One segment, with everything about its first hit.
const hit = world.segment([1500, -600, 1500], [9000, -600, 9000], newSegmentResult());
console.log('segment:', hit.hit ? `hits a ${hit.what} at [${hit.point}], ${hit.fraction.toFixed(3)} of the way` : 'clear');

// The same question, allocating nothing: the fraction of the way to the first hit, or -1 when the line is clear.
console.log('segmentFraction:', world.segmentFraction(1500, -600, 1500, 9000, -600, 9000), world.segmentFraction(1536, -900, 1536, 1536, -900, 8000));

// Many segments at once: six numbers each (from x, y, z, to x, y, z) in one Float64Array, answers in typed arrays.
const lines = [
  [1536, -900, 1536, 1536, -900, 8000],
  [1536, -900, 1536, 8000, -900, 1536],
  [1500, -600, 1500, 9000, -600, 9000],
  [9000, -300, 2000, 9000, -300, 8000],
];
const segments = new Float64Array(lines.length * SEGMENT_STRIDE);
lines.forEach((s, i) => segments.set(s, i * SEGMENT_STRIDE));
const out = newLosOutput(lines.length);
losBatch(world, segments, out);
lines.forEach((s, i) => console.log(`[${s}]`, out.visible[i] ? 'clear' : `blocked ${out.fraction[i].toFixed(3)} of the way`));
