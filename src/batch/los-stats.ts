/**
 * Line-of-sight statistics of a running simulation, for a batch job's "los" measure. Read-only: it asks
 * the world's segment test and reads components, and changes nothing a state hash covers (no query is
 * defined, no entity touched), so a job's final hash is the same with or without it.
 *
 * - Every `every` frames, a visibility matrix over the agents (entities with Sight, lowest ids first, at
 *   most LOS_STATS_MAX_AGENTS), eye to eye within their sight range: the visible pairs, and per agent how
 *   many others it sees.
 * - On every frame the line-of-sight system looks (every LOS_RATE frames), how many agents see their
 *   target (`Sight.visible`, the simulation's own answer).
 */
import { eyeHeight, LOS_RATE, VisibilityMatrix, type Simulation } from '../index.js';

/** Most agents a sample's matrix covers (the lowest ids): n(n−1)/2 pairs are considered per sample. */
export const LOS_STATS_MAX_AGENTS = 512;

/** The statistics a job reports. Means are plain IEEE doubles of integer totals, the same on every machine. */
export interface LosStatsResult {
  /** Frames sampled (every `every` frames). */
  samples: number;
  every: number;
  /** Agents in the last sample's matrix. */
  agents: number;
  /** Visible pairs (i < j) summed over the samples. */
  pairs: number;
  /** Mean visible pairs per sampled frame. */
  pairsPerFrame: number;
  /** Mean number of other agents an agent sees, over agents and samples. */
  perAgent: number;
  /** The most other agents any one agent saw in one sample. */
  perAgentMax: number;
  /** Segments cast by the samples (pairs within range). */
  cast: number;
  /** Frames the simulation's line-of-sight system looked on. */
  looks: number;
  /** Mean number of agents seeing their target (the player) on those frames. */
  seesTarget: number;
}

export class LosStats {
  private readonly matrix = new VisibilityMatrix();
  private readonly ids = { ids: new Uint32Array(64) };
  private agents = new Uint32Array(64);
  private feet = new Float64Array(3 * 64);
  private samples = 0;
  private pairs = 0;
  private agentSamples = 0;
  private seen = 0;
  private perAgentMax = 0;
  private cast = 0;
  private lastN = 0;
  private looks = 0;
  private seeing = 0;

  constructor(
    private readonly sim: Simulation,
    readonly every: number,
  ) {}

  /** Call after each frame's step. */
  afterFrame(frame: number): void {
    if (frame % LOS_RATE === 0) this.look();
    if (frame % this.every === 0) this.sample();
  }

  private sightIds(): number {
    const ecs = this.sim.ecs;
    const { Sight } = ecs.components;
    const n = ecs.aliveIdsAscending(this.ids);
    if (this.agents.length < n) this.agents = new Uint32Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const e = this.ids.ids[i]!;
      if (ecs.has(e, Sight)) this.agents[k++] = e;
    }
    return k;
  }

  private look(): void {
    const { Sight } = this.sim.ecs.components;
    const k = this.sightIds();
    let v = 0;
    for (let i = 0; i < k; i++) v += Sight.visible[this.agents[i]!]! === 1 ? 1 : 0;
    this.looks++;
    this.seeing += v;
  }

  private sample(): void {
    const sim = this.sim;
    const { Position, BodySize, Sight } = sim.ecs.components;
    const n = Math.min(this.sightIds(), LOS_STATS_MAX_AGENTS);
    if (this.feet.length < 3 * n) this.feet = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      const e = this.agents[i]!;
      this.feet[3 * i] = Position.x[e]!;
      this.feet[3 * i + 1] = Position.y[e]!;
      this.feet[3 * i + 2] = Position.z[e]!;
    }
    const first = n > 0 ? this.agents[0]! : 0;
    const m = this.matrix.compute(sim.world, this.feet, n, n > 0 ? eyeHeight(sim.world, BodySize.height[first]!) : 0, n > 0 ? Sight.range[first]! : 0);
    let pairs = 0;
    for (let i = 0; i < n; i++) {
      let row = 0;
      for (let j = 0; j < n; j++) if (j !== i && m[i * n + j] === 1) row++;
      if (row > this.perAgentMax) this.perAgentMax = row;
      this.seen += row;
      pairs += row;
    }
    this.pairs += pairs / 2;
    this.agentSamples += n;
    this.cast += this.matrix.cast;
    this.lastN = n;
    this.samples++;
  }

  result(): LosStatsResult {
    return {
      samples: this.samples,
      every: this.every,
      agents: this.lastN,
      pairs: this.pairs,
      pairsPerFrame: this.samples ? this.pairs / this.samples : 0,
      perAgent: this.agentSamples ? this.seen / this.agentSamples : 0,
      perAgentMax: this.perAgentMax,
      cast: this.cast,
      looks: this.looks,
      seesTarget: this.looks ? this.seeing / this.looks : 0,
    };
  }
}
