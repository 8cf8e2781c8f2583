// Development entry used by `npm run dev`: bundle the server, then run it in this process.
// node --watch restarts this script whenever src/ changes.
import { execFileSync } from 'node:child_process';

execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
await import('./dist/main.js');
