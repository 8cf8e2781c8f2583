// `npm run bench [name]`: runs every bench/*.bench.mjs (or the one named) one after another, so
// figures are never taken while another benchmark loads the machine. Each prints its own report.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv[2];
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort();
const selected = wanted ? all.filter((f) => f.startsWith(wanted)) : all;
if (selected.length === 0) {
  console.error(`No benchmark matches '${wanted}'. Available: ${all.join(', ') || '(none)'}`);
  process.exit(2);
}
let failed = 0;
for (const file of selected) {
  console.info(`\n=== ${file} ===`);
  const r = spawnSync(process.execPath, [path.join(dir, file), ...process.argv.slice(3)], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
