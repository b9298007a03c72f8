/** `receipt-gate sign`: audit records signed with an export job's private key, written whole or not at all. */
import path from 'node:path';
import { distinctOutputs, outputIn } from '../../gate/settings/paths.js';
import { UsageError } from '../../gate/settings/types.js';
import { signRecords } from '../../tools/sign.js';
import { signedAtNow } from '../../tools/signing.js';
import { writeWhole } from '../../tools/write.js';
import { type Command, EXIT, findingLines, unwritable, wroteNothing } from '../command.js';
import { readInputs, readSigningKey } from '../files.js';
import { LIMITS, type OptionSpec, parseFlags, SIGNED_AT } from '../options.js';
import { limitsOf, signedAtOf } from './shared.js';

const OPTIONS = [
  { flag: 'key', kind: 'string', arg: 'FILE', help: 'the Ed25519 private key (PKCS#8 PEM; required)' },
  { flag: 'output', kind: 'string', arg: 'FILE', help: 'the signed NDJSON (required)' },
  SIGNED_AT,
  ...LIMITS,
] as const satisfies readonly OptionSpec[];

export const sign: Command = {
  spec: {
    name: 'sign',
    synopsis: '--key FILE --output FILE [--signed-at TIME] INPUT...',
    summary: "sign audit records with an export job's private key",
    about:
      'reads audit records from INPUT files (.json, .ndjson, .jsonl), signs each with the Ed25519 private key and writes them as NDJSON to --output; refuses (exit 1, nothing written) any input that is invalid, a record whose binding does not recompute, an entry already signed (re-signing would vouch for what another key signed) or one record id with two subjects',
    options: OPTIONS,
  },
  run(ctx) {
    const { flags, rest, help } = parseFlags(ctx.argv, OPTIONS);
    if (help) return 'help';
    if (!flags.key) throw new UsageError('missing', 'sign: --key FILE is required');
    if (!flags.output) throw new UsageError('missing', 'sign: --output FILE is required');
    if (rest.length === 0) throw new UsageError('missing', 'sign: at least one INPUT file of audit records is required');
    const output = outputIn(ctx.cwd, ctx.cwd, flags.output, '--output');
    // The signed file never replaces what it was signed from, nor the key (a red team: the export's other objects were lost).
    distinctOutputs(
      [['--output', output]],
      [...rest, flags.key].map((f) => path.resolve(ctx.cwd, f)),
    );
    const limits = limitsOf(flags);
    const signedAt = signedAtOf(flags['signed-at']) ?? signedAtNow(ctx.now);
    const key = readSigningKey('--key', path.resolve(ctx.cwd, flags.key));
    const inputs = readInputs(
      rest.map((f) => path.resolve(ctx.cwd, f)),
      limits,
    );
    const result = signRecords(key, inputs, limits, signedAt);
    if (!result.ok) return wroteNothing('sign', EXIT.problem, findingLines('sign', result.reason));
    try {
      writeWhole(output, result.value.text);
    } catch (error) {
      return unwritable('sign', '--output', output, error);
    }
    const n = result.value.text.split('\n').length - 1;
    const unsigned =
      result.value.unsigned.length > 0
        ? `${findingLines('sign', result.value.unsigned)}receipt-gate: sign: not signed, not written: the above\n`
        : '';
    return { code: EXIT.pass, stdout: '', stderr: `${unsigned}receipt-gate: signed ${n} record(s) into ${output}\n` };
  },
};
