import { describe, expect, it } from 'vitest';
import { StallDetector } from './job-queue-watchdog';

const S = 30_000;

describe('StallDetector', () => {
  it('sees no stall while jobs start, however old the oldest due job (a backlog is not a stall)', () => {
    const d = new StallDetector(0, S);
    for (let t = 5_000; t <= 120_000; t += 5_000) {
      d.jobStarted(t - 1_000);
      expect(d.observe(t, t / 1000)).toBe(false);
    }
    expect(d.problem).toBeUndefined();
    expect(d.oldestDueSeconds).toBe(120);
  });

  it('sees no stall while nothing is due for long, however long since a job started', () => {
    const d = new StallDetector(0, S);
    expect(d.observe(600_000, 29)).toBe(false);
    expect(d.observe(605_000, 0)).toBe(false);
    expect(d.problem).toBeUndefined();
  });

  it('replaces the runner once a job has been due and none started for longer than the threshold', () => {
    const d = new StallDetector(0, S);
    d.jobStarted(10_000);
    expect(d.observe(35_000, 31)).toBe(false); // 25 s since the last start
    expect(d.problem).toBeUndefined();
    expect(d.observe(41_000, 37)).toBe(true); // 31 s
    expect(d.problem).toBe('job queue stalled: a job due for 37 s, none started for 31 s');
  });

  it('gives a new runner its own window, and says stalled for as long as no job starts', () => {
    const d = new StallDetector(0, S);
    expect(d.observe(31_000, 31)).toBe(true);
    d.runnerStarted(31_000);
    expect(d.observe(36_000, 36)).toBe(false);
    expect(d.problem).toMatch(/^job queue stalled: a job due for 36 s, none started for 36 s$/);
    expect(d.observe(62_000, 62)).toBe(true);
    d.runnerStarted(62_000);
    // A job starts: the stall is over at once.
    d.jobStarted(63_000);
    expect(d.problem).toBeUndefined();
    expect(d.observe(65_000, 65)).toBe(false);
    expect(d.problem).toBeUndefined();
  });

  it('does not count the time the database did not answer: runners cannot fetch then either', () => {
    const d = new StallDetector(0, S);
    for (let t = 5_000; t <= 60_000; t += 5_000) expect(d.observe(t, undefined)).toBe(false);
    expect(d.oldestDueSeconds).toBeUndefined();
    // Back at 65 s with jobs due for a minute: the runner gets the threshold to fetch them first.
    expect(d.observe(65_000, 60)).toBe(false);
    expect(d.observe(90_000, 85)).toBe(false);
    expect(d.observe(91_000, 86)).toBe(true);
  });
});
