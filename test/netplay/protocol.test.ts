/**
 * The netplay wire protocol's parsers (src/netplay/protocol.ts): every valid message round-trips through its
 * encoder, each kind of malformed message is refused with a ProtocolError naming the field, and random
 * mutations of valid messages are either refused that way or parse to a valid message, never another exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUTTON_MASK,
  encodeClientMessage,
  encodeRelayMessage,
  MAX_CONFIG_LENGTH,
  MAX_KEYFRAME_LENGTH,
  MAX_MESSAGE_LENGTH,
  parseClientMessage,
  parseRelayMessage,
  ProtocolError,
  type ClientMessage,
  type NetplayConfig,
  type RelayMessage,
  type RuntimeIdentity,
} from '../../src/netplay/protocol.js';
import { isPrintable } from '../../src/netplay/printable.js';

const hex16 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((n) => '0x' + n.toString(16).padStart(16, '0'));
const frameNo = fc.integer({ min: 0, max: 0x7fffffff });
const word = fc.integer({ min: 0, max: BUTTON_MASK });
const roomName = fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/);
const base64 = fc.uint8Array({ minLength: 1, maxLength: 60 }).map((b) => Buffer.from(b).toString('base64'));
const keyframe = fc.record({ f: frameNo, hash: hex16, data: base64 });

const config: fc.Arbitrary<NetplayConfig> = fc.record({
  world: fc.record({ kind: fc.constantFrom('rugrats', 'gta'), name: fc.string({ maxLength: 20 }), source: fc.string({ maxLength: 20 }), contentHash: hex16, byteLength: fc.nat() }),
  scenario: fc.record(
    {
      name: fc.string({ maxLength: 10 }),
      version: fc.string({ maxLength: 10 }),
      source: fc.string({ maxLength: 20 }),
      contentHash: hex16,
      modules: fc.array(fc.record({ path: fc.string({ maxLength: 10 }), hash: hex16 }), { maxLength: 3 }),
      packages: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
    },
    { requiredKeys: ['name', 'version', 'source', 'contentHash'] },
  ),
  settings: fc.record({
    scenario: fc.constant('wander'),
    agents: fc.nat(300),
    fieldSeed: fc.nat(),
    ccRandInit: fc.nat(10),
    streamSeed: fc.string({ maxLength: 10 }),
    capacity: fc.integer({ min: 2, max: 4096 }),
    params: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean()), { maxKeys: 3 }),
    players: fc.integer({ min: 1, max: 4 }),
  }),
  checkInterval: fc.integer({ min: 1, max: 600 }),
  keyframeFactor: fc.integer({ min: 1, max: 166 }),
  inputDelay: fc.integer({ min: 0, max: 30 }),
}).map(({ keyframeFactor, ...c }) => ({ ...c, keyframeInterval: c.checkInterval * keyframeFactor }));

const sha256 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const runtime: fc.Arbitrary<RuntimeIdentity> = fc.oneof(
  fc.record({ version: fc.stringMatching(/^[0-9A-Za-z][0-9A-Za-z .+_-]{0,63}$/), kind: fc.constantFrom('files' as const, 'build' as const), hash: sha256 }),
  fc.record({ version: fc.constantFrom('retrosim 1.0.0', '2'), kind: fc.constant('version' as const) }),
);

/** A player's name as the protocol takes it: up to 32 characters, none that `printable` escapes. */
const playerName = fc.string({ maxLength: 32, unit: 'grapheme' }).filter((n) => n.length <= 32 && isPrintable(n));

const inputBody = fc.record({
  f: fc.integer({ min: 1, max: 0x7fffffff }),
  b: fc.array(word, { minLength: 1, maxLength: 32 }),
  ack: fc.array(frameNo, { minLength: 1, maxLength: 4 }),
  c: fc.array(fc.tuple(frameNo, hex16), { maxLength: 4 }),
  at: frameNo,
});

const clientMessage: fc.Arbitrary<ClientMessage> = fc.oneof(
  fc.record(
    { t: fc.constant('join' as const), v: fc.constant(3), room: roomName, role: fc.constantFrom('player' as const, 'spectator' as const), runtime, scenario: hex16, config, name: playerName },
    { requiredKeys: ['t', 'v', 'room', 'role', 'runtime'] },
  ),
  inputBody.map((b) => ({ t: 'input' as const, ...b })),
  fc.record({ t: fc.constant('ping' as const), id: fc.nat() }),
  keyframe.map((k) => ({ t: 'keyframe' as const, ...k })),
  keyframe.map((k) => ({ t: 'state' as const, ...k })),
  fc.record({ t: fc.constant('away' as const), hidden: fc.boolean() }),
);

const relayMessage: fc.Arbitrary<RelayMessage> = fc.oneof(
  fc.tuple(config, roomName, fc.boolean(), fc.nat(3)).map(([c, room, spectator, seat]) => ({
    t: 'joined' as const,
    room,
    role: spectator ? ('spectator' as const) : ('player' as const),
    player: spectator ? -1 : seat % c.settings.players,
    players: c.settings.players,
    config: c,
  })),
  fc.constant({ t: 'start' as const }),
  fc.tuple(inputBody, fc.nat(3)).map(([b, p]) => ({ t: 'input' as const, p, ...b })),
  fc.tuple(fc.option(fc.record({ f: fc.nat(0x7ffffffe), hash: hex16, data: base64 })), fc.array(fc.array(word, { maxLength: 40 }), { minLength: 1, maxLength: 4 })).map(([kf, inputs]) => ({
    t: 'catchup' as const,
    keyframe: kf,
    from: kf ? kf.f + 1 : 1,
    inputs,
  })),
  fc.tuple(fc.nat(3), fc.integer({ min: 1, max: 100_000 }), fc.array(word, { maxLength: 64 })).map(([p, f0, b]) => ({ t: 'left' as const, p, from: f0 + b.length, f0, b })),
  fc.record({ t: fc.constant('changed' as const), p: fc.nat(3), f: fc.integer({ min: 1, max: 0x7fffffff }) }),
  fc.record({ t: fc.constant('pong' as const), id: fc.nat() }),
  fc.tuple(keyframe, fc.nat(3)).map(([k, p]) => ({ t: 'state' as const, p, ...k })),
  fc.record({ t: fc.constant('error' as const), reason: fc.string({ maxLength: 100 }) }),
  fc.record({ t: fc.constant('seats' as const), names: fc.array(fc.option(playerName), { minLength: 1, maxLength: 4 }) }),
  fc.record({ t: fc.constant('away' as const), p: fc.nat(3), hidden: fc.boolean() }),
);

/** A random change to a parsed message: a field removed, replaced by any JSON value, or added; or the text cut. */
function mutations(text: string): fc.Arbitrary<string> {
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    paths.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(JSON.parse(text), []);
  const edit = fc.tuple(fc.constantFrom(...paths), fc.constantFrom('delete', 'replace', 'add'), fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 6 })).map(([path, op, value, key]) => {
    const root = JSON.parse(text) as unknown;
    if (path.length === 0) return JSON.stringify(op === 'replace' ? value : root);
    let parent = root as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (op === 'delete') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else if (op === 'replace') parent[last] = value;
    else if (Array.isArray(parent)) parent.push(value);
    else parent[key] = value;
    return JSON.stringify(root);
  });
  const cut = fc.nat(text.length).map((n) => text.slice(0, n));
  const splice = fc.tuple(fc.nat(text.length), fc.string({ maxLength: 3 })).map(([n, s]) => text.slice(0, n) + s + text.slice(n + 1));
  return fc.oneof(edit, cut, splice);
}

function refusal(f: () => unknown): ProtocolError {
  try {
    f();
  } catch (e) {
    if (e instanceof ProtocolError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('the netplay protocol', () => {
  it('every valid client message round-trips encode → parse (property)', () => {
    fc.assert(fc.property(clientMessage, (m) => {
      expect(parseClientMessage(encodeClientMessage(m))).toEqual(m);
    }), { numRuns: 500 });
  });

  it('every valid relay message round-trips encode → parse (property)', () => {
    fc.assert(fc.property(relayMessage, (m) => {
      expect(parseRelayMessage(encodeRelayMessage(m))).toEqual(m);
    }), { numRuns: 500 });
  });

  it('a mutated message is refused with a ProtocolError or parses to a valid message, never another exception (property)', () => {
    const check = (parse: (t: string) => ClientMessage | RelayMessage, encode: (m: never) => string) => (text: string) => {
      let m: ClientMessage | RelayMessage;
      try {
        m = parse(text);
      } catch (e) {
        expect(e).toBeInstanceOf(ProtocolError);
        expect((e as Error).message).toMatch(/^[a-z]+[\w.[\]]*: /);
        expect((e as Error).message).not.toContain('\n');
        expect(isPrintable((e as Error).message)).toBe(true);
        return;
      }
      expect(parse(encode(m as never))).toEqual(m);
    };
    fc.assert(fc.property(clientMessage.chain((m) => mutations(encodeClientMessage(m))), check(parseClientMessage, encodeClientMessage)), { numRuns: 2000 });
    fc.assert(fc.property(relayMessage.chain((m) => mutations(encodeRelayMessage(m))), check(parseRelayMessage, encodeRelayMessage)), { numRuns: 2000 });
  });

  it('each malformed field is refused with a reason naming it', () => {
    const input = { t: 'input', f: 5, b: [0, 1, 2, 64], ack: [4, 4], c: [], at: 6 };
    expect(refusal(() => parseClientMessage(JSON.stringify(input))).message).toBe('input.b[3]: expected an integer in 0..63, got 64');
    expect(refusal(() => parseClientMessage(JSON.stringify({ ...input, b: [1.5] }))).message).toBe('input.b[0]: expected an integer in 0..63, got 1.5');
    expect(refusal(() => parseClientMessage(JSON.stringify({ ...input, b: [] }))).message).toBe('input.b: expected an array of 1..32 items, got an array of 0');
    expect(refusal(() => parseClientMessage(JSON.stringify({ ...input, b: [1], f: 0 }))).message).toBe('input.f: expected an integer in 1..2147483647, got 0');
    expect(refusal(() => parseClientMessage(JSON.stringify({ ...input, b: [1], extra: 1 }))).message).toBe('input: unknown field "extra"');
    expect(refusal(() => parseClientMessage(JSON.stringify({ t: 'input', f: 1, b: [1], ack: [0], at: 0 }))).message).toBe('input.c: missing');
    expect(refusal(() => parseClientMessage(JSON.stringify({ ...input, b: [1], c: [[10, '0xABCDEF0123456789']] }))).message).toMatch(/^input\.c\[0\]\[1\]: expected a hash/);
    expect(refusal(() => parseClientMessage('{"t":"teleport"}')).message).toBe('message.t: unknown message type "teleport"');
    const rt = '"runtime":{"version":"retrosim 1.0.0","kind":"version"}';
    expect(refusal(() => parseClientMessage('{"t":"join","v":1,"room":"a","role":"player"}')).message).toBe('join.v: expected protocol version 3, got 1');
    expect(refusal(() => parseClientMessage(`{"t":"join","v":3,"room":"a b","role":"player",${rt}}`)).message).toMatch(/^join\.room: expected a room name/);
    expect(refusal(() => parseClientMessage(`{"t":"join","v":3,"room":"a","role":"referee",${rt}}`)).message).toBe('join.role: expected "player" or "spectator", got "referee"');
    expect(refusal(() => parseClientMessage('{"t":"join","v":3,"room":"a","role":"player"}')).message).toBe('join.runtime: missing');
    expect(refusal(() => parseClientMessage('{"t":"join","v":3,"room":"a","role":"player","runtime":{"version":"retrosim 1","kind":"files"}}')).message).toBe('join.runtime.hash: expected a SHA-256 (64 lower-case hex digits), got nothing');
    expect(refusal(() => parseClientMessage(`{"t":"join","v":3,"room":"a","role":"player","runtime":{"version":"retrosim 1","kind":"version","hash":"${'0'.repeat(64)}"}}`)).message).toBe('join.runtime.hash: a runtime of kind "version" names no hash');
    expect(refusal(() => parseClientMessage('{"t":"join","v":3,"room":"a","role":"player","runtime":{"version":"\\u001b[2J","kind":"version"}}')).message).toBe('join.runtime.version: expected a version of letters, digits, spaces and . + _ -, got "\\u001b[2J"');
    expect(refusal(() => parseClientMessage(`{"t":"join","v":3,"room":"a","role":"player",${rt},"scenario":"tag"}`)).message).toBe('join.scenario: expected a hash ("0x" + 16 lower-case hex digits), got "tag"');
    expect(refusal(() => parseClientMessage('{"t":"keyframe","f":600,"hash":"0x0000000000000000","data":"a*=="}')).message).toMatch(/^keyframe\.data: expected non-empty base64/);
    expect(refusal(() => parseClientMessage('not json')).message).toBe('message: not JSON');
    expect(refusal(() => parseClientMessage('[1]')).message).toBe('message: expected an object, got an array of 1');
    expect(refusal(() => parseClientMessage('[['.repeat(50) + ']]'.repeat(50))).message).toMatch(/^message: nested deeper than 8 levels/);
    expect(refusal(() => parseRelayMessage('{"t":"left","p":0,"from":10,"f0":5,"b":[1]}')).message).toMatch(/^left\.f0: /);
  });

  it('a name is bounded and printable in a join and in the relay\'s seats; away is a boolean', () => {
    const rt = '"runtime":{"version":"retrosim 1.0.0","kind":"version"}';
    const join = (name: string) => `{"t":"join","v":3,"room":"a","role":"player",${rt},"name":${JSON.stringify(name)}}`;
    expect(parseClientMessage(join('Ada Lovelace ✓')).t).toBe('join');
    expect(refusal(() => parseClientMessage(join('\u001b[2Jboss'))).message).toBe('join.name: expected a name without control or bidirectional characters, got "\\u001b[2Jboss"');
    expect(refusal(() => parseClientMessage(join('ab\u202ecd'))).message).toMatch(/^join\.name: expected a name without control/);
    expect(refusal(() => parseClientMessage(join('x'.repeat(33)))).message).toBe('join.name: longer than 32 characters (33)');
    expect(refusal(() => parseClientMessage(`{"t":"join","v":3,"room":"a","role":"player",${rt},"name":7}`)).message).toBe('join.name: expected a string, got 7');
    // a relay's names are checked as strictly: a hostile relay cannot put a control character on a page
    expect(parseRelayMessage('{"t":"seats","names":["Ada",null,""]}')).toEqual({ t: 'seats', names: ['Ada', null, ''] });
    expect(refusal(() => parseRelayMessage('{"t":"seats","names":["a\\u0007"]}')).message).toMatch(/^seats\.names\[0\]: expected a name without control/);
    expect(refusal(() => parseRelayMessage('{"t":"seats","names":[]}')).message).toBe('seats.names: expected an array of 1..4 items, got an array of 0');
    expect(refusal(() => parseClientMessage('{"t":"away","hidden":1}')).message).toBe('away.hidden: expected true or false, got 1');
    expect(refusal(() => parseRelayMessage('{"t":"away","p":4,"hidden":true}')).message).toBe('away.p: expected an integer in 0..3, got 4');
  });

  it('the config is checked for shape, players and intervals, and size', () => {
    const c: NetplayConfig = {
      world: { kind: 'rugrats', name: 'r', source: 'builtin:r', contentHash: '0x0000000000000001', byteLength: 10 },
      scenario: { name: 'wander', version: '1', source: 'builtin:wander', contentHash: '0x0000000000000002' },
      settings: { scenario: 'wander', agents: 3, fieldSeed: 1, ccRandInit: 0, streamSeed: 's', capacity: 64, params: {}, players: 2 },
      keyframeInterval: 600,
      checkInterval: 10,
      inputDelay: 2,
    };
    const join = (config: unknown) => JSON.stringify({ t: 'join', v: 3, room: 'r', role: 'player', runtime: { version: 'retrosim 1.0.0', kind: 'version' }, config });
    expect((parseClientMessage(join(c)) as { config: NetplayConfig }).config).toEqual(c);
    expect(refusal(() => parseClientMessage(join({ ...c, settings: { ...c.settings, players: 5 } }))).message).toBe('join.config.settings.players: expected an integer in 1..4, got 5');
    expect(refusal(() => parseClientMessage(join({ ...c, settings: { ...c.settings, players: undefined } }))).message).toBe('join.config.settings.players: expected an integer in 1..4, got nothing');
    expect(refusal(() => parseClientMessage(join({ ...c, checkInterval: 601 }))).message).toBe('join.config.checkInterval: expected an integer in 1..600, got 601');
    // a keyframe is of a check frame, so that the relay can compare it with every player's checksum
    expect(refusal(() => parseClientMessage(join({ ...c, keyframeInterval: 25 }))).message).toBe('join.config.keyframeInterval: expected a multiple of the check interval 10, got 25');
    expect(refusal(() => parseClientMessage(join({ ...c, world: { ...c.world, name: 3 } }))).message).toBe('join.config.world.name: expected a string, got 3');
    expect(refusal(() => parseClientMessage(join({ ...c, scenario: 'wander' }))).message).toBe('join.config.scenario: expected an object, got "wander"');
    const big = { ...c, settings: { ...c.settings, streamSeed: 'x'.repeat(MAX_CONFIG_LENGTH) } };
    expect(refusal(() => parseClientMessage(join(big))).message).toMatch(/^join\.config: longer than 8192 characters as JSON/);
  });

  it('a refusal quotes what was sent with every control character escaped (property)', () => {
    const controls = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(0x202e, 0x2066, 0x2028, 0x200f)), { minLength: 1, maxLength: 8 }).map((cs) => String.fromCharCode(...cs));
    fc.assert(
      fc.property(controls, fc.string({ maxLength: 10 }), (bad, text) => {
        for (const m of [{ t: 'ping', id: text + bad }, { t: 'join', v: 3, room: bad + text, role: 'player', runtime: { version: 'retrosim 1', kind: 'version' } }, { t: bad }]) {
          const e = refusal(() => parseClientMessage(JSON.stringify(m)));
          expect(isPrintable(e.message), e.message).toBe(true);
        }
        expect(isPrintable(refusal(() => parseRelayMessage(JSON.stringify({ t: 'start', [bad]: 1 }))).message)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(refusal(() => parseClientMessage('{"t":"\u009b31m"}')).message).toBe('message.t: unknown message type "\\x9b31m"');
  });

  it('size is checked before parsing: only a keyframe may pass 16 KiB, and not 8 MiB', () => {
    const pad = 'x'.repeat(MAX_MESSAGE_LENGTH);
    const long = refusal(() => parseClientMessage(`{"t":"ping","id":1,"pad":"${pad}"}`));
    expect(long.code).toBe(1009);
    expect(long.message).toMatch(/^message: \d+ characters, more than 16384 \(only a keyframe or a state may be longer\)$/);
    const data = 'AAAA'.repeat(MAX_MESSAGE_LENGTH / 2);
    expect(parseClientMessage(`{"t":"keyframe","f":600,"hash":"0x0000000000000000","data":"${data}"}`)).toMatchObject({ t: 'keyframe', f: 600 });
    const huge = refusal(() => parseClientMessage(`{"t":"keyframe","f":600,"hash":"0x0000000000000000","data":"${'AAAA'.repeat(MAX_KEYFRAME_LENGTH / 4)}"}`));
    expect(huge.code).toBe(1009);
    expect(huge.message).toMatch(/^keyframe: \d+ characters, more than 8388608$/);
  });
});
