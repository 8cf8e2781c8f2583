// The node flags the built server runs with wherever a user or a check starts it (`npm start`,
// `npm run conformance`, the benchmarks): a small young generation keeps the server near 150 MB under
// streaming exports (ADR 013). Plain JavaScript: scripts/bootstrap.mjs imports it before anything is
// installed.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];
