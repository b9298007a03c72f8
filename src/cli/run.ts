/**
 * The CLI's logic, free of process globals so tests can call it: argv → the command named first →
 * its run (which reads its flags through its option table) → one outcome, its exit code from the one
 * table (command.ts). A usage error thrown anywhere in a command's parsing is exit 2, never a crash.
 */
import { UsageError } from '../gate/settings/types.js';
import { loadYamlParser } from '../read/strict-yaml.js';
import { VERSION } from '../version.js';
import { type CliOutcome, EXIT, usageError } from './command.js';
import { COMMAND_SPECS, commandNamed } from './registry.js';
import { usageText } from './usage.js';

export type { CliOutcome } from './command.js';

/** The command names, from the option tables: "a, b or c". */
const COMMAND_NAMES = ((names) => `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`)(COMMAND_SPECS.map((c) => c.name));

/**
 * @param now the time a signature is made at when --signed-at is not given, and the verification time
 */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  isTTY: boolean,
  cwd: string,
  now = new Date(),
): Promise<CliOutcome> {
  // The command comes first, as in git: `receipt-gate verify --runs …`.
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version')
    return { code: EXIT.pass, stdout: `receipt-gate ${VERSION}\n`, stderr: '' };
  if (name === 'help' || name === '-h' || name === '--help') return { code: EXIT.pass, stdout: usageText(), stderr: '' };
  if (name === undefined) return usageError(`missing command: ${COMMAND_NAMES}`);
  if (name.startsWith('-')) return usageError(`the command comes first (${COMMAND_NAMES}), before "${name}"`);
  const command = commandNamed(name);
  if (!command) return usageError(`unknown command "${name}" (one of ${COMMAND_NAMES})`);
  try {
    // The CLI reads policy files in several commands (verify, policy): its YAML parser is loaded up front.
    await loadYamlParser();
    const r = await command.run({ argv: rest, env, isTTY, cwd, now, version: VERSION });
    return r === 'help' ? { code: EXIT.pass, stdout: usageText(command.spec.name), stderr: '' } : r;
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message, error.code !== 'policy');
    throw error;
  }
}
