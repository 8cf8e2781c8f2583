// `npm run dev`: the API server (rebuilt and restarted on change) plus Vite's dev server with hot
// reload, which proxies /api to the API. Open http://localhost:5173/.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const children = [];
const start = (cmd, args, cwd) => {
  const child = spawn(cmd, args, { cwd, stdio: 'inherit', env: process.env });
  children.push(child);
  child.on('exit', (code) => {
    for (const c of children) if (c !== child) c.kill('SIGTERM');
    process.exit(code ?? 0);
  });
};

start(
  process.execPath,
  ['--watch-path=src', '--watch-path=../shared/src', 'dev-server.mjs'],
  path.join(root, 'packages/server'),
);
start(bin('vite'), [], path.join(root, 'packages/web'));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const c of children) c.kill(signal);
  });
}
