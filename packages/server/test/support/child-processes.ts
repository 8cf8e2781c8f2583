import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

// Every process a test starts goes through spawnTracked, so that a test file that ends with one still
// running fails (no-leftover-processes.ts) instead of leaving it to slow down or confuse later runs.

const live = new Set<ChildProcess>();

export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  live.add(child);
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  return child;
}

/** Kills what is still running and reports it: called after each test file. */
export async function reapLeftovers(): Promise<string[]> {
  const left = [...live].filter((c) => c.exitCode === null && c.signalCode === null);
  const names = left.map((c) => `pid ${c.pid}: ${c.spawnargs.join(' ').slice(0, 160)}`);
  await Promise.all(
    left.map(
      (c) =>
        new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        }),
    ),
  );
  live.clear();
  return names;
}
