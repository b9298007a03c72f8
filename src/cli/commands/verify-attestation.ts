/** `receipt-gate verify-attestation`: check a signed verdict offline against the report it names. */
import path from 'node:path';
import { readKeyless, readTrustedKeys } from '../../gate/settings/parsers.js';
import { UsageError } from '../../gate/settings/types.js';
import { DEFAULT_LIMITS, type ReadLimits } from '../../read/limits.js';
import { visible } from '../../report/text.js';
import { verifyVerdict, verifyVerdictKeyless } from '../../trust/verdict.js';
import { type Command, EXIT } from '../command.js';
import { readInputs, readKeyText, readTextFile } from '../files.js';
import { type OptionSpec, parseFlags } from '../options.js';
import { resourceUriOf } from './verify.js';

const OPTIONS = [
  { flag: 'trusted-key', kind: 'list', arg: 'FILE', help: 'PEM public key(s) of the verdict signer (Ed25519); repeatable' },
  { flag: 'report', kind: 'string', arg: 'FILE', help: 'the report the verdict is about (required)' },
  {
    flag: 'certificate-identity',
    kind: 'string',
    arg: 'URI',
    help: 'check a Sigstore bundle (GitHub artifact attestation) instead of a key-signed envelope: the workflow identity that must have signed it; needs --source-repository',
  },
  { flag: 'source-repository', kind: 'string', arg: 'OWNER/NAME', help: 'the repository the workflow must have run for' },
  { flag: 'source-ref', kind: 'list', arg: 'REF', default: 'refs/heads/main', help: 'an allowed Source Repository Ref (repeatable)' },
  { flag: 'certificate-oidc-issuer', kind: 'string', arg: 'URL', help: "the certificate's OIDC issuer" },
  {
    flag: 'trusted-root',
    kind: 'string',
    arg: 'FILE',
    help: 'a Sigstore trusted root (or JSON lines of them). Default: the public-good root',
  },
  {
    flag: 'resource-uri',
    kind: 'string',
    arg: 'URI',
    help: "require the verdict's resourceUri to be exactly URI (a verdict for another commit or repository must not pass)",
  },
] as const satisfies readonly OptionSpec[];

/**
 * What verify-attestation reads: a report is the gate's own output, as large as its input makes it
 * (0.7 GB for a million calls), so only Node's own bound on one read applies; still never a FIFO or a device.
 */
const VERDICT_INPUTS: ReadLimits = { ...DEFAULT_LIMITS, maxFileBytes: 2 ** 31 - 1 };

export const verifyAttestation: Command = {
  spec: {
    name: 'verify-attestation',
    synopsis: '(--trusted-key PUB | --certificate-identity URI --source-repository OWNER/NAME) --report REPORT ENVELOPE',
    summary: "check a signed verdict offline: the report's digest, the signer, and PASSED",
    about:
      'checks the envelope in order (payload type, a trusted signature, strict payload, Statement and predicate types, the subject digest against REPORT, verificationResult PASSED); exit 0 and one line when valid, 1 with the reason',
    options: OPTIONS,
  },
  async run(ctx) {
    const { flags, rest, help } = parseFlags(ctx.argv, OPTIONS);
    if (help) return 'help';
    const files = flags['trusted-key'] ?? [];
    const identity = flags['certificate-identity'];
    if (!flags.report) throw new UsageError('missing', 'verify-attestation: --report FILE is required');
    if (files.length === 0 && identity === undefined)
      throw new UsageError(
        'missing',
        'verify-attestation: --trusted-key FILE (a key-signed envelope) or --certificate-identity URI (a Sigstore bundle) is required',
      );
    if (files.length > 0 && identity !== undefined)
      throw new UsageError('conflict', 'verify-attestation: --trusted-key or --certificate-identity, not both');
    // The keyless checks' flags with a key: never read, so never taken silently (a red team: a root that does not exist passed).
    const keylessOnly = (['source-repository', 'source-ref', 'certificate-oidc-issuer', 'trusted-root'] as const).filter((f) =>
      ctx.argv.some((a) => a === `--${f}` || a.startsWith(`--${f}=`)),
    );
    if (files.length > 0 && keylessOnly.length > 0)
      throw new UsageError(
        'conflict',
        `verify-attestation: ${keylessOnly.map((f) => `--${f}`).join(', ')} check a Sigstore bundle (with --certificate-identity), not a key-signed envelope (--trusted-key)`,
      );
    const [envelopeName, ...more] = rest;
    if (envelopeName === undefined || more.length > 0)
      throw new UsageError('value', 'verify-attestation: exactly one ENVELOPE file is required');
    const resourceUri = resourceUriOf(flags['resource-uri']) ?? null;
    const reportFile = path.resolve(ctx.cwd, flags.report);
    const envelopeFile = path.resolve(ctx.cwd, envelopeName);
    const [report, envelope] = readInputs([reportFile, envelopeFile], VERDICT_INPUTS);
    if (!report || !envelope) throw new UsageError('missing', 'verify-attestation: --report FILE and one ENVELOPE are required');
    let checked: Awaited<ReturnType<typeof verifyVerdict>>;
    if (identity !== undefined) {
      const trustedRoot = flags['trusted-root'];
      const keyless = readKeyless(
        {
          signerIdentities: [identity],
          producerIdentities: [],
          sourceRepository: flags['source-repository'] ?? null,
          sourceRefs: flags['source-ref'] ?? [],
          defaultRef: 'refs/heads/main',
          issuer: flags['certificate-oidc-issuer'] ?? null,
          trustedRoot: trustedRoot
            ? { name: `--trusted-root ${trustedRoot}`, text: readTextFile('--trusted-root', path.resolve(ctx.cwd, trustedRoot)) }
            : null,
        },
        {
          signerIdentities: '--certificate-identity',
          producerIdentities: '--certificate-identity',
          sourceRepository: '--source-repository',
          sourceRefs: '--source-ref',
          issuer: '--certificate-oidc-issuer',
        },
      );
      const signers = keyless?.signers;
      if (!keyless || !signers) throw new UsageError('missing', 'verify-attestation: --certificate-identity URI is required');
      checked = await verifyVerdictKeyless(
        envelopeFile,
        envelope.bytes,
        reportFile,
        report.bytes,
        signers,
        keyless.trustedRoot,
        DEFAULT_LIMITS,
        resourceUri,
      );
    } else {
      const keys = readTrustedKeys(
        files.map((f) => ({ name: `--trusted-key ${f}`, pem: readKeyText('--trusted-key', path.resolve(ctx.cwd, f)) })),
      );
      if (!keys) throw new UsageError('missing', 'verify-attestation: --trusted-key FILE is required');
      checked = await verifyVerdict(envelopeFile, envelope.bytes, report.bytes, keys, DEFAULT_LIMITS, resourceUri);
    }
    if (!checked.ok)
      return {
        code: checked.reason.usage ? EXIT.usage : EXIT.problem,
        stdout: '',
        stderr: `receipt-gate: verify-attestation: ${visible(checked.reason.text)}\n`,
      };
    return { code: EXIT.pass, stdout: `${visible(checked.value)}\n`, stderr: '' };
  },
};
