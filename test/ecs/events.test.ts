import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/ecs/events.js';

describe('event bus', () => {
  it('delivers typed events to listeners and wildcard listeners, in subscription order', () => {
    const bus = createEventBus();
    const got: string[] = [];
    bus.on('sound', (e) => got.push(`sound ${e.name}@${e.frame}`));
    bus.on('*', (type, e) => got.push(`* ${String(type)} ${(e as { frame: number }).frame}`));
    bus.emit('sound', { name: 'se236', frame: 4 });
    bus.emit('flash', { frame: 5, intensity: 1 });
    expect(got).toEqual(['sound se236@4', '* sound 4', '* flash 5']);
  });

  it('gives each simulation its own bus', () => {
    const a = createEventBus();
    const b = createEventBus();
    let n = 0;
    a.on('death', () => n++);
    b.emit('death', { frame: 1, entity: 2 });
    expect(n).toBe(0);
  });
});
