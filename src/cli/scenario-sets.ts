/**
 * `--set key=value` options (`retrosim run`, `retrosim netplay join`): a scenario's parameters, each
 * read by the type it declares.
 */
import { UsageError } from './args.js';
import { parseParamText } from '../sim/params.js';
import type { ScenarioDef } from '../sim/scenario.js';
import type { ParamValue } from '../systems/system.js';

/** The scenario parameters of `--set key=value` options, read by their declared types. */
export function parseSets(scenario: ScenarioDef, sets: readonly string[]): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const kv of sets) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set ${JSON.stringify(kv)}: expected KEY=VALUE`);
    try {
      out[kv.slice(0, eq)] = parseParamText(scenario.name, scenario.params ?? {}, kv.slice(0, eq), kv.slice(eq + 1));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  return out;
}

