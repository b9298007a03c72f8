// The strict reader against JSON.parse on the same bytes, in a fresh process (no other heap).
// Usage: node bench/strict.mjs <strict-json module> <json file>
import { readFileSync } from 'node:fs';
import { visit } from 'jsonc-parser';

const [modulePath, file] = process.argv.slice(2);
const { parseStrict, scan } = await import(modulePath);
const text = readFileSync(file, 'utf8');
const opts = { maxDepth: 64, maxKeys: 10000, collect: [['observed_tool_decisions']] };
const median = (fn) => {
  const xs = [];
  for (let i = 0; i < 21; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return xs.sort((a, b) => a - b)[10];
};
if (!parseStrict(text, opts).ok) throw new Error('the sample must be strict JSON');
const parse = median(() => JSON.parse(text));
const strict = median(() => parseStrict(text, opts));
const full = median(() => scan(text, opts));
const jsonc = median(() => visit(text, {}));
console.log(JSON.stringify({ parse, strict, full, jsonc }));
