/** `receipt-gate keygen --out PREFIX`: a new Ed25519 key pair for an export job (or a producer). */
import { statSync } from 'node:fs';
import path from 'node:path';
import { outputIn } from '../../gate/settings/paths.js';
import { UsageError } from '../../gate/settings/types.js';
import { keygen as makeKeys } from '../../tools/keygen.js';
import { type Command, EXIT, findingLines } from '../command.js';
import { type OptionSpec, parseFlags } from '../options.js';

const isDirectory = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

const OPTIONS = [
  { flag: 'out', kind: 'string', arg: 'PREFIX', help: 'where the two key files go (required)' },
] as const satisfies readonly OptionSpec[];

export const keygen: Command = {
  spec: {
    name: 'keygen',
    synopsis: '--out PREFIX',
    summary: 'write a new Ed25519 key pair for signing audit records',
    about:
      'writes PREFIX.key.pem (PKCS#8, mode 0600) and PREFIX.pub.pem (SPKI), and prints the key_id; the folder of PREFIX is made when it does not exist. Never overwrites: a pair already there is kept (and its key_id printed)',
    options: OPTIONS,
  },
  run(ctx) {
    const { flags, rest, help } = parseFlags(ctx.argv, OPTIONS);
    if (help) return 'help';
    if (rest.length > 0) throw new UsageError('value', `keygen: unexpected argument "${rest[0]}"`);
    if (!flags.out) throw new UsageError('missing', 'keygen: --out PREFIX is required');
    // A prefix that names a folder would write PREFIX.key.pem beside it, not in it.
    if (/[/\\]$/.test(flags.out) || isDirectory(path.resolve(ctx.cwd, flags.out)))
      throw new UsageError(
        'value',
        `keygen: --out "${flags.out}" names a folder; --out is the prefix of the two files (e.g. ${flags.out.replace(/[/\\]+$/, '')}/signer writes signer.key.pem and signer.pub.pem in it)`,
      );
    // Both files stay inside the working directory through every directory above them.
    for (const suffix of ['.key.pem', '.pub.pem']) outputIn(ctx.cwd, ctx.cwd, `${flags.out}${suffix}`, '--out');
    const prefix = path.resolve(ctx.cwd, flags.out);
    const result = makeKeys(prefix);
    if (!result.ok) return { code: EXIT.usage, stdout: '', stderr: findingLines('keygen', result.reason) };
    const { keyId, kept } = result.value;
    return {
      code: EXIT.pass,
      stdout: `${keyId}\n`,
      stderr: kept
        ? `receipt-gate: ${prefix}.key.pem and ${prefix}.pub.pem exist and are one pair: kept as they are (keygen never overwrites a key)\n`
        : `receipt-gate: wrote ${prefix}.key.pem (the private key: keep it secret, never commit it; *.key.pem belongs in .gitignore) and ${prefix}.pub.pem (the public key: what a gate trusts)\n`,
    };
  },
};
