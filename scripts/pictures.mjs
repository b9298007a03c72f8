// The README's pictures, made from the committed rendered outputs (__tests__/__outputs__/): the failing
// demo's job summary and one of its annotations, as GitHub shows them, rendered to PNG with headless
// Chromium. Not part of the build: run it after the outputs change (`node scripts/pictures.mjs`;
// needs `chromium` on the PATH, e.g. Debian's package). Writes docs/images/*.png.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outputs = path.join(root, '__tests__/__outputs__');
const images = path.join(root, 'docs/images');

const htmlText = (text) =>
  text
    .replace(/&(?!#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/** The inline Markdown the summary uses: code, bold, links; entities are kept as written. */
const inline = (text) =>
  htmlText(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '<a href="$2">$1</a>');

/** The block Markdown the summary uses: headings, paragraphs, lists and tables. */
function markdown(text) {
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) out.push(`<h${heading[1].length}>${inline(heading[2])}</h${heading[1].length}>`);
    else if (line.startsWith('- ')) {
      out.push('<ul>');
      for (; i < lines.length && lines[i].startsWith('- '); i++) out.push(`<li>${inline(lines[i].slice(2))}</li>`);
      out.push('</ul>');
      i--;
    } else if (line.startsWith('|')) {
      const rows = [];
      for (; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
      i--;
      const cells = (row) =>
        row
          .slice(1, -1)
          .split(' | ')
          .map((c) => c.trim());
      out.push('<table><thead><tr>', ...cells(rows[0]).map((c) => `<th>${inline(c)}</th>`), '</tr></thead><tbody>');
      for (const row of rows.slice(2)) out.push('<tr>', ...cells(row).map((c) => `<td>${inline(c)}</td>`), '</tr>');
      out.push('</tbody></table>');
    } else if (line.trim() !== '') out.push(`<p>${inline(line)}</p>`);
  }
  return out.join('\n');
}

const STYLE = `body{font-family:"DejaVu Sans",sans-serif;font-size:13px;
color:#1f2328;margin:0;padding:24px;background:#fff;width:1100px}h2{font-size:20px;border-bottom:1px solid #d1d9e0;padding-bottom:6px}
h3{font-size:16px}a{color:#0969da;text-decoration:none}table{border-collapse:collapse;margin:8px 0}
th,td{border:1px solid #d1d9e0;padding:5px 12px;text-align:left}tr:nth-child(2n){background:#f6f8fa}
code{background:#eff1f3;padding:2px 4px;border-radius:4px;font-size:12px;font-family:"DejaVu Sans Mono",monospace}ul{padding-left:22px}li{margin:4px 0}
.frame{border:1px solid #d1d9e0;border-radius:6px;padding:8px 20px}
.ann{border:1px solid #d1d9e0;border-radius:6px;width:1000px;font-size:13px}
.ann .file{background:#f6f8fa;border-bottom:1px solid #d1d9e0;padding:8px 12px;font-family:"DejaVu Sans Mono",monospace}
.ann .body{border-left:4px solid #cf222e;margin:10px 12px;padding:4px 12px}.ann .title{font-weight:600;color:#cf222e}
.ann .msg{font-family:"DejaVu Sans Mono",monospace;white-space:pre-wrap;margin-top:4px}`;

function shoot(name, body, height) {
  const dir = mkdtempSync(path.join(tmpdir(), 'receipt-gate-pictures-'));
  try {
    const html = path.join(dir, 'page.html');
    writeFileSync(html, `<!doctype html><meta charset="utf-8"><style>${STYLE}</style>${body}`);
    const png = path.join(images, name);
    const r = spawnSync(
      'chromium',
      ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', `--window-size=1148,${height}`, `--screenshot=${png}`, html],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`chromium failed (${r.status}): ${r.stderr}`);
    console.log(`wrote ${path.relative(root, png)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The summary down to the calls table (the rest repeats what the picture already shows).
const summary = readFileSync(path.join(outputs, 'demo-failing.summary.md'), 'utf8');
shoot('job-summary.png', `<div class="frame">${markdown(summary.split('\n### Calls')[0])}</div>`, 580);

const [first] = JSON.parse(readFileSync(path.join(outputs, 'demo-failing.annotations.json'), 'utf8'));
shoot(
  'annotation.png',
  `<div class="ann"><div class="file">${htmlText(first.path)}, line ${first.line}</div><div class="body"><div class="title">✖ ${htmlText(first.title)}</div><div class="msg">${htmlText(first.message)}</div></div></div>`,
  190,
);
