// Run by Bun (nav-engines.test.ts): the navigation scenario (nav-scenario.mjs) on a shipped world through the
// compiled runtime, printing one JSON line: the hash after every frame and the agents' goal counts.
//   bun test/engines/nav-run.mjs WORLD FRAMES
import * as R from 'retrosim/core';
import { openBuiltinWorld } from '../../dist/src/node/open-world.js';
import { runNav } from './nav-scenario.mjs';

const [id, frames] = process.argv.slice(2);
const { world } = await openBuiltinWorld(id);
process.stdout.write(JSON.stringify(runNav(R, world, Number(frames))) + '\n');
