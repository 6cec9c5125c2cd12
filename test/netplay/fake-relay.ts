/**
 * An in-memory stand-in for the relay, driven tick by tick (no real time): what the relay does for a room
 * (seats, start, forwarding with the log winning, `changed`, catch-up for spectators, `left`, keyframes, pong)
 * and its impairment — every forwarded input and pong is dropped with probability `loss` and delivered
 * `delay ± jitter` TICKS later, from a seeded stream. The real relay server is tested on its own.
 */
import type { NetplayTransport } from '../../src/netplay/transport.js';

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FakeNetOptions {
  players: number;
  delay?: number;
  jitter?: number;
  loss?: number;
  seed?: number;
}

interface Client {
  id: number;
  seat: number;
  role: 'player' | 'spectator' | null;
  open: boolean;
  onMessage: (text: string) => void;
  onClose: (reason: string) => void;
}

type Json = Record<string, unknown>;

export class FakeNet {
  tick = 0;
  readonly clients: Client[] = [];
  private readonly rand: () => number;
  private queue: { due: number; seq: number; to: Client; text: string }[] = [];
  private seq = 0;
  private config: Json | null = null;
  private started = false;
  readonly log: number[][] = [];
  private keyframe: Json | null = null;
  /** Changes what a seat sends before the relay sees it (a doctored client); null drops it. */
  tamper: ((seat: number, msg: Json) => Json | null) | null = null;
  /** Every message the relay received, by type (for assertions). */
  readonly received = new Map<string, number>();

  constructor(private readonly o: FakeNetOptions) {
    this.rand = mulberry32(o.seed ?? 1);
    for (let p = 0; p < o.players; p++) this.log.push([]);
  }

  connect(): NetplayTransport {
    const c: Client = { id: this.clients.length, seat: -1, role: null, open: true, onMessage: () => {}, onClose: () => {} };
    this.clients.push(c);
    return {
      send: (text) => {
        if (c.open) this.fromClient(c, text);
      },
      onMessage: (cb) => {
        c.onMessage = cb;
      },
      onClose: (cb) => {
        c.onClose = cb;
      },
      close: () => this.disconnect(c, 'client closed'),
    };
  }

  /** Delivers everything due by now; call once per tick before the sessions tick. */
  step(): void {
    this.tick++;
    const due = this.queue.filter((m) => m.due <= this.tick).sort((a, b) => a.due - b.due || a.seq - b.seq);
    this.queue = this.queue.filter((m) => m.due > this.tick);
    for (const m of due) if (m.to.open) m.to.onMessage(m.text);
  }

  /** Messages waiting in the network (bounded in a healthy session). */
  get inFlight(): number {
    return this.queue.length;
  }

  /** Sends raw text to a client now (a hostile relay). */
  inject(client: number, text: string): void {
    this.clients[client]!.onMessage(text);
  }

  private send(to: Client, msg: Json, impaired: boolean): void {
    let delay = this.o.delay ?? 0;
    if (impaired) {
      if (this.rand() < (this.o.loss ?? 0)) return;
      const j = this.o.jitter ?? 0;
      delay += Math.round((this.rand() * 2 - 1) * j);
    }
    this.queue.push({ due: this.tick + Math.max(0, delay), seq: this.seq++, to, text: JSON.stringify(msg) });
  }

  private others(c: Client): Client[] {
    return this.clients.filter((x) => x !== c && x.open && x.role !== null);
  }

  private fromClient(c: Client, text: string): void {
    let msg = JSON.parse(text) as Json;
    this.received.set(String(msg.t), (this.received.get(String(msg.t)) ?? 0) + 1);
    if (this.tamper && c.seat >= 0) {
      const t = this.tamper(c.seat, msg);
      if (!t) return;
      msg = t;
    }
    switch (msg.t) {
      case 'join': {
        const role = msg.role as 'player' | 'spectator';
        if (role === 'player') {
          if (!this.config) this.config = msg.config as Json;
          c.seat = this.clients.filter((x) => x.role === 'player').length;
        }
        c.role = role;
        this.send(c, { t: 'joined', room: msg.room, role, player: c.seat, players: this.o.players, config: this.config }, false);
        if (role === 'player' && c.seat === this.o.players - 1) {
          this.started = true;
          for (const x of this.clients) if (x.role) this.send(x, { t: 'start' }, false);
          for (const x of this.clients) if (x.role === 'spectator') this.send(x, { t: 'catchup', keyframe: null, from: 1, inputs: this.log.map(() => []) }, false);
        } else if (role === 'spectator' && this.started) {
          this.send(c, { t: 'start' }, false);
          const from = this.keyframe ? (this.keyframe.f as number) + 1 : 1;
          this.send(c, { t: 'catchup', keyframe: this.keyframe, from, inputs: this.log.map((l) => l.slice(from - 1)) }, false);
        }
        return;
      }
      case 'input': {
        const log = this.log[c.seat]!;
        const f = msg.f as number;
        const b = [...(msg.b as number[])];
        for (let i = 0; i < b.length; i++) {
          const g = f + i;
          if (g <= log.length) {
            if (log[g - 1] !== b[i]) {
              for (const x of this.clients) if (x.open && x.role) this.send(x, { t: 'changed', p: c.seat, f: g }, false);
              b[i] = log[g - 1]!;
            }
          } else log.push(b[i]!);
        }
        for (const x of this.others(c)) this.send(x, { ...msg, t: 'input', p: c.seat, b }, true);
        return;
      }
      case 'ping':
        this.send(c, { t: 'pong', id: msg.id }, true);
        return;
      case 'keyframe':
        this.keyframe = { f: msg.f, hash: msg.hash, data: msg.data };
        return;
      case 'state':
        for (const x of this.others(c)) this.send(x, { t: 'state', p: c.seat, f: msg.f, hash: msg.hash, data: msg.data }, false);
        return;
    }
  }

  private disconnect(c: Client, reason: string): void {
    if (!c.open) return;
    c.open = false;
    if (c.role === 'player') {
      const log = this.log[c.seat]!;
      const from = log.length + 1;
      const f0 = Math.max(1, from - 64);
      for (const x of this.others(c)) this.send(x, { t: 'left', p: c.seat, from, f0, b: log.slice(f0 - 1) }, false);
    }
    c.onClose(reason);
  }
}
