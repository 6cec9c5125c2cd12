/**
 * A test client of the netplay relay: a real `ws` connection whose every message is parsed with the protocol's
 * own parser (a malformed message from the relay fails the test), and waits on conditions, never on time.
 */
import WebSocket from 'ws';
import { encodeClientMessage, parseRelayMessage, PROTOCOL_VERSION, type ClientMessage, type JoinMessage, type NetplayConfig, type RelayMessage, type RuntimeIdentity } from '../../src/netplay/protocol.js';
import { RUNTIME_VERSION } from '../../src/replay/format.js';
import { waitFor } from '../batch/helpers.js';

export interface TestClient {
  ws: WebSocket;
  messages: RelayMessage[];
  /** Messages from the relay that its own protocol refuses (a failing test names them). */
  malformed: string[];
  closed: { code: number; reason: string } | null;
  send(m: ClientMessage): void;
  sendRaw(text: string): void;
  /** Waits for the first message (after index `from`) that matches, and returns it. */
  next<T extends RelayMessage['t']>(t: T, match?: (m: Extract<RelayMessage, { t: T }>) => boolean, from?: number): Promise<Extract<RelayMessage, { t: T }>>;
  of<T extends RelayMessage['t']>(t: T): Extract<RelayMessage, { t: T }>[];
  waitClosed(): Promise<{ code: number; reason: string }>;
  close(): void;
}

/** The runtime test clients name: this version, no hash (any room of this version seats them). */
export const TEST_RUNTIME: RuntimeIdentity = { version: RUNTIME_VERSION, kind: 'version' };

/** A `join` of this protocol's version, naming TEST_RUNTIME unless `over` says otherwise. */
export function joinMessage(room: string, role: 'player' | 'spectator', config?: NetplayConfig, over: Partial<JoinMessage> = {}): JoinMessage {
  return { t: 'join', v: PROTOCOL_VERSION, room, role, runtime: TEST_RUNTIME, ...(config ? { config } : {}), ...over };
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

/** A connection to the relay; `localAddress` picks the loopback address it comes from (127.0.0.2, ...). */
export async function connect(url: string, localAddress?: string): Promise<TestClient> {
  const ws = new WebSocket(url, { maxPayload: 16 * 1024 * 1024, ...(localAddress ? { localAddress } : {}) });
  const c: TestClient = {
    ws,
    messages: [],
    malformed: [],
    closed: null,
    send: (m) => ws.send(encodeClientMessage(m)),
    sendRaw: (text) => ws.send(text),
    next: (t, match = () => true, from = 0) =>
      waitFor(`a ${t} message`, () => {
        if (c.malformed.length) throw new Error(`the relay sent a malformed message: ${c.malformed[0]}`);
        const m = c.messages.slice(from).find((x) => x.t === t && match(x as never));
        if (!m && c.closed) throw new Error(`closed (${c.closed.code} ${c.closed.reason}) while waiting for ${t}; got ${JSON.stringify(c.messages.map((x) => x.t))}`);
        return m as never;
      }, 60_000, 5),
    of: (t) => c.messages.filter((x) => x.t === t) as never,
    waitClosed: () => waitFor('the connection to close', () => c.closed, 60_000, 5),
    close: () => ws.close(),
  };
  ws.on('message', (data) => {
    try {
      c.messages.push(parseRelayMessage(String(data)));
    } catch (e) {
      c.malformed.push(`${(e as Error).message} in ${String(data).slice(0, 200)}`);
    }
  });
  ws.on('close', (code, reason) => (c.closed = { code, reason: reason.toString() }));
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return c;
}

/** Connects (from `localAddress`, if given) and joins; waits for `joined`. */
export async function join(url: string, room: string, role: 'player' | 'spectator', config?: NetplayConfig, localAddress?: string): Promise<TestClient> {
  const c = await connect(url, localAddress);
  c.send(joinMessage(room, role, config));
  await c.next('joined');
  return c;
}

/** An input message of player inputs for frames f.. with acks of `players` zeros. */
export function input(f: number, b: number[], players: number, c: [number, string][] = []): ClientMessage {
  return { t: 'input', f, b, ack: new Array<number>(players).fill(0), c, at: f };
}
