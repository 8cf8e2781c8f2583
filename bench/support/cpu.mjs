// Where a load's CPU goes (issue 33/34: "show where the time goes"): the CPU time the server process, the
// PostgreSQL processes serving the bench's database (with the cluster's WAL writer, checkpointer and
// background writer, which write for them) and this process (the load generator) used, read from
// /proc on Linux when PostgreSQL runs on this machine. Elsewhere every figure is undefined and the
// benches print none.
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc's CPU times are in these ticks. */
const TICKS_PER_SECOND = 100;

function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the state, field 3: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** PostgreSQL's processes that work for `database`: its backends and the cluster's WAL and buffer writers. */
function postgresPids(database) {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      const cmd = commandLine(pid);
      if (!cmd.startsWith('postgres: ')) return false;
      return cmd.includes(` ${database} `) || /: (walwriter|checkpointer|background writer)\b/.test(cmd);
    });
}

const available = (() => {
  try {
    readdirSync('/proc/self');
    return true;
  } catch {
    return false;
  }
})();

/**
 * A CPU meter for one measured load: `start()` before it, `stop(requests)` after; then CPU µs per request
 * for the server, the database and the load generator. A backend that starts during the load counts from
 * zero; one that ends during it loses its share (the pools keep theirs open, so that is rare).
 */
export function cpuMeter({ serverPid, database }) {
  let before;
  const read = () => {
    const pg = new Map(postgresPids(database).map((pid) => [pid, processCpuMs(pid)]));
    return { server: processCpuMs(serverPid), pg, load: process.cpuUsage() };
  };
  return {
    start() {
      if (available) before = read();
    },
    /** CPU µs per request of each side, or undefined when /proc could not tell. */
    stop(requests) {
      if (!before || requests === 0) return undefined;
      const after = read();
      let pgMs = 0;
      for (const [pid, ms] of after.pg) pgMs += ms - (before.pg.get(pid) ?? 0);
      const load = process.cpuUsage(before.load);
      const perRequest = (ms) => Math.round((ms * 1000) / requests);
      return {
        server: perRequest(after.server - before.server),
        database: after.pg.size > 0 ? perRequest(pgMs) : undefined,
        load: perRequest((load.user + load.system) / 1000),
      };
    },
  };
}
