/** `receipt-gate attest-bundle`: attest an evidence bundle as its producer (upstream's `assay evidence attest`). */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { outputIn } from '../../gate/settings/paths.js';
import { UsageError } from '../../gate/settings/types.js';
import { sidecarOf } from '../../read/formats.js';
import { attestBundle as attest } from '../../tools/attest-bundle.js';
import { writeNew } from '../../tools/write.js';
import { type Command, EXIT, findingLines, say, unwritable, wroteNothing } from '../command.js';
import { readInputs, readSigningKey } from '../files.js';
import { LIMITS, type OptionSpec, parseFlags } from '../options.js';
import { limitsOf } from './shared.js';

const OPTIONS = [
  { flag: 'key', kind: 'string', arg: 'FILE', help: "the producer's Ed25519 private key (PKCS#8 PEM)" },
  { flag: 'predicate-only', kind: 'boolean', help: "write upstream's evidence-bundle/v1 predicate alone (JSON), no key needed" },
  {
    flag: 'output',
    kind: 'string',
    arg: 'FILE',
    help: 'where it goes. Default: BUNDLE.intoto.jsonl (--predicate-only: standard output)',
  },
  ...LIMITS,
] as const satisfies readonly OptionSpec[];

const TOOL = 'attest-bundle';

export const attestBundle: Command = {
  spec: {
    name: 'attest-bundle',
    synopsis: '(--key FILE | --predicate-only) [--output FILE] BUNDLE',
    summary: "attest an evidence bundle as its producer (what upstream's assay evidence attest writes)",
    about:
      'verifies BUNDLE, makes the evidence-bundle/v1 Statement for its exact bytes and writes it, signed (DSSE, Ed25519), as one line to BUNDLE.intoto.jsonl; never overwrites a file. With --predicate-only, writes the predicate alone (for actions/attest predicate-path) to --output or standard output',
    options: OPTIONS,
  },
  async run(ctx) {
    const { flags, rest, help } = parseFlags(ctx.argv, OPTIONS);
    if (help) return 'help';
    const predicateOnly = flags['predicate-only'] ?? false;
    if (predicateOnly && flags.key) throw new UsageError('conflict', 'attest-bundle: --predicate-only writes no signature: no --key');
    if (!predicateOnly && !flags.key)
      throw new UsageError('missing', 'attest-bundle: --key FILE is required (or --predicate-only for actions/attest)');
    const [name, ...more] = rest;
    if (name === undefined || more.length > 0) throw new UsageError('value', 'attest-bundle: exactly one BUNDLE (.tar.gz) is required');
    const bundle = path.resolve(ctx.cwd, name);
    const target = flags.output ?? (predicateOnly ? null : sidecarOf(name));
    const output = target === null ? null : outputIn(ctx.cwd, ctx.cwd, target, flags.output ? '--output' : 'the sidecar');
    const limits = limitsOf(flags);
    const key = flags.key ? readSigningKey('--key', path.resolve(ctx.cwd, flags.key)) : null;
    const [input] = readInputs([bundle], limits);
    if (!input) throw new UsageError('missing', 'attest-bundle: exactly one BUNDLE (.tar.gz) is required');
    const result = await attest(input, key, limits);
    if (!result.ok) return wroteNothing(TOOL, EXIT.problem, findingLines(TOOL, result.reason));
    if (output === null) return { code: EXIT.pass, stdout: result.value, stderr: '' };
    // Never overwrites; the same attestation already there (Ed25519 signs deterministically) is kept, so running it again works.
    if (existsSync(output)) {
      if (sameText(output, result.value))
        return { code: EXIT.pass, stdout: '', stderr: say(TOOL, `${output} already holds this attestation: kept`) };
      return wroteNothing(
        TOOL,
        EXIT.usage,
        say(TOOL, `${output} exists; attest-bundle never overwrites (--output to choose another file)`),
      );
    }
    try {
      writeNew(output, result.value);
    } catch (error) {
      return unwritable(TOOL, '--output', output, error);
    }
    return { code: EXIT.pass, stdout: '', stderr: say(TOOL, `wrote ${output}`) };
  },
};

/** Whether `file` holds exactly `text` (a file that cannot be read does not). */
function sameText(file: string, text: string): boolean {
  try {
    return readFileSync(file, 'utf8') === text;
  } catch {
    return false;
  }
}
