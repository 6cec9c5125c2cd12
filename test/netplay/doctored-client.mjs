// A lying netplay player for tests: a wander bot whose transport doctors what it sends about one frame.
//   node test/netplay/doctored-client.mjs URL ROOM input|checksum|state FRAME LAST_FRAME
// input: the buttons of FRAME are honest when first sent and altered on every resend (the relay's log keeps
// the first and tells the room); checksum: the checksum of FRAME (a multiple of the check interval) is wrong;
// state: its own simulation is one agent's step off from the start (FRAME is unused), a real divergence.
// Joins a room someone else created (the config it offers is ignored); prints one JSON line at the end.
import { RoomBuilder, runNetplayClient } from '../../dist/src/node/netplay-client.js';
import { connectWsTransport } from '../../dist/src/node/ws-transport.js';
import { makeBot } from '../../dist/src/netplay/bots.js';

const [url, room, mode, frameText, lastText] = process.argv.slice(2);
const frame = Number(frameText);
const lastFrame = Number(lastText);
if (!url || !room || !['input', 'checksum', 'state'].includes(mode) || !(frame > 0) || !(lastFrame > 0)) {
  process.stderr.write('usage: doctored-client.mjs URL ROOM input|checksum|state FRAME LAST_FRAME\n');
  process.exit(2);
}

const inner = connectWsTransport(url);
let sentUpTo = 0;
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
      }
      text = JSON.stringify(m);
    }
    inner.send(text);
  },
  onMessage: (cb) => inner.onMessage(cb),
  onClose: (cb) => inner.onClose(cb),
  close: () => inner.close(),
};

const builder = new RoomBuilder();
if (mode === 'state') {
  const build = builder.build.bind(builder);
  builder.build = (config) => {
    const sim = build(config);
    const { Position, Agent } = sim.components;
    for (let e = 0; e < sim.ecs.capacity; e++) {
      if (sim.ecs.has(e, Agent)) {
        Position.x[e] += 1;
        break;
      }
    }
    return sim;
  };
}

const r = await runNetplayClient({
  transport,
  room,
  role: 'player',
  builder,
  bot: (p) => makeBot('wander', 9, p),
  lastFrame,
});
process.stdout.write(JSON.stringify({ player: r.stats.player, confirmedFrame: r.stats.confirmedFrame, error: r.error, desyncs: r.stats.desyncs }) + '\n');
process.exit(0);
