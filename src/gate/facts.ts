/**
 * What the gate's own checks read of one file's evidence (gate.ts `collect`): not its calls or
 * records, only how many there are, the classes and verbs its decisions name, the objects of the
 * other role it held, the classes of a rejected run, and how many findings its reading made. Every
 * file gives them, read or kept: a verification snapshot stores them per file (gate/snapshot.ts),
 * so a file the snapshot names, unchanged, is never decoded (gate/incremental.ts), and the checks
 * made over every file (no decision read, inputs swapped, a rule naming a class nothing has) are
 * made from the same numbers either way.
 */
import type { FileEvidence } from '../read/file-read.js';

export interface FileFacts {
  /** How many findings its reading made (in a snapshot: its share of the readers' findings, in file order). */
  readonly findings: number;
  /** Objects of the other role's kind it held (FileEvidence.strays). */
  readonly strays: number;
  /** Its run's decisions (0: no run, or one that holds none). */
  readonly decisions: number;
  /** Its audit records and coverage statements. */
  readonly entries: number;
  /** A rejected run's classes (FileEvidence.rejectedClasses). */
  readonly rejected: readonly string[];
  /** Each class its decisions name, with the verbs named with it, in the order first met. */
  readonly classes: readonly (readonly [string, readonly string[]])[];
}

/** A file's facts, from its evidence. */
export function factsOf(evidence: FileEvidence): FileFacts {
  const classes = new Map<string, Set<string>>();
  for (const d of evidence.run?.decisions ?? []) {
    if (d.actionClass === null) continue;
    let verbs = classes.get(d.actionClass);
    if (!verbs) classes.set(d.actionClass, (verbs = new Set()));
    if (d.verb !== null) verbs.add(d.verb);
  }
  return {
    findings: evidence.findings.length,
    strays: evidence.strays ?? 0,
    decisions: evidence.run?.decisions.length ?? 0,
    entries: evidence.records.length + evidence.statements.length,
    rejected: evidence.rejectedClasses ?? [],
    classes: [...classes].map(([c, verbs]) => [c, [...verbs]] as const),
  };
}

/** Every class of the input with its verbs (what a rule may name besides the §2 table), from every file's facts. */
export function classesOf(facts: Iterable<FileFacts>): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  for (const f of facts)
    for (const [c, verbs] of f.classes) {
      let all = seen.get(c);
      if (!all) seen.set(c, (all = new Set()));
      for (const v of verbs) all.add(v);
    }
  return seen;
}
