/** Every command, in the order the usage text lists them: one file each under cli/commands/. */
import type { Command } from './command.js';
import { attestBundle } from './commands/attest-bundle.js';
import { hash } from './commands/hash.js';
import { importExports } from './commands/import.js';
import { importRun } from './commands/import-run.js';
import { keygen } from './commands/keygen.js';
import { policy } from './commands/policy.js';
import { sign } from './commands/sign.js';
import { verify } from './commands/verify.js';
import { verifyAttestation } from './commands/verify-attestation.js';
import type { CommandSpec } from './options.js';

const COMMANDS: readonly Command[] = [verify, policy, verifyAttestation, attestBundle, keygen, sign, importExports, importRun, hash];

/** Every command's option table. */
export const COMMAND_SPECS: readonly CommandSpec[] = COMMANDS.map((c) => c.spec);

/** The command of this name (looked up in a list: the name is text from argv). */
export const commandNamed = (name: string): Command | undefined => COMMANDS.find((c) => c.spec.name === name);
