/** Floors and cycles of ARCHITECTURE.md, checked by `npm run lint` (type imports included). */
const floor = (name, from, allowed) => ({
  name,
  comment: `${from} may import only ${allowed.join(', ')} (ARCHITECTURE.md: no import from a lower floor to a higher one)`,
  severity: 'error',
  from: { path: `^src/${from}/` },
  to: { path: '^src/', pathNot: allowed.map((a) => `^src/${a}(/|\\.ts$)`) },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No cycle between files, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    floor('core-is-pure', 'core', ['core']),
    floor('read-floor', 'read', ['core', 'read']),
    floor('trust-floor', 'trust', ['core', 'read', 'trust']),
    floor('report-floor', 'report', ['core', 'read', 'trust', 'report']),
    floor('tools-floor', 'tools', ['core', 'read', 'trust', 'report', 'tools']),
    floor('gate-floor', 'gate', ['core', 'read', 'trust', 'report', 'tools', 'gate']),
    floor('cli-floor', 'cli', ['core', 'read', 'trust', 'report', 'tools', 'gate', 'cli', 'version']),
    floor('action-floor', 'action', ['core', 'read', 'trust', 'report', 'tools', 'gate', 'action', 'version']),
    {
      name: 'core-no-io',
      comment: 'The core does no I/O: no node: modules but crypto, no packages but canonicalize.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core', 'npm'], pathNot: '^(crypto|node:crypto|node_modules/canonicalize/)' },
    },
    {
      name: 'version-from-entries',
      comment: 'The version is passed in by the entries (cli/, action/), never imported below them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|action)(/|\\.ts$)' },
      to: { path: '^src/version\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.generated\\.' },
  },
};
