/** `receipt-gate hash DOMAIN VALUE`: the target hash of a raw value, to see why a call and a record differ. */

import { DOMAINS, type Domain, targetHash } from '../../core/target-hash.js';
import { UsageError } from '../../gate/settings/types.js';
import { type Command, EXIT } from '../command.js';
import { type OptionSpec, parseFlags } from '../options.js';

const OPTIONS = [] as const satisfies readonly OptionSpec[];

/** The domain a user named, or null (looked up in a list: the name is text from argv). */
const domainOf = (name: string): Domain | null => DOMAINS.find((d) => d === name) ?? null;

export const hash: Command = {
  spec: {
    name: 'hash',
    synopsis: 'DOMAIN VALUE',
    summary: 'print the target hash of a raw value',
    about: `prints the target hash of a raw value (domains: ${DOMAINS.join(', ')}), to see why a call and a record differ`,
    options: OPTIONS,
  },
  run(ctx) {
    const { rest, help } = parseFlags(ctx.argv, OPTIONS);
    if (help) return 'help';
    const [name, value, ...more] = rest;
    if (name === undefined || value === undefined || more.length > 0)
      throw new UsageError('value', 'hash: usage: receipt-gate hash DOMAIN VALUE');
    const domain = domainOf(name);
    if (domain === null) throw new UsageError('value', `hash: unknown domain "${name}" (one of ${DOMAINS.join(', ')})`);
    return { code: EXIT.pass, stdout: `${targetHash(domain, value)}\n`, stderr: '' };
  },
};
