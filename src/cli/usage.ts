/** The usage text, from the option tables: every command, or (`receipt-gate COMMAND --help`) that command alone. */
import { COMMON_OPTIONS, type OptionSpec, optionDefault } from './options.js';
import { COMMAND_SPECS } from './registry.js';

const WIDTH = 80;
const COLUMN = 28;

/** Words filled into lines of at most `width` characters, each line indented. */
function fill(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (cur !== '' && indent + cur.length + 1 + word.length > width) {
      lines.push(' '.repeat(indent) + cur);
      cur = word;
    } else cur = cur === '' ? word : `${cur} ${word}`;
  }
  if (cur !== '') lines.push(' '.repeat(indent) + cur);
  return lines;
}

function optionLines(option: OptionSpec): string[] {
  const name = `${option.short ? `-${option.short}, ` : ''}--${option.flag}${option.arg ? ` ${option.arg}` : ''}`;
  const shown = optionDefault(option);
  const help = fill(`${option.help}${shown !== undefined ? `. Default: ${shown}` : ''}`, COLUMN);
  const head = `  ${name}`;
  if (head.length + 1 < COLUMN && help[0]) return [head.padEnd(COLUMN) + help[0].slice(COLUMN), ...help.slice(1)];
  return [head, ...help];
}

export function usageText(only?: string): string {
  const specs = only === undefined ? COMMAND_SPECS : COMMAND_SPECS.filter((c) => c.name === only);
  const out = only === undefined ? ['Usage: receipt-gate <command> [options]', '', 'Commands:'] : [`Usage: receipt-gate ${only} [options]`];
  if (only === undefined)
    for (const c of COMMAND_SPECS) {
      const lines = fill(c.summary, 22);
      out.push(`  ${c.name.padEnd(20)}${(lines[0] ?? '').slice(22)}`, ...lines.slice(1));
    }
  for (const c of specs) {
    out.push('', ...fill(`receipt-gate ${c.name} ${c.synopsis}`, 0).map((l, i) => (i === 0 ? l : `${' '.repeat(20)}${l}`)));
    if (c.about) out.push(...fill(c.about, 2));
    for (const o of c.options) out.push(...optionLines(o));
  }
  out.push(
    '',
    ...COMMON_OPTIONS.flatMap(optionLines),
    '',
    'Exit status: 0 the gate passed (or the command succeeded), 1 the gate or',
    'a tool found a problem in the evidence, 2 usage or configuration (an',
    'output that cannot be written included), 3 an internal error (a bug of',
    'receipt-gate, never a verdict: report it). Colour only on a terminal;',
    'set NO_COLOR to turn it off.',
    '',
  );
  return out.join('\n');
}
