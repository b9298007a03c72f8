/**
 * Node built-ins that cost milliseconds to load and that most runs never use, loaded where first
 * used instead of when the bundle starts: `node:child_process` (~7.5 ms: git, only for a policy or
 * trust read at a commit) and `node:zlib` (~3 ms: gzip and CRC-32, only for bundles, gzipped
 * exports and the cache). Measured in BENCHMARKS.md, "Issue 44, twenty-fifth stop: built-ins loaded
 * where first used". `process.getBuiltinModule` loads a built-in once and returns it after.
 */
export const childProcess = (): typeof import('node:child_process') => process.getBuiltinModule('node:child_process');

export const zlib = (): typeof import('node:zlib') => process.getBuiltinModule('node:zlib');
