// Bundle the action (dist/index.js) and the CLI (dist/cli.js) with ncc: one file each, ESM,
// no node_modules needed at run time. Deterministic: same sources, same bytes.
import ncc from '@vercel/ncc';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildInputsDigest } from './build-inputs.mjs';

const entries = { 'index.js': 'src/action.ts', 'cli.js': 'src/cli.ts' };
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
for (const [out, src] of Object.entries(entries)) {
  const { code, assets } = await ncc(path.resolve(src), { minify: false, sourceMap: false, quiet: true, target: 'es2022', license: '' });
  const name = out === 'cli.js' ? (code.startsWith('#!') ? code : `#!/usr/bin/env node\n${code}`) : code;
  writeFileSync(path.join('dist', out), name);
  for (const [file, asset] of Object.entries(assets ?? {})) {
    const dest = path.join('dist', file);
    mkdirSync(path.dirname(dest), { recursive: true });
    writeFileSync(dest, asset.source);
  }
  console.log(`dist/${out}: ${Buffer.byteLength(name)} bytes${Object.keys(assets ?? {}).length ? `, assets: ${Object.keys(assets).join(', ')}` : ''}`);
}
writeFileSync(path.join('dist', 'build-inputs.sha256'), `${buildInputsDigest('.')}\n`);
