import { afterAll } from 'vitest';
import { reapLeftovers } from './child-processes';

// A test file must stop every process it started, even when its tests fail (its own afterAll hooks
// run before this one). Whatever is left is killed here and fails the file.
afterAll(async () => {
  const left = await reapLeftovers();
  if (left.length) throw new Error(`processes still running after the tests:\n${left.join('\n')}`);
});
