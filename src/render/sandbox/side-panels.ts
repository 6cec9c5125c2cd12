/**
 * The side panel's parts and the timeline, brought up to date from the view, the session and the inspection:
 * the inspector, the legend (rebuilt when what it lists changes), the overview inset and the replay timeline.
 */
import type { WorldView } from '../pixi/world-view.js';
import { legendFor, type LegendContext, type LegendEntry } from '../scene/legend.js';
import type { Inspection } from './inspection.js';
import { InspectorPanel } from './inspector-panel.js';
import { fillLegend } from './legend-panel.js';
import { insetSize, OverviewMap } from './overview-map.js';
import type { SandboxSession } from './session.js';
import { TimelineBar } from './timeline-bar.js';

/** The legend's context from the view: what is drawn now. */
export function legendContext(v: WorldView, inspection: Inspection): LegendContext {
  const sel = inspection.selection;
  const players = v.sim.players.length;
  return {
    ...(players > 1 ? { seats: { you: Math.max(0, v.sim.players.indexOf(v.you)), names: v.roomSeats()?.names ?? [], players } } : {}),
    falling: v.fallingSeen,
    plannedPath: v.planned.length >= 4,
    overlay: v.overlayVisible,
    sight: v.showSight && v.rays !== 'off',
    selectedAgent: sel?.kind === 'entity' && (v.probe.count > 0 || v.probe.range > 0),
    selectedTile: sel?.kind === 'tile',
    ambience: v.ambience,
    weatherKinds: v.weatherSeen,
    heatMax: v.heatOn && v.heat.grid ? v.heat.grid.max : v.heatOn ? 0 : null,
    raster: v.raster,
  };
}

export interface SidePanelElements {
  side: HTMLElement;
  inspector: HTMLElement;
  legend: HTMLElement;
  minimap: HTMLCanvasElement;
  marks: HTMLElement;
}

export class SidePanels {
  readonly inspector: InspectorPanel;
  readonly timeline: TimelineBar;
  readonly overview: OverviewMap;
  /** The legend's entries as listed now. */
  legendEntries: LegendEntry[] = [];
  private legendKey = '';

  constructor(private readonly el: SidePanelElements) {
    this.inspector = new InspectorPanel(el.inspector);
    this.timeline = new TimelineBar(el.marks);
    this.overview = new OverviewMap(el.minimap);
  }

  /** A new view, or the panel's width changed: the inset is drawn again for it. */
  showWorld(v: WorldView): void {
    this.overview.setWorld(v.raster, v.rect, insetSize(this.el.side.clientWidth));
    this.timeline.invalidate();
  }

  /** The legend is listed again on the next update (what it lists may have changed). */
  relist(): void {
    this.legendKey = '';
  }

  /** The legend shown or hidden. */
  showLegend(on: boolean): void {
    this.el.legend.hidden = !on;
  }

  update(v: WorldView, s: SandboxSession, inspection: Inspection, legendOn: boolean): void {
    const sel = inspection.selection;
    const p = v.probe;
    this.inspector.update(inspection.hover, v.plane, {
      tile: inspection.tile,
      entity: inspection.entity,
      sees: sel?.kind === 'entity' && p.from === sel.id ? { ...p.lists(), range: p.range } : null,
      trail: v.trailOn,
      canSend: s.canSend,
    }, { world: v.sim.world, player: v.sim.player });
    const ctx = legendContext(v, inspection);
    const key = `${legendOn}:${ctx.falling}:${ctx.plannedPath}:${JSON.stringify(ctx.seats ?? null)}:${ctx.overlay}:${ctx.sight}:${ctx.selectedAgent}:${ctx.selectedTile}:${[...v.weatherSeen].sort().join(',')}:${ctx.heatMax}`;
    if (key !== this.legendKey) {
      this.legendKey = key;
      this.legendEntries = legendFor(v.sim.world, ctx);
      fillLegend(this.el.legend, this.legendEntries, `legend: ${v.sim.world.kind} ${v.sim.world.name}`);
    }
    this.showLegend(legendOn);
    this.overview.draw(v.camera.visibleRect(), v.playerPosition());
    if (s.mode === 'replay' && s.replay) {
      this.timeline.update({ length: s.replayLength, keyframes: s.replay.keyframes.map((k) => k.frame), divergence: s.divergence, checked: s.check?.frame ?? 0 });
    } else {
      const t = s.timeline;
      this.timeline.update(t ? { length: t.end, keyframes: t.keyframes, divergence: -1, checked: 0, live: true } : null);
    }
  }
}
