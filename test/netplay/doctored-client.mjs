// A lying netplay player for tests: a wander bot whose transport doctors what it sends.
//   node test/netplay/doctored-client.mjs URL ROOM MODE FRAME LAST_FRAME
// input: the buttons of FRAME are honest when first sent and altered on every resend (the relay's log keeps
// the first and tells the room); checksum: the checksum of FRAME (a multiple of the check interval) is wrong;
// state: its own simulation is one agent's step off from the start (FRAME is unused), a real divergence;
// stall: sends no input past FRAME, yet stays connected (it still pings);
// acks-never: every ack it sends is 0; acks-late: its acks stop FRAME frames before LAST_FRAME; in both it
// keeps its connection open after it is done (until killed);
// keyframe: creates the room (rugrats-demo, 2 seats, keyframes every 60 frames) and sends forged keyframes:
// self-consistent states that never happened (their hash is the forged state's), with honest checksums.
// Joins a room someone else created (the config it offers is ignored) unless it creates it; prints one JSON
// line at the end.
import { RoomBuilder, runNetplayClient } from '../../dist/src/node/netplay-client.js';
import { connectWsTransport } from '../../dist/src/node/ws-transport.js';
import { makeBot } from '../../dist/src/netplay/bots.js';
import { openBuiltinWorld } from '../../dist/src/node/open-world.js';
import { createSimulation } from '../../dist/src/scenarios/builtin.js';
import { scenarioIdentity } from '../../dist/src/scenarios/identity.js';
import { decodeValueBytes, encodeValueBytes } from '../../dist/src/ecs/value-codec.js';
import { base64ToBytes, bytesToBase64 } from '../../dist/src/netplay/base64.js';

const MODES = ['input', 'checksum', 'state', 'stall', 'acks-never', 'acks-late', 'keyframe'];
const [url, room, mode, frameText, lastText] = process.argv.slice(2);
const frame = Number(frameText);
const lastFrame = Number(lastText);
if (!url || !room || !MODES.includes(mode) || !(frame > 0) || !(lastFrame > 0)) {
  process.stderr.write(`usage: doctored-client.mjs URL ROOM ${MODES.join('|')} FRAME LAST_FRAME\n`);
  process.exit(2);
}

// the simulations the session builds, the predicted one last: the forger hashes its forged states on it
const built = [];
const builder = new RoomBuilder();
{
  const build = builder.build.bind(builder);
  builder.build = (config) => {
    const sim = build(config);
    if (mode === 'state') {
      const { Position, Agent } = sim.components;
      for (let e = 0; e < sim.ecs.capacity; e++) {
        if (sim.ecs.has(e, Agent)) {
          Position.x[e] += 1;
          break;
        }
      }
    }
    built.push(sim);
    return sim;
  };
}

/** A keyframe of a state that never happened: the real one with one RNG word flipped, hashed as such. */
function forge(kf) {
  const sim = built[built.length - 1];
  const real = decodeValueBytes(base64ToBytes(kf.data, 'keyframe'), 'keyframe');
  const fake = decodeValueBytes(base64ToBytes(kf.data, 'keyframe'), 'keyframe');
  fake.rng.ccrand.mt[0] = (fake.rng.ccrand.mt[0] ^ 1) >>> 0;
  const keep = sim.save();
  sim.restore(fake);
  const hash = sim.hashHex();
  sim.restore(keep);
  if (hash === kf.hash || real.frame !== kf.f) throw new Error('the forged keyframe is not a different state of its frame');
  return { ...kf, hash, data: bytesToBase64(encodeValueBytes(fake)) };
}

const inner = connectWsTransport(url);
let sentUpTo = 0;
let forged = 0;
const keepOpen = mode === 'acks-never' || mode === 'acks-late';
const transport = {
  send(text) {
    const m = JSON.parse(text);
    if (m.t === 'input') {
      if (mode === 'input') {
        const i = frame - m.f;
        // a resend of FRAME: flip a button the bot never holds together with the others' meaning
        if (i >= 0 && i < m.b.length && sentUpTo >= frame) m.b[i] ^= 0x10;
        sentUpTo = Math.max(sentUpTo, m.f + m.b.length - 1);
      } else if (mode === 'checksum') {
        m.c = m.c.map(([f, h]) => [f, f === frame ? `0x${(BigInt(h) ^ 1n).toString(16).padStart(16, '0')}` : h]);
      } else if (mode === 'stall') {
        if (m.f > frame) return;
        m.b = m.b.slice(0, frame - m.f + 1);
      } else if (mode === 'acks-never') {
        m.ack = m.ack.map(() => 0);
      } else if (mode === 'acks-late') {
        m.ack = m.ack.map((a) => Math.min(a, lastFrame - frame));
      }
      text = JSON.stringify(m);
    } else if (m.t === 'keyframe' && mode === 'keyframe') {
      forged++;
      text = JSON.stringify({ t: 'keyframe', ...forge(m) });
    }
    inner.send(text);
  },
  onMessage: (cb) => inner.onMessage(cb),
  onClose: (cb) => inner.onClose(cb),
  close: () => {
    if (!keepOpen) inner.close();
  },
};

let config;
if (mode === 'keyframe') {
  const opened = await openBuiltinWorld('rugrats-demo');
  const sim = createSimulation(opened.world, { players: 2, agents: 5 });
  config = { world: opened.identity, scenario: scenarioIdentity(sim.scenario), settings: { ...sim.settings, players: 2 }, keyframeInterval: 60, checkInterval: 10, inputDelay: 2 };
}

const r = await runNetplayClient({
  transport,
  room,
  role: 'player',
  builder,
  bot: (p) => makeBot('wander', 9, p),
  lastFrame,
  ...(config ? { config } : {}),
});
process.stdout.write(JSON.stringify({ player: r.stats.player, confirmedFrame: r.stats.confirmedFrame, error: r.error, desyncs: r.stats.desyncs, forged }) + '\n');
if (keepOpen) setInterval(() => {}, 1 << 30);
else process.exit(0);
