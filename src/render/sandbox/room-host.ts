/**
 * What "Play together" asks of the page, made from the page's parts: the world and settings on screen, the
 * room's world opened (a catalog world by its source, or the file shown when its bytes are the room's) with
 * two fresh copies for the session, the room's simulation shown with the camera on the page's own seat, the
 * browser's WebSocket and random numbers.
 */
import type { NetplayConfig } from '../../netplay/protocol.js';
import { scenarioIdentity } from '../../scenarios/identity.js';
import type { WorldView } from '../pixi/world-view.js';
import type { RoomControlHost } from './room-control.js';
import { roomWorld } from './room-config.js';
import { SandboxSession } from './session.js';
import type { ShownWorld } from './shown-world.js';
import { openerOf } from './world-sources.js';
import { webSocketTransport } from './ws-transport.js';

export interface RoomPageParts {
  shown: ShownWorld;
  /** Shows a room's session (null: the page's own world again). */
  showRoom(session: SandboxSession | null): void;
  view(): WorldView | null;
}

export function roomHost(p: RoomPageParts): RoomControlHost {
  return {
    shownRun: () => {
      const s = p.shown.session;
      return s ? { world: s.opened.identity, scenario: scenarioIdentity(s.sim.scenario), settings: s.sim.settings } : null;
    },
    prepare: async (config: NetplayConfig) => {
      const w = roomWorld(config, p.shown.session?.opened.identity ?? null);
      if (w.kind === 'catalog' && p.shown.source?.catalogId !== w.id) await p.shown.openCatalog(w.id);
      const open = openerOf(p.shown.source!, p.shown.tables);
      return [await open(), await open()];
    },
    show: (sim, opened, seat, seats) => {
      p.showRoom(SandboxSession.over(opened, sim));
      const v = p.view();
      if (v) {
        v.you = sim.players[seat] ?? sim.player;
        v.roomSeats = seats;
      }
    },
    ended: () => p.showRoom(null),
    connect: webSocketTransport,
    pageAddress: () => location.origin + location.pathname,
    random: (b) => crypto.getRandomValues(b),
  };
}
