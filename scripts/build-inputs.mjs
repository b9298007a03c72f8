// The digest of everything dist/ is built from (sources, schemas, lockfile, build settings). The
// build writes it to dist/build-inputs.sha256; the test suite refuses to run end-to-end tests
// against a dist/ built from other inputs (a stale bundle), without paying for a rebuild.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['src', 'schemas'];
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs'];

function walk(root, dir, out) {
  for (const ent of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${ent.name}`;
    if (ent.isDirectory()) walk(root, rel, out);
    else if (ent.isFile()) out.push(rel);
  }
}

export function buildInputsDigest(root) {
  const files = [...FILES];
  for (const r of ROOTS) walk(root, r, files);
  files.sort();
  const h = createHash('sha256');
  for (const f of files) {
    // Line endings never count: a checkout with CRLF builds the same bundle.
    const text = readFileSync(path.join(root, f), 'utf8').replace(/\r\n/g, '\n');
    h.update(`${f}\0${text.length}\0${text}\0`);
  }
  return `sha256:${h.digest('hex')}`;
}
