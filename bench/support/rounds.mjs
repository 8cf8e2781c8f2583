// Same-run ratios that the machine's changing load does not skew (ADR 051): a baseline and its targets
// are loaded in turn, round after round, after a warm-up of each, so a change in the load of this shared
// machine (±15 % between identical runs) hits them alike and no round measures a server that has just
// started. A target's ratio is the median of its rounds' own ratios, each against the baseline measured in
// the same round.
import { cpuMeter } from './cpu.mjs';
import { postLoad } from './load.mjs';

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * One load of `duration` seconds on `target` (`{ url, pid }`, pid the server process's), with the CPU that
 * process and the database used for it.
 */
export async function measureLoad(target, build, { duration, connections, database }) {
  const cpu = cpuMeter({ serverPid: target.pid, database });
  cpu.start();
  const r = await postLoad(target.url, { connections, duration, withHeaders: true }, build);
  return {
    cpu: cpu.stop(r['2xx']),
    reqPerSec: Math.round(r['2xx'] / duration),
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    failed: r.non2xx + r.errors + r.timeouts,
  };
}

/**
 * Loads `targets` in turn, `rounds` times (the first target is the baseline). A target is
 * `{ key, label, url, pid, bodies, after? }`: `bodies()` is called before each of its loads, outside the
 * measured time, and returns the function that builds a request (`{ body, headers }`); `after()`, when
 * given, runs after each of its loads, also outside it (e.g. to let the work a load queued finish before
 * the next one). Returns, per key, the median round as a row (its rate, latencies and CPU; the answers
 * and failures of all rounds; every round's rate and ratio) and the median ratio.
 */
export async function inTurn(targets, { rounds, duration, warmUp, connections, database }) {
  for (const target of targets) {
    await postLoad(target.url, { connections, duration: warmUp, withHeaders: true }, await target.bodies());
    await target.after?.();
  }
  const measured = new Map(targets.map((t) => [t.key, []]));
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const build = await target.bodies();
      measured.get(target.key).push(await measureLoad(target, build, { duration, connections, database }));
      await target.after?.();
    }
  }
  const baseRounds = measured.get(targets[0].key);
  const result = {};
  for (const target of targets) {
    const all = measured.get(target.key);
    const ratios = all.map((r, i) => r.reqPerSec / (baseRounds[i]?.reqPerSec || 1));
    const byRate = [...all].sort((a, b) => a.reqPerSec - b.reqPerSec);
    const mid = byRate[Math.floor((byRate.length - 1) / 2)];
    result[target.key] = {
      ...mid,
      label: target.label,
      ok: all.reduce((n, r) => n + r.ok, 0),
      failed: all.reduce((n, r) => n + r.failed, 0),
      rates: all.map((r) => r.reqPerSec),
      ratios,
      ratio: median(ratios),
    };
  }
  return result;
}

/** "0.66 / 0.58 / 0.70": each round's ratio. */
export const perRound = (row) => row.ratios.map((v) => v.toFixed(2)).join(' / ');
