/**
 * A scenario's own parameters: declared with their types, defaults and bounds, checked before a simulation
 * is built (from code, the command line's `--set key=value`, or a replay header), and recorded in replays.
 */
import type { ParamValue } from '../systems/system.js';

export type { ParamValue };

/**
 * One declared parameter. `optional: true` says its default is the scenario as it was before the parameter
 * existed (see `ScenarioDef.extras`): it is left out of the scenario's declared shape (`scenarioFingerprint`)
 * and, while at its default, out of the parameters a run records, so those runs record what they always did.
 */
export type ParamSpec = (
  | { readonly type: 'int'; readonly default: number; readonly min?: number; readonly max?: number; readonly description?: string }
  | { readonly type: 'number'; readonly default: number; readonly min?: number; readonly max?: number; readonly description?: string }
  | { readonly type: 'bool'; readonly default: boolean; readonly description?: string }
  | { readonly type: 'string'; readonly default: string; readonly maxLength?: number; readonly description?: string }
  | { readonly type: 'enum'; readonly default: string; readonly values: readonly string[]; readonly description?: string }
) & { readonly optional?: boolean };

/** The parameters a run records: every value but an optional parameter's at its default (`ParamSpec.optional`). */
export function recordedParams(specs: ParamSpecs, values: Readonly<Record<string, ParamValue>>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [k, v] of Object.entries(values)) {
    const sp = specs[k];
    if (sp?.optional === true && Object.is(v, sp.default)) continue;
    out[k] = v;
  }
  return out;
}

/** A scenario's parameter declarations, by name. */
export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

/** Most parameters a scenario declares, and the longest string value (both keep replay headers small). */
export const MAX_PARAMS = 64;
export const MAX_PARAM_STRING = 256;

const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Thrown for a bad parameter value or declaration; the message names the parameter. */
export class ParamError extends Error {
  override readonly name = 'ParamError';
}

/** Checks a scenario's declarations themselves (names, types, defaults within bounds). */
export function checkParamSpecs(scenario: string, specs: ParamSpecs): void {
  const names = Object.keys(specs);
  if (names.length > MAX_PARAMS) throw new ParamError(`scenario ${scenario} declares ${names.length} parameters, at most ${MAX_PARAMS}`);
  for (const n of names) {
    if (!PARAM_NAME.test(n)) throw new ParamError(`scenario ${scenario}: parameter name ${JSON.stringify(n)} must be a letter followed by letters, digits or _`);
    const sp = specs[n]!;
    if (sp.type === 'enum' && (!Array.isArray(sp.values) || sp.values.length === 0 || !sp.values.every((v) => typeof v === 'string'))) {
      throw new ParamError(`scenario ${scenario}: parameter ${n} is an enum without a list of string values`);
    }
    if (!['int', 'number', 'bool', 'string', 'enum'].includes(sp.type)) throw new ParamError(`scenario ${scenario}: parameter ${n} has unknown type ${JSON.stringify((sp as { type: unknown }).type)}`);
    if (sp.optional !== undefined && typeof sp.optional !== 'boolean') throw new ParamError(`scenario ${scenario}: parameter ${n}'s optional must be true or false`);
    checkValue(`scenario ${scenario}: default of ${n}`, sp, sp.default);
  }
}

/** `given`, when the value was read from text, is what a refusal echoes (the text, not the number read). */
function checkValue(what: string, sp: ParamSpec, v: unknown, given?: string): ParamValue {
  const got = given === undefined ? show(v) : show(given);
  switch (sp.type) {
    case 'int':
    case 'number': {
      const lo = sp.min ?? (sp.type === 'int' ? -0x80000000 : -Number.MAX_VALUE);
      const hi = sp.max ?? (sp.type === 'int' ? 0x7fffffff : Number.MAX_VALUE);
      if (typeof v !== 'number' || !Number.isFinite(v) || (sp.type === 'int' && !Number.isInteger(v))) throw new ParamError(`${what} must be ${sp.type === 'int' ? 'an integer' : 'a finite number'}, got ${got}`);
      if (v < lo || v > hi) throw new ParamError(`${what} must be in ${lo}..${hi}, got ${given === undefined ? v : got}`);
      return Object.is(v, -0) ? 0 : v;
    }
    case 'bool':
      if (typeof v !== 'boolean') throw new ParamError(`${what} must be true or false, got ${show(v)}`);
      return v;
    case 'string': {
      const max = Math.min(sp.maxLength ?? MAX_PARAM_STRING, MAX_PARAM_STRING);
      if (typeof v !== 'string' || v.length > max) throw new ParamError(`${what} must be a string of at most ${max} characters, got ${show(v)}`);
      return v;
    }
    case 'enum':
      if (typeof v !== 'string' || !sp.values.includes(v)) throw new ParamError(`${what} must be one of ${sp.values.join(', ')}, got ${show(v)}`);
      return v;
  }
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : String(v);
  return s.length > 40 ? s.slice(0, 40) + '…' : s;
}

/**
 * The full parameter values for `given`: each declared parameter's value (or default), checked. An
 * undeclared name is an error listing the declared ones. The result's keys are in declaration order.
 */
export function resolveParams(scenario: string, specs: ParamSpecs, given: Readonly<Record<string, unknown>> = {}): Record<string, ParamValue> {
  if (typeof given !== 'object' || given === null) throw new ParamError(`scenario ${scenario}: parameters must be an object`);
  for (const k of Object.keys(given)) {
    if (!Object.hasOwn(specs, k)) {
      const known = Object.keys(specs);
      throw new ParamError(`scenario ${scenario} has no parameter ${JSON.stringify(k)} (${known.length ? `its parameters: ${known.join(', ')}` : 'it takes none'})`);
    }
  }
  const out: Record<string, ParamValue> = {};
  for (const [k, sp] of Object.entries(specs)) out[k] = checkValue(`parameter ${k} of scenario ${scenario}`, sp, Object.hasOwn(given, k) ? given[k] : sp.default);
  return out;
}

/** A number as JSON writes one (a batch file's params are JSON numbers): decimal, no "+", hex, "_" or spaces. */
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/**
 * Reads a `--set key=value` value by its declared type ("6", "0.5", "true", "night"). A number is read as a
 * JSON number, as a batch file's params are: decimal digits with an optional "-", fraction and exponent
 * ("1e3" is the integer 1000); "0x10", "+5", "1_000", " 5" and "Infinity" are refused. Every refusal echoes
 * the text given.
 */
export function parseParamText(scenario: string, specs: ParamSpecs, key: string, text: string): ParamValue {
  const sp = specs[key];
  if (!sp || !Object.hasOwn(specs, key)) {
    const known = Object.keys(specs);
    throw new ParamError(`scenario ${scenario} has no parameter ${JSON.stringify(key)} (${known.length ? `its parameters: ${known.join(', ')}` : 'it takes none'})`);
  }
  switch (sp.type) {
    case 'int':
    case 'number': {
      const kind = sp.type === 'int' ? 'an integer' : 'a number';
      if (!JSON_NUMBER.test(text)) throw new ParamError(`--set ${key} must be ${kind} written in decimal (as in JSON), got ${show(text)}`);
      return checkValue(`--set ${key}`, sp, Number(text), text);
    }
    case 'bool':
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      throw new ParamError(`--set ${key} must be true or false, got ${show(text)}`);
    default:
      return checkValue(`--set ${key}`, sp, text);
  }
}
