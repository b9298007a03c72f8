/**
 * Which policy is in effect (docs/policy.md §1, §8). On a pull request or a merge queue the policy is
 * the base commit's, never the head's: the head's is read too and checked (a broken one fails the
 * pull request, a changed one is shown with its effect), and the one repair path is a base policy
 * that is invalid and a head that repairs it. Trust material named by a path (a trusted root) is
 * read the same way. Elsewhere the file on disk (or the CLI's `--policy-ref`) is the policy.
 */
import { type Finding, finding, placeOf } from '../../core/findings.js';
import { item } from '../../core/lists.js';
import type { Location } from '../../core/location.js';
import type { Grandfathered, Policy, PolicyException, PolicyTrust, TrustPath, TrustValue } from '../../core/policy.js';
import type { Result } from '../../core/result.js';
import { type PolicyContext, readPolicyFile } from '../../read/policy-file.js';
import { type PolicyReview, UsageError } from './types.js';

/** A repository file's text, where it was read. */
export interface RepoText {
  /** As reports name it (`.github/receipt-gate.yml`). */
  readonly path: string;
  /** The commit it was read at (null: the file on disk). */
  readonly commit: string | null;
  readonly text: string;
}

/**
 * The policy file as an entry found it: none given and none at the default path; one file; or, on a
 * pull request or a merge queue, the base's (null: the base has none) and the head's (null: none).
 */
export type PolicyGiven =
  | { readonly kind: 'none' }
  | { readonly kind: 'file'; readonly file: RepoText }
  | { readonly kind: 'pull'; readonly base: RepoText | null; readonly head: RepoText | null };

/** Short commit ids in messages. */
const short = (commit: string | null): string => (commit === null ? 'the working tree' : `commit ${commit.slice(0, 12)}`);

/** A policy file's problems as one located configuration error (the policy in effect must be valid). */
function invalidInEffect(file: RepoText, problems: readonly Finding[], why = ''): UsageError {
  const lines = problems.slice(0, 10).map((f) => `${f.file === null ? file.path : placeOf(f, true)}: ${f.message}`);
  const more = problems.length > 10 ? `\n… and ${problems.length - 10} more problem(s)` : '';
  return new UsageError(
    'policy',
    `the policy in effect (${file.path} at ${short(file.commit)}) is invalid (policy_invalid):\n${lines.join('\n')}${more}${why}`,
  );
}

/** The head's problems as findings of the pull request, each naming the file it was read from. */
const headFindings = (problems: readonly Finding[]): Finding[] =>
  problems.map((f) =>
    f.file === null ? f : finding('policy_invalid', f, `${f.message} (this pull request's policy; it must be valid to merge)`),
  );

/**
 * A pull request's policy, read whole under the base's signers, read again with what it will have
 * once merged (its signers): its problems as findings of the pull request (its names are checked
 * with the input, as the policy read whole).
 */
export function headUnder(head: RepoText, context: Omit<PolicyContext, 'path' | 'commit'>): readonly Finding[] {
  const r = readPolicyFile(head.text, { ...context, path: head.path, commit: head.commit, namesLater: true });
  return r.ok ? [] : headFindings(r.reason);
}

/** The first line of a file as read: a file of another commit says which. */
const placeIn = (file: RepoText | null): Location =>
  file?.commit ? { file: file.path, line: 1, column: 1, commit: file.commit } : { file: file?.path ?? '', line: 1, column: 1 };

/** Whether two policy texts say the same (byte for byte). */
const same = (a: RepoText | null, b: RepoText | null): boolean => (a === null ? b === null : b !== null && a.text === b.text);

/**
 * The policy in effect, and what a pull request does to it.
 * @param context the verification time and the trusted signers (what a policy's own checks need)
 */
export function settlePolicy(
  given: PolicyGiven,
  context: Omit<PolicyContext, 'path' | 'commit'>,
  repair: { readonly open: boolean } = { open: true },
): { readonly policy: Policy | null; readonly review: PolicyReview | null; readonly repaired?: true } {
  const read = (file: RepoText) => readPolicyFile(file.text, { ...context, path: file.path, commit: file.commit });
  if (given.kind === 'none') return { policy: null, review: null };
  if (given.kind === 'file') {
    const r = read(given.file);
    if (!r.ok) throw invalidInEffect(given.file, r.reason);
    return { policy: r.value, review: null };
  }
  const { base, head } = given;
  const baseRead = base ? read(base) : null;
  const headRead = head ? read(head) : null;
  if (baseRead && !baseRead.ok) {
    // The one repair path: an invalid base policy, and a head whose policy is valid; never a base that is
    // valid by itself and invalid only under the trust the workflow's inputs give (the pull request may edit them).
    if (!repair.open)
      throw invalidInEffect(
        base ?? { path: '', commit: null, text: '' },
        baseRead.reason,
        " It is valid by itself: its signed-by names signers the trust inputs of this run do not give, and the inputs are the workflow file, which a pull request may edit; so it is never replaced by the pull request's policy. Give the trust it names (rotating a key: give the old and the new key until the policy names the new one), or move trust into the policy file's trust: section, read at the base (docs/policy.md §9).",
      );
    if (head && headRead?.ok) {
      const at = { file: head.path, line: 1, column: 1 };
      // A warning, never a plain notice: every call passing here failed under the base (§11), and the
      // base may be invalid only under inputs the pull request edited (a red team dropped trusted-keys).
      const why = `the base policy (${base?.path} at ${short(base?.commit ?? null)}) is invalid; this pull request repairs it, and is judged under its own policy (review it: nothing of the base's applies here)`;
      return { policy: headRead.value, review: { findings: [finding('policy_changed', at, why, 'warning')], head: null }, repaired: true };
    }
    throw invalidInEffect(base ?? { path: '', commit: null, text: '' }, baseRead.reason);
  }
  const inEffect = baseRead?.ok ? baseRead.value : null;
  if (same(base, head)) return { policy: inEffect, review: null };
  const at = placeIn(head ?? base);
  if (headRead && !headRead.ok) return { policy: inEffect, review: { findings: headFindings(headRead.reason), head: null } };
  const what =
    head === null
      ? `this pull request deletes the policy file ${base?.path}; the change takes effect after merge (the base's policy applies here)`
      : base === null
        ? `this pull request adds the policy file ${head.path}; it takes effect after merge (the inputs apply here)`
        : `this pull request changes the policy file ${head.path}; the change takes effect after merge (the base's policy applies here)`;
  // A deleted file trusts what the inputs say, which is no trust: section at all.
  const loosened =
    head === null
      ? trustLoosening(inEffect?.trust ?? null, null)
      : headRead?.ok
        ? trustLoosening(inEffect?.trust ?? null, headRead.value.trust)
        : null;
  const findings = [finding('policy_changed', at, what)];
  if (loosened !== null)
    findings.push(
      finding(
        'policy_changed',
        at,
        `this pull request loosens trust in ${head?.path ?? 'the policy file'} (${loosened}): it takes effect after merge; a reviewer must approve it`,
        'warning',
      ),
    );
  return {
    policy: inEffect,
    review: { findings, head: headRead?.ok ? headRead.value : null, ...(head === null && base ? { deleted: base.path } : {}) },
  };
}

/** Whether two trust: sections trust differently (either way): a policy's effect measured under the one is not the other's. */
export function trustChanged(base: PolicyTrust | null, head: PolicyTrust | null): boolean {
  if (base === null || head === null) return base !== head;
  return trustLoosening(base, head) !== null || trustLoosening(head, base) !== null;
}

/** How a head's trust: section trusts more than the base's (docs/policy.md §9, §11), in words; null: it does not. */
function trustLoosening(base: PolicyTrust | null, head: PolicyTrust | null): string | null {
  if (base === null) return null;
  if (head === null) return 'it removes the trust: section';
  const why: string[] = [];
  if (base.mode === 'enforce' && head.mode === 'warn') why.push('trust.mode enforce → warn');
  if (base.requireSignedRecords && !head.requireSignedRecords) why.push('require-signed-records turned off');
  if (base.requireAttestedRuns && !head.requireAttestedRuns) why.push('require-attested-runs turned off');
  const added = (a: readonly string[], b: readonly string[]): string[] => b.filter((x) => !a.includes(x));
  const paths = (l: readonly TrustPath[]) => l.map((p) => p.path);
  const values = (l: readonly TrustValue[] | null) => (l ?? []).map((v) => v.value);
  // A removal loosens too: with no key left, signed records are no longer checked at all (a red team dropped every key).
  for (const [name, a, b] of [
    ['trusted-keys', paths(base.trustedKeys), paths(head.trustedKeys)],
    ['trusted-producers', paths(base.trustedProducers), paths(head.trustedProducers)],
    ['trusted-signer-identities', values(base.signerIdentities), values(head.signerIdentities)],
    ['trusted-producer-identities', values(base.producerIdentities), values(head.producerIdentities)],
    ['source-refs', values(base.sourceRefs), values(head.sourceRefs)],
  ] as const) {
    if (added(a, b).length > 0) why.push(`${name} adds ${added(a, b).join(', ')}`);
    if (added(b, a).length > 0) why.push(`${name} removes ${added(b, a).join(', ')}`);
  }
  const issuer = (t: PolicyTrust) => t.issuer?.value ?? null;
  if (issuer(base) !== issuer(head))
    why.push(`certificate-oidc-issuer ${issuer(base) ?? '(the default)'} → ${issuer(head) ?? '(the default)'}`);
  if ((base.trustedRoot?.path ?? null) !== (head.trustedRoot?.path ?? null)) why.push('trusted-root changes');
  return why.length > 0 ? why.join('; ') : null;
}

/** A trusted root the same way: the base's text in effect; a head that differs is named. */
export function settleTrustFile(
  name: string,
  given:
    | { readonly kind: 'file'; readonly file: RepoText }
    | { readonly kind: 'pull'; readonly base: RepoText | null; readonly head: RepoText | null },
): { readonly text: RepoText; readonly review: Finding | null } {
  if (given.kind === 'file') return { text: given.file, review: null };
  const { base, head } = given;
  if (!base)
    throw new UsageError(
      'file',
      `${name}: ${head?.path ?? 'the file'} does not exist at the base commit; trust material is read at the base on pull requests (merge the file first)`,
    );
  if (same(base, head)) return { text: base, review: null };
  const at = placeIn(head ?? base);
  return {
    text: base,
    review: finding(
      'policy_changed',
      at,
      `this pull request changes ${name} (${base.path}): trust material is read at the base, so the change takes effect after merge`,
    ),
  };
}

/**
 * A pull request's reading of the base's grandfathered audit files (docs/policy.md §9, §10): their
 * records, whose trust is not asked, bind only calls of run files present with the same bytes at the
 * base, never a call the pull request adds or changes (a red team: a replayed call took a
 * grandfathered unsigned record under require-signed-records, and met a verified rule). When the
 * base's files cannot be compared, they bind no call of this pull request, and a finding says why.
 * @param unchanged the files present with the same bytes at the base (as the report names them), or why that is not known
 */
export function historyOnly(
  policy: Policy,
  unchanged: Result<ReadonlySet<string>>,
): { readonly policy: Policy; readonly findings: Finding[] } {
  const entries = policy.grandfathered.filter((g) => g.kind === 'audit' && !g.onlyIn);
  if (entries.length === 0) return { policy, findings: [] };
  const onlyIn: ReadonlySet<string> = unchanged.ok ? unchanged.value : new Set();
  const findings = unchanged.ok
    ? []
    : [
        finding(
          'policy_changed',
          item(entries, 0).at,
          `the grandfathered audit file(s) of the base's policy bind no call of this pull request: ${unchanged.reason}; their records, whose trust is not asked, bind only calls of runs the base holds with the same bytes (check out with fetch-depth: 0)`,
          'warning',
        ),
      ];
  return {
    policy: { ...policy, grandfathered: policy.grandfathered.map((g) => (g.kind === 'audit' && !g.onlyIn ? { ...g, onlyIn } : g)) },
    findings,
  };
}

/** What a pull request's policy adds to the base's: exceptions (by binding and rule) and grandfathered entries (by run and bytes) the base does not have. */
export function addedEntries(
  base: Policy,
  head: Policy,
): { readonly exceptions: PolicyException[]; readonly grandfathered: Grandfathered[] } {
  const known = new Set(base.exceptions.map((e) => `${e.binding}\u0000${e.rule}\u0000${e.expiresText}`));
  const pinned = new Set(base.grandfathered.map((g) => `${g.run}\u0000${g.sha256}`));
  return {
    exceptions: head.exceptions.filter((e) => !known.has(`${e.binding}\u0000${e.rule}\u0000${e.expiresText}`)),
    grandfathered: head.grandfathered.filter((g) => !pinned.has(`${g.run}\u0000${g.sha256}`)),
  };
}

/**
 * The break-glass path (docs/policy.md §10): the exceptions and grandfathered entries a pull request
 * adds apply in that pull request to run files present with the same bytes at the base (`atBase`),
 * never to what it adds or changes; everything else in its policy waits for the merge. When the base
 * tree cannot be read, or the pull request changes an audit export the base holds, nothing of the
 * head applies, and a finding says why.
 * @param added what the head adds (`addedEntries`)
 * @param atBase the run files (as the report names them) present with the same bytes at the base, or why nothing of the head applies now
 */
export function withBreakGlass(
  base: Policy,
  head: Policy,
  added: ReturnType<typeof addedEntries>,
  atBase: Result<ReadonlySet<string>>,
): { readonly policy: Policy; readonly findings: Finding[] } {
  const count = added.exceptions.length + added.grandfathered.length;
  if (count === 0) return { policy: base, findings: [] };
  const at = added.exceptions[0]?.at ?? added.grandfathered[0]?.at ?? { file: head.source?.path ?? '', line: 1, column: 1 };
  if (!atBase.ok)
    return {
      policy: base,
      findings: [
        finding(
          'policy_changed',
          at,
          `this pull request adds ${count} exception(s) or grandfathered entr(ies); none applies now: ${atBase.reason}; they apply after merge`,
        ),
      ],
    };
  const onlyIn = atBase.value;
  return {
    policy: {
      ...base,
      exceptions: [...base.exceptions, ...added.exceptions.map((e) => ({ ...e, onlyIn }))],
      grandfathered: [...base.grandfathered, ...added.grandfathered.map((g) => ({ ...g, onlyIn }))],
    },
    findings: [],
  };
}
