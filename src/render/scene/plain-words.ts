/**
 * The inspector's answers in plain words, for someone who has never read the formats: what is there, how high
 * in metres, the material by name, who sees whom. The format's own detail (ids, statuses, cell formulas) stays
 * in inspect.ts's rows, which the panel folds under these lines.
 *
 * Pure: Node tests check the words for each kind of world.
 */
import type { CollisionWorld } from '../../worlds/world.js';
import type { EntityInfo, ProbeAnswer } from './inspect.js';
import { GoalStatus } from '../../nav/navigator.js';

/** A height along the world's up axis (native units) in metres, "higher is more". */
export function metresUp(world: Pick<CollisionWorld, 'up' | 'scale'>, v: number): number {
  const s = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
  return (v * world.up.sign) / s;
}

/** Metres as the inspector says them: to the centimetre, "−" for below zero. */
export function metresText(m: number): string {
  const r = Math.round(m * 100) / 100 + 0;
  return `${r.toFixed(Math.abs(r) >= 100 ? 0 : 2).replace(/\.?0+$/, '').replace('-', '−')} m`;
}

/**
 * GTA surface materials by number: the ids the sandbox's demo town uses (San Andreas surfinfo numbering, as the
 * script that makes the town names them). Any other number is said as a number rather than guessed, since the
 * games number their surfaces differently.
 */
export const GTA_SURFACES: Readonly<Record<number, string>> = { 0: 'default surface', 1: 'tarmac', 4: 'concrete', 9: 'grass', 14: 'wood' };

/** A GTA surface material by name ("surface N" when unnamed). */
export function gtaSurfaceName(m: number): string {
  return GTA_SURFACES[m] ?? `surface ${m}`;
}

/** What the ground is called in each kind of world. */
const GROUND: Readonly<Record<string, string>> = {
  rugrats: 'Floor of the level',
  llama: 'Track floor',
  colbin: 'Floor of the yard',
  gta: 'Ground of the town',
  piney: 'Field ground',
};

/** The hover's plain line: what is under the cursor, its height in metres, the material by name, the room above. */
export function hoverPlain(world: Pick<CollisionWorld, 'kind' | 'up' | 'scale'>, p: ProbeAnswer): string {
  const g = p.ground;
  const what = GROUND[world.kind] ?? 'Floor';
  if (g.floor === null) return world.kind === 'rugrats' || world.kind === 'llama' ? 'Outside the level: no floor here' : 'No floor here';
  const at = metresText(metresUp(world, g.floor));
  const material = p.materialName ? `, ${p.materialName.replace(/^surface material (\d+)$/, (_, m: string) => gtaSurfaceName(Number(m)))}` : '';
  if (!g.hasFloor) return `${what} at ${at}, but closed: no room to stand above it`;
  const ceiling = g.ceiling !== null ? `; ceiling ${metresText(Math.abs(metresUp(world, g.ceiling) - metresUp(world, g.floor)))} above` : '';
  return `${what} at ${at}${material}${ceiling}`;
}

/** Names a body by its role: "the player", "agent 7". */
export function bodyName(id: number, player: number): string {
  return id === player ? 'the player' : `agent ${id}`;
}

/** A piece of a plain line: text, a body it names (the page makes it a link that selects it), or "N more" (a link that lists them all). */
export type PlainPart = string | { entity: number; text: string } | { more: number; text: string };

/** The bodies of `ids` named in a list: up to `max` (all when `max` is Infinity), then "and N more". */
function listParts(ids: readonly number[], player: number, max: number): PlainPart[] {
  const shown = ids.slice(0, max);
  const names: PlainPart[] = shown.map((i) => ({ entity: i, text: bodyName(i, player) }));
  const rest = ids.length - shown.length;
  const out: PlainPart[] = [];
  for (let k = 0; k < names.length; k++) {
    if (k > 0) out.push(rest === 0 && k === names.length - 1 ? ' and ' : ', ');
    out.push(names[k]!);
  }
  if (rest > 0) out.push(' and ', { more: rest, text: `${rest} more` });
  return out;
}

/** A plain line's parts as text. */
export function plainText(parts: readonly PlainPart[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');
}

/** What an agent does, said as a verb. */
const DOING: Readonly<Record<string, string>> = {
  wander: 'wandering',
  patrol: 'patrolling',
  'not yet assigned': 'waiting for a behaviour',
};

/** Whether the entity's `Goal` says it is on its way (navigation walks it, whatever its behaviour would do). */
function goingSomewhere(e: EntityInfo): boolean {
  const goal = e.components.find((c) => c.name === 'Goal');
  return goal !== undefined && goal.fields.some(([f, v]) => f === 'status' && v === GoalStatus.going);
}

/**
 * The entity's plain line: who it is, what it does, who it sees now (the view's rays) and whether it sees the
 * one it watches.
 */
export function entityPlain(e: EntityInfo, player: number, sees: { sees: readonly number[]; blocked: readonly number[] } | null): string {
  return plainText(entityPlainParts(e, player, sees));
}

/** Most bodies the plain line names before "and N more" (unless asked for all). */
export const PLAIN_LIST_MAX = 6;

/**
 * The entity's plain line in parts: every body it names is a part of its own (the inspector makes those links
 * that select the body), and "N more" one too (a link that lists them all); `all` lists every body.
 */
export function entityPlainParts(e: EntityInfo, player: number, sees: { sees: readonly number[]; blocked: readonly number[] } | null, all = false): PlainPart[] {
  const who = e.role === 'player' ? 'The player' : e.role === 'agent' ? `Agent ${e.id}` : `Entity ${e.id}`;
  const doing = goingSomewhere(e) ? 'walking to its goal' : e.behaviour ? (e.behaviour.startsWith('chase') ? 'chasing the player' : (DOING[e.behaviour] ?? e.behaviour)) : '';
  const parts: PlainPart[] = [doing ? `${who}, ${doing}.` : `${who}.`];
  if (sees) {
    if (sees.sees.length) parts.push(' Sees ', ...listParts(sees.sees, player, all ? Infinity : PLAIN_LIST_MAX), '.');
    else parts.push(' Sees nobody in range.');
    if (sees.blocked.length) parts.push(` ${sees.blocked.length} more in range ${sees.blocked.length === 1 ? 'is' : 'are'} hidden behind walls.`);
  }
  if (e.sight && e.sight.target) parts.push(' Watches ', { entity: e.sight.target, text: bodyName(e.sight.target, player) }, `: ${e.sight.visible ? 'sees it' : 'cannot see it'}.`);
  return parts;
}
