/**
 * A policy's effect on a corpus (docs/policy.md §6): per rule, how its calls measure (met, unmet,
 * warned, pending, excepted), and between two policies, which calls change verdict. Computed from
 * two reports of the same evidence: nothing is read twice.
 */
import type { CallReport, PolicyChange, Report } from './report.js';
import { cmp } from './text.js';

/** How one call measures against the policy. */
type CallStatus = 'met' | 'unmet' | 'warned' | 'pending' | 'excepted' | 'grandfathered' | 'not ruled';

function statusOf(call: CallReport): CallStatus {
  // The provider's export covered the call and logged nothing: it fails whatever the rule, its exception or its grandfathering (a red team: counted as met).
  if (call.effect_not_logged && call.required_level !== null) return 'unmet';
  if (call.grandfathered) return 'grandfathered';
  if (call.excepted !== null) return 'excepted';
  if (call.pending) return 'pending';
  if (call.below_required) return 'unmet';
  if (call.warned) return 'warned';
  return call.required_level === null ? 'not ruled' : 'met';
}

/** One rule's counts on the corpus. */
export interface RuleEffect {
  /** The rule's name, or "(default)" for calls no rule matches. */
  readonly rule: string;
  readonly matched: number;
  readonly met: number;
  readonly unmet: number;
  readonly warned: number;
  readonly pending: number;
  readonly excepted: number;
}

const DEFAULT = '(default)';

/** Per rule, how its calls measure (calls not ruled and grandfathered ones aside). */
export function ruleEffects(report: Report): RuleEffect[] {
  const by = new Map<string, { matched: number; met: number; unmet: number; warned: number; pending: number; excepted: number }>();
  for (const call of report.calls) {
    const status = statusOf(call);
    if (status === 'not ruled' || status === 'grandfathered') continue;
    const name = call.rule ?? DEFAULT;
    let counts = by.get(name);
    if (!counts) by.set(name, (counts = { matched: 0, met: 0, unmet: 0, warned: 0, pending: 0, excepted: 0 }));
    counts.matched++;
    counts[status]++;
  }
  // Every rule of a policy file is listed, those no call reaches too (0 calls says as much as a count).
  for (const rule of report.policy.rules) {
    const name = rule['name'];
    if (typeof name === 'string' && !by.has(name)) by.set(name, { matched: 0, met: 0, unmet: 0, warned: 0, pending: 0, excepted: 0 });
  }
  return [...by].map(([rule, counts]) => ({ rule, ...counts })).sort((a, b) => cmp(a.rule, b.rule));
}

const key = (c: CallReport): string => `${c.artifact}\u0000${c.index}`;

/** What a policy's change is said of beside calls (records, coverage statements, runs): their lines of the change list, never a rule's name. */
const ITEMS = { '(records)': 'record', '(statements)': 'coverage statement', '(runs)': 'run' } as const;
type Items = keyof typeof ITEMS;
const isItems = (rule: string): rule is Items => rule === '(records)' || rule === '(statements)' || rule === '(runs)';
const PASSES = 'passes';
const at = (x: { readonly file: string; readonly line: number; readonly column: number }): string =>
  `${x.file}\u0000${x.line}\u0000${x.column}`;

/** Each record's, coverage statement's and run's verdict in a report: the code of the first error found at its place (a run's: its first line), or `passes`. */
function itemStatus(report: Report): Map<string, { readonly kind: Items; readonly status: string }> {
  const failing = new Map<string, string>();
  for (const f of report.findings) if (f.severity === 'error' && f.input === undefined && !failing.has(at(f))) failing.set(at(f), f.code);
  const out = new Map<string, { readonly kind: Items; readonly status: string }>();
  const put = (kind: Items, place: string) => out.set(place, { kind, status: failing.get(place) ?? PASSES });
  for (const r of report.records) put('(records)', at(r));
  for (const s of report.coverage) put('(statements)', at(s));
  for (const r of report.runs) put('(runs)', at({ file: r.artifact, line: 1, column: 1 }));
  return out;
}

/**
 * The records, coverage statements and runs whose verdict changes from `before` to `after` (a
 * `pending` added, a grandfathered audit file or run, a trust section), one line per change.
 */
function itemChanges(before: Report, after: Report): PolicyChange[] {
  const was = itemStatus(before);
  const counted = new Map<string, PolicyChange>();
  for (const [place, { kind, status: to }] of itemStatus(after)) {
    const from = was.get(place)?.status ?? PASSES;
    if (from === to) continue;
    const id = `${kind}\u0000${from}\u0000${to}`;
    counted.set(id, { rule: kind, from, to, calls: (counted.get(id)?.calls ?? 0) + 1 });
  }
  return [...counted.values()];
}

/**
 * The calls, then the records, coverage statements and runs, whose verdict changes from `before` to `after` (two reports of the
 * same evidence; docs/policy.md §11: "any call or record"). The line of records, statements or runs counts them in `calls`.
 */
export function changes(before: Report, after: Report): PolicyChange[] {
  return [
    ...callChanges(before, after),
    ...itemChanges(before, after).sort((a, b) => cmp(a.rule, b.rule) || cmp(a.from, b.from) || cmp(a.to, b.to)),
  ];
}

function callChanges(before: Report, after: Report): PolicyChange[] {
  const was = new Map(before.calls.map((c) => [key(c), c]));
  const counted = new Map<string, PolicyChange>();
  for (const call of after.calls) {
    const old = was.get(key(call));
    const from = old ? statusOf(old) : 'not ruled';
    const to = statusOf(call);
    if (from === to) continue;
    const rule = call.rule ?? old?.rule ?? DEFAULT;
    const id = `${rule}\u0000${from}\u0000${to}`;
    const seen = counted.get(id);
    counted.set(id, { rule, from, to, calls: (seen?.calls ?? 0) + 1 });
  }
  return [...counted.values()].sort((a, b) => cmp(a.rule, b.rule) || cmp(a.from, b.from) || cmp(a.to, b.to));
}

/** What two policies compared are called in words, the one in effect first ("the base", "this pull request"). */
export interface ChangeNames {
  readonly before: string;
  readonly after: string;
}

/**
 * "12 call(s) of prod-deploy-keys: under the base: met; under this pull request: unmet; …" (at most
 * `max` changes named). Every place that shows a change (the summary, the finding, `policy check
 * --against`) says it in one direction: from the policy in effect to the one proposed.
 */
export function changesText(list: readonly PolicyChange[], names: ChangeNames, max = 6): string {
  if (list.length === 0) return 'no call, record, statement or run changes verdict';
  const shown = list
    .slice(0, max)
    .map(
      (c) =>
        `${isItems(c.rule) ? `${c.calls} ${ITEMS[c.rule]}(s)` : `${c.calls} call(s) of ${c.rule}`}: under ${names.before}: ${c.from}; under ${names.after}: ${c.to}`,
    );
  return `${shown.join('; ')}${list.length > max ? `; and ${list.length - max} more change(s)` : ''}`;
}

/** A pull request's change, as the finding and the summary name its two sides. */
export const PULL_CHANGE: ChangeNames = { before: "the base's policy", after: "this pull request's policy" };

/** Whether a change turns any call, record, statement or run from failing to passing (a loosening: a warning, docs/policy.md §11). */
export const loosens = (list: readonly PolicyChange[]): boolean =>
  list.some((c) => (isItems(c.rule) ? c.to === PASSES : c.from === 'unmet' && c.to !== 'unmet'));
