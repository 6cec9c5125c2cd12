/**
 * A session whose connection ends while the session's last inputs wait in its inbox (a relay, or a program,
 * closing right after the players finished) still ends on the last frame, with the players' hash: the inputs
 * are handled and the frames they confirm are run before it closes. They used to be dropped, which left
 * such a client one or more frames short, with another final hash (a program under load saw one end at frame
 * 299 with a hash of its own). A real relay on loopback and real WebSocket transports.
 */
import { describe, expect, it } from 'vitest';
import { NetplaySession, createSimulation, makeBot, openWorld, scenarioIdentity, simulationFromSettings, type NetplayTransport } from '../../src/index.js';
import { connectWsTransport } from '../../src/node/ws-transport.js';
import { startRelay } from '../../src/node/relay-server.js';

const LAST = 60;

/** A transport that also tells the test when the connection ended. */
function watched(t: NetplayTransport): { transport: NetplayTransport; ended: () => boolean } {
  let ended = false;
  return {
    ended: () => ended,
    transport: {
      send: (x) => t.send(x),
      onMessage: (cb) => t.onMessage(cb),
      onClose: (cb) =>
        t.onClose((r) => {
          ended = true;
          cb(r);
        }),
      close: () => t.close(),
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a session closed with inputs waiting', () => {
  it('a spectator whose relay closes after the last inputs arrived ends on the last frame with the players\' hash', async () => {
    const relay = await startRelay();
    const offered = await openWorld('rugrats-demo');
    const example = createSimulation(offered.world, { players: 2, agents: 6 });
    const config = { world: offered.identity, scenario: scenarioIdentity(example.scenario), settings: { ...example.settings, players: 2 }, keyframeInterval: 600, checkInterval: 10, inputDelay: 2 };
    const session = async (role: 'player' | 'spectator', seat: number, transport: NetplayTransport) => {
      const worlds = [await openWorld('rugrats-demo'), await openWorld('rugrats-demo')];
      return new NetplaySession({ transport, build: (c) => simulationFromSettings(worlds.shift()!.world, c.settings), role, room: 'close', ...(seat === 0 ? { config } : {}), lastFrame: LAST });
    };
    const a = await session('player', 0, connectWsTransport(relay.url));
    const b = await session('player', 1, connectWsTransport(relay.url));
    const w = watched(connectWsTransport(relay.url));
    const s = await session('spectator', -1, w.transport);
    const bots = [makeBot('wander', 3, 0), makeBot('wander', 3, 1)];
    // Everyone plays until the spectator follows; from then on the spectator is not ticked, so what the relay
    // forwards waits in its inbox.
    for (let i = 0; i < 100_000 && !(s.stats.state === 'running' && s.stats.confirmedFrame >= 3); i++) {
      for (const [k, p] of [a, b].entries()) {
        p.setLocalInput(bots[k]!());
        p.tick();
      }
      s.tick();
      await sleep(1);
    }
    const heldAt = s.stats.confirmedFrame;
    expect(heldAt).toBeLessThan(LAST);
    for (let i = 0; i < 100_000 && !(a.stats.confirmedFrame >= LAST && b.stats.confirmedFrame >= LAST); i++) {
      for (const [k, p] of [a, b].entries()) {
        p.setLocalInput(bots[k]!());
        p.tick();
      }
      await sleep(1);
    }
    expect(a.confirmedHash()).toBe(b.confirmedHash());
    // Give the relay time to forward the last inputs, then close it: the spectator's connection ends.
    await sleep(300);
    await relay.close();
    for (let i = 0; i < 10_000 && !w.ended(); i++) await sleep(5);
    expect(w.ended()).toBe(true);
    for (let i = 0; i < 1000 && s.stats.state !== 'closed'; i++) s.tick();
    expect(s.stats.state).toBe('closed');
    expect(s.stats.confirmedFrame).toBe(LAST);
    expect(s.confirmedHash()).toBe(a.confirmedHash());
    for (const x of [a, b]) x.close();
  });
});
