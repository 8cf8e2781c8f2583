import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { servingLoad } from './serving-load';

/** A server whose requests the test starts and ends, on a clock the test moves. */
function harness(atLeast = 16, windowMs = 250) {
  const server = new EventEmitter();
  let t = 0;
  const load = servingLoad(server, atLeast, windowMs, () => t);
  const open: EventEmitter[] = [];
  return {
    load,
    at: (ms: number) => {
      t = ms;
    },
    start(n = 1) {
      for (let i = 0; i < n; i++) {
        const res = new EventEmitter();
        open.push(res);
        server.emit('request', {}, res);
      }
    },
    end(n = 1) {
      for (const res of open.splice(0, n)) res.emit('close');
    },
  };
}

describe('servingLoad', () => {
  it('counts a steady surge as busy, though the count drops to zero whenever a batch of answers goes out', () => {
    const h = harness();
    // 32 requests at once, answered together every 10 ms and sent again right after, for 1 s.
    for (let ms = 0; ms < 1000; ms += 10) {
      h.at(ms);
      h.start(32);
      h.at(ms + 9.9);
      h.end(32);
    }
    h.at(1000);
    expect(h.load.busy()).toBe(true);
    expect(h.load.average()).toBeGreaterThan(28);
  });

  it('stays quiet at a steady rate, even through a stall that lets 20 requests pile up for an instant', () => {
    const h = harness();
    // 200 requests a second, each answered in 10 ms: two in flight on average.
    let ms = 0;
    for (; ms < 1000; ms += 5) {
      h.at(ms);
      h.start();
      h.at(ms + 4);
      h.end();
    }
    expect(h.load.busy()).toBe(false);
    // A 100 ms stall: 20 arrive and none is answered until it ends, then all go at once.
    for (let i = 0; i < 20; i++) {
      h.at(ms + i * 5);
      h.start();
    }
    h.at(ms + 100);
    expect(h.load.busy()).toBe(false);
    h.end(20);
    expect(h.load.busy()).toBe(false);
  });

  it('is busy once the surge has lasted a moment, and quiet again soon after it ends', () => {
    const h = harness();
    h.at(0);
    h.start(40);
    h.at(50);
    expect(h.load.busy()).toBe(false);
    h.at(300);
    expect(h.load.busy()).toBe(true);
    h.end(40);
    h.at(400);
    expect(h.load.busy()).toBe(true);
    h.at(1200);
    expect(h.load.busy()).toBe(false);
    expect(h.load.average()).toBeLessThan(1);
  });
});
