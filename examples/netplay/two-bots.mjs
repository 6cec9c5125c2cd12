// Two bot players and a referee play one world through a relay started in this program, for 300 frames:
// every client ends on the same confirmed frame and hash, and the players' session replays are the same bytes
// and verify. Run: node two-bots.mjs
import {
  NetplaySession,
  connectWsTransport,
  createSimulation,
  makeBot,
  nodeRuntimeIdentity,
  openWorld,
  scenarioIdentity,
  simulationFromSettings,
  startRelay,
  verifyReplay,
} from 'retrosim';

const WORLD = 'rugrats-demo';
const FRAMES = 300;

// The relay: loopback, any free port. `retrosim relay` runs the same thing as a command.
const relay = await startRelay();

// What the room plays, given by its first player: the world, the scenario, its settings with the seats.
const offered = await openWorld(WORLD);
const example = createSimulation(offered.world, { players: 2, agents: 20 });
const config = {
  world: offered.identity,
  scenario: scenarioIdentity(example.scenario),
  settings: { ...example.settings, players: 2 },
  keyframeInterval: 600,
  checkInterval: 10,
  inputDelay: 2,
};

// A client: its session builds two simulations (predicted and confirmed), each on a world of its own.
async function client(role, hands) {
  const worlds = [await openWorld(WORLD), await openWorld(WORLD)];
  const session = new NetplaySession({
    transport: connectWsTransport(relay.url),
    build: (c) => simulationFromSettings(worlds.shift().world, c.settings),
    role,
    room: 'example',
    ...(role === 'player' && hands === 0 ? { config } : {}),
    lastFrame: FRAMES,
    // this runtime's version and the hash of its files: the relay seats only clients of the room's runtime
    runtime: nodeRuntimeIdentity(),
  });
  session.on('desync', (r) => console.error(`desync at frame ${r.frame}, player ${r.players.join(', ')}`));
  return { session, bot: hands === null ? null : makeBot('wander', 7, hands) };
}

const clients = [await client('player', 0), await client('player', 1), await client('spectator', null)];

// One tick each per display frame; here as fast as the messages go (a real client paces ticks at 60 Hz).
const done = () => clients.every(({ session }) => session.stats.confirmedFrame >= FRAMES || session.stats.state === 'closed');
while (!done()) {
  for (const { session, bot } of clients) {
    if (bot) session.setLocalInput(bot());
    session.tick();
  }
  await new Promise((resolve) => setTimeout(resolve, 1));
}

const [a, b, referee] = clients.map(({ session }) => session);
const replay = a.replay();
const other = b.replay();
const result = {
  frames: a.stats.confirmedFrame,
  finalHash: a.confirmedHash(),
  sameHash: a.confirmedHash() === b.confirmedHash() && b.confirmedHash() === referee.confirmedHash(),
  rollbacks: a.stats.rollbacks + b.stats.rollbacks,
  desyncs: a.stats.desyncs + b.stats.desyncs + referee.stats.desyncs,
  replaysIdentical: Buffer.compare(Buffer.from(replay), Buffer.from(other)) === 0,
};
// The session replay verifies like any other: rebuilt on a fresh world.
const fresh = await openWorld(WORLD);
result.verified = verifyReplay(replay, { world: fresh }).ok;
console.log(JSON.stringify(result));

for (const { session } of clients) session.close();
await relay.close();
