/**
 * A test client of the netplay relay: a real `ws` connection whose every message is parsed with the protocol's
 * own parser (a malformed message from the relay fails the test), and waits on conditions, never on time.
 */
import WebSocket from 'ws';
import { encodeClientMessage, parseRelayMessage, type ClientMessage, type NetplayConfig, type RelayMessage } from '../../src/netplay/protocol.js';
import { waitFor } from '../batch/helpers.js';

export interface TestClient {
  ws: WebSocket;
  messages: RelayMessage[];
  closed: { code: number; reason: string } | null;
  send(m: ClientMessage): void;
  sendRaw(text: string): void;
  /** Waits for the first message (after index `from`) that matches, and returns it. */
  next<T extends RelayMessage['t']>(t: T, match?: (m: Extract<RelayMessage, { t: T }>) => boolean, from?: number): Promise<Extract<RelayMessage, { t: T }>>;
  of<T extends RelayMessage['t']>(t: T): Extract<RelayMessage, { t: T }>[];
  waitClosed(): Promise<{ code: number; reason: string }>;
  close(): void;
}

export function testConfig(players: number, over: Partial<NetplayConfig> = {}): NetplayConfig {
  return {
    world: { kind: 'rugrats', name: 'test', source: 'builtin:test', contentHash: '0x0000000000000001', byteLength: 1 },
    scenario: { name: 'wander', version: '1.0.0', source: 'builtin:wander', contentHash: '0x0000000000000002' },
    settings: { scenario: 'wander', agents: 3, fieldSeed: 1, ccRandInit: 0, streamSeed: 's', capacity: 64, params: {}, players },
    keyframeInterval: 60,
    checkInterval: 10,
    inputDelay: 2,
    ...over,
  };
}

export async function connect(url: string): Promise<TestClient> {
  const ws = new WebSocket(url, { maxPayload: 16 * 1024 * 1024 });
  const c: TestClient = {
    ws,
    messages: [],
    closed: null,
    send: (m) => ws.send(encodeClientMessage(m)),
    sendRaw: (text) => ws.send(text),
    next: (t, match = () => true, from = 0) =>
      waitFor(`a ${t} message`, () => {
        const m = c.messages.slice(from).find((x) => x.t === t && match(x as never));
        if (!m && c.closed) throw new Error(`closed (${c.closed.code} ${c.closed.reason}) while waiting for ${t}; got ${JSON.stringify(c.messages.map((x) => x.t))}`);
        return m as never;
      }, 60_000, 5),
    of: (t) => c.messages.filter((x) => x.t === t) as never,
    waitClosed: () => waitFor('the connection to close', () => c.closed, 60_000, 5),
    close: () => ws.close(),
  };
  ws.on('message', (data) => c.messages.push(parseRelayMessage(String(data))));
  ws.on('close', (code, reason) => (c.closed = { code, reason: reason.toString() }));
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return c;
}

/** Connects and joins; waits for `joined`. */
export async function join(url: string, room: string, role: 'player' | 'spectator', config?: NetplayConfig): Promise<TestClient> {
  const c = await connect(url);
  c.send({ t: 'join', v: 1, room, role, ...(config ? { config } : {}) });
  await c.next('joined');
  return c;
}

/** An input message of player inputs for frames f.. with acks of `players` zeros. */
export function input(f: number, b: number[], players: number, c: [number, string][] = []): ClientMessage {
  return { t: 'input', f, b, ack: new Array<number>(players).fill(0), c, at: f };
}
