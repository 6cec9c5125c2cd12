// The replay the command line recorded (guards.replay), verified by a program that imports the same module.
import { readFileSync } from 'node:fs';
import { openWorld, readReplay, verifyReplay } from 'retrosim';
import guards from './guards.mjs';

const world = await openWorld('rugrats-demo');
const result = verifyReplay(readReplay(readFileSync('guards.replay')), { world, scenario: guards });
console.log('guards.replay verified:', result.ok, result.frames, 'frames, final hash', result.finalHash);
