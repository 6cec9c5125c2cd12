/** The legend panel: the scene's legend entries as a list with a drawn swatch per symbol. */
import { traceArrow } from '../scene/arrow-stamp.js';
import type { LegendEntry } from '../scene/legend.js';
import { cssColour } from '../scene/palette.js';
import { el } from './dom.js';

const GROUP_TITLES: Readonly<Record<LegendEntry['group'], string>> = {
  entities: 'entities',
  sight: 'line of sight',
  ground: 'ground',
  overlay: 'overlay',
  weather: 'weather',
  'heat map': 'heat map',
};

/** A 22 × 14 swatch of one symbol. */
function swatch(e: LegendEntry): HTMLCanvasElement {
  const dpr = Math.max(1, window.devicePixelRatio || 1);
  const c = document.createElement('canvas');
  c.width = 22 * dpr;
  c.height = 14 * dpr;
  c.style.width = '22px';
  c.style.height = '14px';
  const g = c.getContext('2d')!;
  g.scale(dpr, dpr);
  const col = cssColour(e.colour);
  g.strokeStyle = col;
  g.fillStyle = col;
  g.lineWidth = 2;
  switch (e.symbol) {
    case 'arrow':
    case 'player':
      if (e.symbol === 'player') {
        g.fillStyle = 'rgba(255,255,255,0.35)';
        g.beginPath();
        g.arc(11, 7, 6.5, 0, 2 * Math.PI);
        g.fill();
        g.strokeStyle = '#ffffff';
        g.lineWidth = 1;
        g.stroke();
        g.fillStyle = col;
      }
      g.beginPath();
      traceArrow(g, 11.5, 7, 15);
      g.fill();
      g.strokeStyle = '#000';
      g.lineWidth = 1;
      g.stroke();
      break;
    case 'ring':
      g.beginPath();
      g.arc(11, 7, 5, 0, 2 * Math.PI);
      g.stroke();
      break;
    case 'line':
      g.beginPath();
      g.moveTo(1, 7);
      g.lineTo(21, 7);
      g.stroke();
      break;
    case 'dashed':
      g.setLineDash([4, 3]);
      g.beginPath();
      g.moveTo(1, 7);
      g.lineTo(21, 7);
      g.stroke();
      break;
    case 'cross':
      g.beginPath();
      g.moveTo(7, 3);
      g.lineTo(15, 11);
      g.moveTo(7, 11);
      g.lineTo(15, 3);
      g.stroke();
      break;
    case 'outline':
      g.globalAlpha = 0.25;
      g.fillRect(2, 2, 18, 10);
      g.globalAlpha = 1;
      g.strokeRect(2, 2, 18, 10);
      break;
    case 'ramp': {
      const cs = e.colours ?? [e.colour];
      const grad = g.createLinearGradient(0, 0, 22, 0);
      cs.forEach((c2, i) => grad.addColorStop(cs.length === 1 ? 0 : i / (cs.length - 1), cssColour(c2)));
      g.fillStyle = grad;
      g.fillRect(0, 1, 22, 12);
      break;
    }
    case 'dot':
      g.beginPath();
      g.arc(11, 7, 3, 0, 2 * Math.PI);
      g.fill();
      break;
    case 'streak':
      g.beginPath();
      g.moveTo(9, 1);
      g.lineTo(13, 13);
      g.stroke();
      break;
    case 'bolt':
      g.beginPath();
      g.moveTo(12, 0);
      g.lineTo(8, 6);
      g.lineTo(13, 7);
      g.lineTo(9, 14);
      g.stroke();
      break;
    case 'diamond':
      g.beginPath();
      g.moveTo(11, 1);
      g.lineTo(16, 7);
      g.lineTo(11, 13);
      g.lineTo(6, 7);
      g.closePath();
      g.fill();
      break;
    case 'chevron':
      g.beginPath();
      g.moveTo(4, 4);
      g.lineTo(11, 9);
      g.lineTo(18, 4);
      g.stroke();
      break;
    case 'puff':
      g.globalAlpha = 0.5;
      g.beginPath();
      g.arc(11, 7, 6, 0, 2 * Math.PI);
      g.fill();
      break;
    case 'label':
      g.font = '10px monospace';
      g.fillText('abc', 2, 11);
      break;
    case 'swatch':
    default:
      g.fillRect(2, 2, 18, 10);
      g.strokeStyle = '#000';
      g.lineWidth = 1;
      g.strokeRect(2.5, 2.5, 17, 9);
  }
  return c;
}

export function fillLegend(box: HTMLElement, entries: readonly LegendEntry[], title: string): void {
  box.replaceChildren();
  box.append(el('h2', '', title));
  let group = '';
  let ul: HTMLUListElement | null = null;
  for (const e of entries) {
    if (e.group !== group || !ul) {
      group = e.group;
      box.append(el('h3', '', GROUP_TITLES[e.group]));
      ul = el('ul');
      box.append(ul);
    }
    const li = el('li', 'entry');
    li.dataset['group'] = e.group;
    li.dataset['colour'] = cssColour(e.colour);
    li.dataset['symbol'] = e.symbol;
    li.append(swatch(e), el('span', 'label', e.label));
    ul.append(li);
  }
}
