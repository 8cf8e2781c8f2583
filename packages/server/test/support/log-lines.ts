// The app's log lines in memory (buildApp's `logStream`), parsed: for tests of what the server logs.

export type LogLine = { level: number; msg: string; [key: string]: unknown };

/** pino's levels: 40 warn, 50 error, 60 fatal. */
export const LEVEL = { info: 30, warn: 40, error: 50 } as const;

export function memoryLog() {
  const lines: LogLine[] = [];
  return {
    lines,
    stream: {
      write(chunk: string) {
        for (const line of chunk.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      },
    },
    /** Lines at error level or above. */
    errors: () => lines.filter((l) => l.level >= LEVEL.error),
  };
}
