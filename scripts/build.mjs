// Bundle the action (dist/index.js) and the CLI (dist/cli.js) with ncc: one file each, ESM,
// no node_modules needed at run time. Deterministic: same sources, same bytes.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ncc from '@vercel/ncc';
import { buildInputsDigest } from './build-inputs.mjs';
import { publicGood } from './gen-trusted-root.mjs';

// Each entry in its own folder with its own chunks (the lazily loaded Octokit and Sigstore code):
// two builds' chunks share names (434.index.js…) but not contents, so they never share a folder.
// The reading thread too (it loads the Sigstore code when it checks bundles by identity): both
// entries start it from dist/read-worker.js, a launcher of dist/read-worker/index.js.
const entries = { 'index.js': 'src/action.ts', 'cli/index.js': 'src/cli.ts', 'read-worker/index.js': 'src/gate/read-worker.ts' };

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
for (const [out, src] of Object.entries(entries)) {
  const { code, assets } = await ncc(path.resolve(src), { minify: false, sourceMap: false, quiet: true, target: 'es2024', license: '' });
  const dir = path.join('dist', path.dirname(out));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join('dist', out), code);
  for (const [file, asset] of Object.entries(assets ?? {})) {
    const dest = path.join(dir, file);
    mkdirSync(path.dirname(dest), { recursive: true });
    writeFileSync(dest, asset.source);
  }
  console.log(
    `dist/${out}: ${Buffer.byteLength(code)} bytes${Object.keys(assets ?? {}).length ? `, assets: ${Object.keys(assets).join(', ')}` : ''}`,
  );
}
// The CLI's command: a two-line launcher of its bundle (what `bin` and `node dist/cli.js` run).
writeFileSync('dist/cli.js', "#!/usr/bin/env node\nimport './cli/index.js';\n");
// The reading thread's entry, what both bundles start (gate/readers.ts looks for it beside them).
writeFileSync('dist/read-worker.js', "import './read-worker/index.js';\n");
// The third-party licences of everything the bundles can contain: every production dependency in
// the lockfile (the platform Node binaries, optional and never bundled, are left out). ncc's own
// --license lists only the last chunk's packages when the bundle is split, so it is not used.
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const licences = [];
for (const [where, pkg] of Object.entries(lock.packages)) {
  if (where === '' || pkg.dev || pkg.optional || !where.startsWith('node_modules/')) continue;
  const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const file = existsSync(where) ? readdirSync(where).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f)) : undefined;
  const text = file
    ? readFileSync(path.join(where, file), 'utf8').trim()
    : `(no licence file in the package; package.json says ${pkg.license ?? 'nothing'})`;
  licences.push(`${name}\n${pkg.license ?? ''}\n${text}\n`);
}
licences.sort();
writeFileSync(path.join('dist', 'licenses.txt'), licences.join('\n'));
console.log(`dist/licenses.txt: ${licences.length} packages`);
// Where the shipped Sigstore public-good trusted root came from (it is inside the bundles' keyless chunk).
writeFileSync(path.join('dist', 'trusted-root.origin.json'), `${JSON.stringify(publicGood().origin, null, 2)}\n`);
writeFileSync(path.join('dist', 'build-inputs.sha256'), `${buildInputsDigest('.')}\n`);
