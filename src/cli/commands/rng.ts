import { parseArgs, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { printJson, print } from '../io.js';
import { FieldRand } from '../../rng/fieldrand.js';
import { CcRand } from '../../rng/ccrand.js';

const usage = `usage:
  retrosim rng fieldrand --seed S --draws K [--mod N] [--json]
  retrosim rng ccrand [--init C] --draws K [--json]

Draws K values from a game RNG and prints them with the generator's final state.
  fieldrand  the field generator's LCG; --mod N prints fieldrand(N) = step mod N (0 or absent: raw steps)
  ccrand     the game's Mersenne Twister seeded with 4352; --init C discards C draws first
--json prints {"values":[...],"state":{...}} with unsigned decimal integers.
Limits: --draws at most 10,000,000; --init at most 100,000,000.`;

const MAX_DRAWS = 10_000_000;

export const command: Command = {
  summary: 'draw from the game RNGs (fieldrand, ccrand)',
  usage,
  run(argv) {
    const [which, ...rest] = argv;
    if (which === 'fieldrand') {
      const { positionals, options } = parseArgs(rest, {
        seed: { type: 'int', min: 0, max: 0xffffffff },
        draws: { type: 'int', min: 0, max: MAX_DRAWS },
        mod: { type: 'int', min: 0, max: 0xffffffff },
        json: { type: 'flag' },
      });
      if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
      if (options.seed === undefined) throw new UsageError('rng fieldrand needs --seed S');
      if (options.draws === undefined) throw new UsageError('rng fieldrand needs --draws K');
      const r = new FieldRand(options.seed as number);
      const n = (options.mod as number | undefined) ?? 0;
      const values: number[] = [];
      for (let i = 0; i < (options.draws as number); i++) values.push(r.rand(n));
      const state = { seed: r.seed, count: r.count };
      if (options.json) printJson({ values, state });
      else print(`${values.join('\n')}${values.length ? '\n' : ''}state: seed ${state.seed} count ${state.count}`);
      return 0;
    }
    if (which === 'ccrand') {
      const { positionals, options } = parseArgs(rest, {
        init: { type: 'int', min: 0, max: 100_000_000 },
        draws: { type: 'int', min: 0, max: MAX_DRAWS },
        json: { type: 'flag' },
      });
      if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
      if (options.draws === undefined) throw new UsageError('rng ccrand needs --draws K');
      const r = new CcRand();
      const init = (options.init as number | undefined) ?? 0;
      r.init(init);
      const values: number[] = [];
      for (let i = 0; i < (options.draws as number); i++) values.push(r.nextU32());
      const state = { init, draws: r.draws, position: init + r.draws };
      if (options.json) printJson({ values, state });
      else print(`${values.join('\n')}${values.length ? '\n' : ''}state: init ${state.init} draws ${state.draws}`);
      return 0;
    }
    throw new UsageError(which === undefined ? 'rng needs a generator: fieldrand or ccrand' : `unknown generator ${JSON.stringify(which)} (fieldrand or ccrand)`);
  },
};
