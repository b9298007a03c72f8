/**
 * §5, later in time: a write that says when it was decided is confirmed only by a read that says so
 * too, after it (a red team: dropping a read's `time` from its event, or committing the read as a
 * plain surface line inside a server log, turned a refused confirmation into observed_confirmed).
 */

import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { addKey, deployKey, event, getKey, json, ndjson, serverLog, surface } from '../support/corpus.js';
import { cleanup, gate, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

async function runs(files: Record<string, string>): Promise<Report> {
  return gate(writeFiles(tempDir(), Object.fromEntries(Object.entries(files).map(([k, v]) => [`.assay/runs/${k}`, v]))));
}
const reason = (r: Report) => r.findings.find((f) => f.code === 'observed_confirmed_not_reproduced')?.message;
function timed(d: ReturnType<typeof addKey>, seq: number, time: string | null) {
  const e = { ...event('assay.tool_decision_surface.v0', surface([d]), seq, 'run_a'), assayrunid: 'run_a', time };
  if (time === null) delete (e as { time?: unknown }).time;
  return e;
}

describe('a read with no time never confirms a write with one', () => {
  it('an evidence event without time after a timed write: asserted, and the reason names the read', async () => {
    const r = await runs({
      'r.ndjson': ndjson([timed(addKey({ claim: 'observed_confirmed' }), 0, '2026-11-01T10:00:05Z'), timed(getKey(), 1, null)]),
    });
    expect(r.calls.map((c) => c.level)).toEqual(['asserted', null]);
    expect(reason(r)).toMatch(
      /the read at line 2 says no time, so nothing shows it came after this call \(decided 2026-11-01T10:00:05Z\): give each event its time$/,
    );
  });

  it('a plain surface line after a tool_decision line in a server log: asserted', async () => {
    const log = serverLog([['2026-11-01T10:00:05Z', addKey({ claim: 'observed_confirmed' })]]);
    const r = await runs({ 'agent.log': `${log}${JSON.stringify(surface([getKey()]))}\n` });
    expect(r.calls.map((c) => c.level)).toEqual(['asserted', null]);
    expect(reason(r)).toMatch(/the read at line 4 says no time/);
  });

  it('a write with no time after a timed event is decided no earlier than it: a read timed before that confirms nothing (a red team: the mirror of the untimed read)', async () => {
    const r = await runs({
      'r.ndjson': ndjson([
        timed(getKey({ target: deployKey({ repo: 'other' }) }), 0, '2026-11-01T10:00:00Z'),
        timed(addKey({ claim: 'observed_confirmed' }), 1, null),
        timed(getKey(), 2, '2026-11-01T09:00:00Z'),
      ]),
    });
    expect(r.calls.map((c) => c.level)).toEqual([null, 'asserted', null]);
    expect(reason(r)).toMatch(
      /the read at line 3 was decided at 2026-11-01T09:00:00Z, not after this call \(no time given; the run before it reached 2026-11-01T10:00:00Z\)$/,
    );
    // Read after the run's latest time, it confirms; and with no timed event before the write, the order decides.
    const later = await runs({
      'r.ndjson': ndjson([
        timed(getKey({ target: deployKey({ repo: 'other' }) }), 0, '2026-11-01T10:00:00Z'),
        timed(addKey({ claim: 'observed_confirmed' }), 1, null),
        timed(getKey(), 2, '2026-11-01T10:00:01Z'),
      ]),
    });
    expect(later.calls.map((c) => c.level)).toEqual([null, 'observed_confirmed', null]);
    const first = await runs({ 'r.ndjson': ndjson([timed(addKey(), 0, null), timed(getKey(), 1, '2026-11-01T09:00:00Z')]) });
    expect(first.calls.map((c) => c.level)).toEqual(['observed_confirmed', null]);
  });

  it('with a time after the write the read confirms it; a surface with no times at all still confirms by order', async () => {
    const r = await runs({
      'r.ndjson': ndjson([
        timed(addKey({ claim: 'observed_confirmed' }), 0, '2026-11-01T10:00:05Z'),
        timed(getKey(), 1, '2026-11-01T10:00:06Z'),
      ]),
      's.json': json(surface([addKey({ claim: 'observed_confirmed' }), getKey()])),
    });
    expect(r.calls.map((c) => c.level)).toEqual(['observed_confirmed', null, 'observed_confirmed', null]);
    expect(r.ok).toBe(true);
  });
});
