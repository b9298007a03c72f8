import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 6214:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
// https://mathiasbynens.be/notes/javascript-encoding
// https://github.com/bestiejs/punycode.js - punycode.ucs2.decode
function ucs2length(str) {
    const len = str.length;
    let length = 0;
    let pos = 0;
    let value;
    while (pos < len) {
        length++;
        value = str.charCodeAt(pos++);
        if (value >= 0xd800 && value <= 0xdbff && pos < len) {
            // high surrogate, and there is a next character
            value = str.charCodeAt(pos);
            if ((value & 0xfc00) === 0xdc00)
                pos++; // low surrogate
        }
    }
    return length;
}
exports["default"] = ucs2length;
ucs2length.code = 'require("ajv/dist/runtime/ucs2length").default';
//# sourceMappingURL=ucs2length.js.map

/***/ }),

/***/ 3491:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  WA: () => (/* binding */ DIGEST_PATTERN),
  Ch: () => (/* binding */ binding),
  vI: () => (/* binding */ jcs),
  X9: () => (/* binding */ jcsWithout),
  sI: () => (/* binding */ sha256Digest),
  fg: () => (/* binding */ sha256Hex),
  fC: () => (/* binding */ subjectCanonical),
  n0: () => (/* binding */ unsafeInteger),
  Aj: () => (/* binding */ unsafeIntegerText)
});

// UNUSED EXPORTS: utcSeconds

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
;// CONCATENATED MODULE: ./node_modules/canonicalize/lib/canonicalize.js
function serializeString (value) {
  if (!value.isWellFormed()) {
    throw new Error('Lone surrogate is not allowed');
  }
  return JSON.stringify(value);
}

function serializePrimitive (value) {
  switch (typeof value) {
    case 'number':
      if (isNaN(value)) {
        throw new Error('NaN is not allowed');
      }
      if (!isFinite(value)) {
        throw new Error('Infinity is not allowed');
      }
      // For finite numbers String(value) would give identical output, but
      // JSON.stringify benchmarks faster on V8.
      return JSON.stringify(value);
    case 'string':
      return serializeString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      // null, or values JSON.stringify maps to undefined (undefined,
      // functions, symbols).
      return JSON.stringify(value);
  }
}

// Resolves a value to either its serialized primitive form (a string — or
// undefined, for values JSON.stringify drops) or a frame describing the
// container to descend into. Callers distinguish the two cases with
// `typeof result !== 'object'`.
//
// toJSON results are unwrapped here, and the wrapper objects stay in `seen`
// until the resolved subtree is fully serialized, so cycles introduced via
// toJSON are still detected.
function enterValue (value, seen) {
  let wrappers = null;
  while (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') {
    if (seen.has(value)) {
      throw new Error('Circular reference detected');
    }
    seen.add(value);
    (wrappers ??= []).push(value);
    value = value.toJSON();
  }

  // Boxed Number/String/Boolean objects serialize as their primitive values,
  // mirroring how JSON.stringify treats them.
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    value = value.valueOf();
  }

  if (value === null || typeof value !== 'object') {
    if (wrappers !== null) {
      for (const wrapper of wrappers) seen.delete(wrapper);
    }
    return serializePrimitive(value);
  }

  if (seen.has(value)) {
    throw new Error('Circular reference detected');
  }
  seen.add(value);

  return {
    container: value,
    // null marks an array frame; object frames carry their sorted keys.
    // `sort()`'s default comparator orders by UTF-16 code unit, which is the
    // order JCS requires.
    keys: Array.isArray(value) ? null : Object.keys(value).sort(),
    // Next child to serialize; the frame resumes here after a nested
    // container's subtree completes.
    index: 0,
    // Whether no member has been emitted yet (controls comma placement).
    first: true,
    // toJSON wrappers to release from `seen` when this frame completes.
    wrappers
  };
}

function canonicalize (object) {
  if (object === null || typeof object !== 'object') {
    return serializePrimitive(object);
  }

  const seen = new Set();
  const root = enterValue(object, seen);
  if (typeof root !== 'object') {
    // A toJSON chain resolved the input to a primitive.
    return root;
  }

  let result = root.keys === null ? '[' : '{';
  const stack = [root];

  // Depth-first serialization with an explicit stack instead of recursion, so
  // nesting depth is bounded by heap size rather than call-stack size. The top
  // frame is the container currently being serialized: primitive children are
  // appended inline, while a nested container pushes a new frame and jumps
  // back to the outer loop. Because frame.index was already advanced, the
  // parent resumes at its next child once the subtree is done. Opening
  // brackets are emitted when a frame is pushed, closing brackets when it
  // completes.
  outer:
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const container = frame.container;

    // keys === null marks an array frame; otherwise keys holds the object's
    // sorted property names. Either way the iteration counter lives on the
    // frame itself (frame.index), so when a frame is resumed after a nested
    // container completes, the while condition continues at the first
    // unserialized child instead of restarting from the beginning.
    if (frame.keys === null) {
      while (frame.index < container.length) {
        const i = frame.index++;
        if (i > 0) {
          result += ',';
        }
        const element = container[i];
        // Inside arrays, JSON.stringify serializes values with no JSON
        // representation (undefined, symbols, functions) as null.
        const value = element === undefined || typeof element === 'symbol' || typeof element === 'function' ? null : element;
        if (value === null || typeof value !== 'object') {
          result += serializePrimitive(value);
          continue;
        }
        const child = enterValue(value, seen);
        if (typeof child !== 'object') {
          // A toJSON chain resolved the child to an already-serialized
          // primitive — or, when child is undefined, to a value with no JSON
          // representation, which becomes null inside arrays.
          result += child === undefined ? 'null' : child;
          continue;
        }
        result += child.keys === null ? '[' : '{';
        stack.push(child);
        continue outer;
      }
      result += ']';
    } else {
      const keys = frame.keys;
      while (frame.index < keys.length) {
        const key = keys[frame.index++];
        const value = container[key];
        // Inside objects, JSON.stringify omits properties whose value has no
        // JSON representation (undefined, symbols, functions).
        if (value === undefined || typeof value === 'symbol' || typeof value === 'function') {
          continue;
        }
        if (value === null || typeof value !== 'object') {
          // Commas are tracked with a flag rather than the key index: a
          // skipped key must not leave a stray comma behind.
          if (frame.first) {
            frame.first = false;
          } else {
            result += ',';
          }
          result += serializeString(key) + ':' + serializePrimitive(value);
          continue;
        }
        // The child must be resolved before the key is emitted: a toJSON
        // returning a value with no JSON representation drops the whole
        // property.
        const child = enterValue(value, seen);
        if (child === undefined) {
          continue;
        }
        if (frame.first) {
          frame.first = false;
        } else {
          result += ',';
        }
        result += serializeString(key) + ':';
        if (typeof child !== 'object') {
          result += child;
          continue;
        }
        result += child.keys === null ? '[' : '{';
        stack.push(child);
        continue outer;
      }
      result += '}';
    }

    // Frame complete. The container leaves `seen` so that a later, sibling
    // reference to the same object is not mistaken for a cycle.
    seen.delete(container);
    if (frame.wrappers !== null) {
      for (const wrapper of frame.wrappers) seen.delete(wrapper);
    }
    stack.pop();
  }

  return result;
}

// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
;// CONCATENATED MODULE: ./src/core/binding.ts
/**
 * The binding: "sha256:" + lowercase hex of sha256 over the UTF-8 bytes of the RFC 8785 (JCS)
 * canonical form. The one place in the gate where a subject digest is made and the one pattern a
 * digest must match; a binding is recomputed from committed bytes, never fetched.
 */




/** What every digest in an artifact must look like (binding_digest, run_root, key_id, …). */
const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
/**
 * RFC 8785 canonical text; lone surrogates and non-finite numbers are refused, not coerced. A value
 * as JSON.parse makes them is written out here (`jsonText`); canonicalize decides anything else.
 */
function jcs(value) {
    const written = jsonText(value, 0);
    if (written !== null)
        return { ok: true, text: written };
    try {
        const text = canonicalize(value);
        if (text === undefined)
            return { ok: false, reason: 'value has no JSON representation' };
        return { ok: true, text };
    }
    catch (err) {
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
}
function sha256Hex(text) {
    return (0,external_node_crypto_.hash)('sha256', text, 'hex');
}
/** "sha256:" + hex of sha256(bytes): the digest form every artifact uses. */
const sha256Digest = (text) => `sha256:${sha256Hex(text)}`;
/** RFC 3339 UTC in whole seconds (`…T12:00:00Z`): signed_at and timeVerified. */
const utcSeconds = (d) => d.toISOString().replace(/\.\d+Z$/, 'Z');
/** binding(subject) as the semantics document defines it. */
function binding(subject) {
    const canonical = subjectCanonical(subject);
    return canonical.ok ? { ok: true, digest: sha256Digest(canonical.text) } : canonical;
}
/**
 * JCS(subject): the text binding() hashes, for a reader that also needs it in a signed record's
 * payload (`jcsWithout`). A subject holding an integer beyond ±(2^53−1) is refused (`unsafeInteger`).
 */
function subjectCanonical(subject) {
    const unsafe = unsafeInteger(subject);
    if (unsafe !== null)
        return { ok: false, reason: unsafeIntegerText(unsafe, '') };
    const text = subjectText(subject);
    return text !== null ? { ok: true, text } : jcs(subject);
}
/**
 * The first number in a value (members in their order, depth first) whose magnitude is 2^53 or more,
 * or null. Every such double is an integer, and JSON.parse has rounded the text's digits to it
 * (12345678901234567890 and 12345678901234567891 are both read as 12345678901234567000), so a
 * subject holding one could bind a record written for another value: such a subject is refused,
 * never canonicalized. Integers within ±(2^53−1) and fractions are written as JCS writes them.
 * Walked with a stack of its own (a value as deep as the reader allows never reaches the call stack's end).
 */
function unsafeInteger(value) {
    // The common case first, with no path made: strings and small numbers only (one look per value).
    if (typeof value !== 'object' || value === null)
        return isUnsafe(value) ? { path: [], value: value } : null;
    const values = [value];
    let any = false;
    while (values.length > 0 && !any) {
        const v = values.pop();
        if (isUnsafe(v))
            any = true;
        else if (typeof v === 'object' && v !== null)
            for (const x of Array.isArray(v) ? v : Object.values(v))
                values.push(x);
    }
    if (!any)
        return null;
    const stack = [{ value, path: [] }];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
        const v = next.value;
        if (isUnsafe(v))
            return { path: next.path, value: v };
        if (Array.isArray(v)) {
            for (let i = v.length - 1; i >= 0; i--)
                stack.push({ value: v[i], path: [...next.path, i] });
        }
        else if ((0,json/* isObject */.Gv)(v)) {
            // Entries, not a lookup by key: a key is input text. Pushed in reverse, so the first member is looked at first.
            const members = Object.entries(v);
            for (let i = members.length - 1; i >= 0; i--) {
                const [k, x] = members[i];
                stack.push({ value: x, path: [...next.path, k] });
            }
        }
    }
    return null;
}
const isUnsafe = (v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER;
/** A path of keys and indices in words, after `root` (`action.target.key_id`, `target.ids[2]`, `target["a b"]`). */
function pathText(root, path) {
    let out = root;
    for (const step of path)
        out +=
            typeof step === 'number'
                ? `[${step}]`
                : /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(step)
                    ? `${out === '' ? '' : '.'}${step}`
                    : `[${JSON.stringify((0,core_text/* quote */.hD)(step, 64))}]`;
    return out;
}
/** Why a value holding an unsafe integer is refused, naming it by its path after `root`. */
const unsafeIntegerText = (unsafe, root) => `${pathText(root, unsafe.path) || 'the value'} is an integer beyond ±(2^53−1) (read as ${String(unsafe.value)}): a number that large is rounded when it is read, so two different values could bind alike; it is never bound`;
/**
 * JCS of an object without its member `omit` (a signed entry's payload P: the entry without its
 * `signature`), the same text as `jcs` of a copy without that member. `known`: a member whose JCS
 * text was already made (a record's subject, for its binding), used as it is instead of written
 * again. Per signed record it saves a copy of the record and a second canonical form of its subject
 * (bench/HISTORY.md, "Signed records: the payload").
 */
function jcsWithout(object, omit, known) {
    const written = isPlainObject(object) && typeof object.toJSON !== 'function' ? membersText(object, 0, omit, known) : null;
    if (written !== null)
        return { ok: true, text: written };
    // Anything the written form leaves to canonicalize: a copy without the member, judged as jcs judges it.
    const copy = {};
    for (const k of Object.keys(object))
        if (k !== omit)
            Object.defineProperty(copy, k, { value: object[k], enumerable: true, writable: true, configurable: true });
    return jcs(copy);
}
/** The written JCS text of a plain object at `depth`, but its member `omit` (`known`'s text for its member), or null for canonicalize to decide. */
function membersText(value, depth, omit, known) {
    // Entries, not a lookup by key: a key is input text (`__proto__` included).
    const members = Object.entries(value);
    sortByKey(members);
    const parts = [];
    for (const [k, x] of members) {
        // As JSON.stringify and canonicalize leave them out: a member with no JSON form (undefined, a function).
        if (k === omit || x === undefined || typeof x === 'function' || typeof x === 'symbol')
            continue;
        if (!k.isWellFormed())
            return null;
        const t = known !== undefined && k === known.key ? known.text : jsonText(x, depth + 1);
        if (t === null)
            return null;
        parts.push(`${JSON.stringify(k)}:${t}`);
    }
    return `{${parts.join(',')}}`;
}
/**
 * The JCS text of a subject, `{action_class, target, verb}` (a call's or a record's), written out
 * here, or null for canonicalize to decide (any other shape, and whatever could fail): the three
 * keys sort as action_class < target < verb, the two strings are what JSON.stringify writes
 * (RFC 8785 §3.2.2.2), and the target is `jsonText`'s. A property test holds this equal to
 * canonicalize over arbitrary subjects. Per subject, it saves canonicalize's general walk (a frame,
 * a set of seen objects and a sort per object): binding() at N = 100 000 (160 000 subjects) 334 →
 * 258–277 ms in a CPU profile, and ~270 MiB of the run's 1.9 GiB allocated.
 */
function subjectText(subject) {
    if (!isPlainObject(subject) || typeof subject.toJSON === 'function')
        return null;
    if (Object.keys(subject).length !== 3 || !(0,json/* hasOwn */.$3)(subject, 'action_class') || !(0,json/* hasOwn */.$3)(subject, 'verb') || !(0,json/* hasOwn */.$3)(subject, 'target'))
        return null;
    const actionClass = subject['action_class'];
    const verb = subject['verb'];
    if (typeof actionClass !== 'string' || typeof verb !== 'string' || !actionClass.isWellFormed() || !verb.isWellFormed())
        return null;
    const target = jsonText(subject['target'], 1);
    return target === null ? null : `{"action_class":${JSON.stringify(actionClass)},"target":${target},"verb":${JSON.stringify(verb)}}`;
}
/** Containers deeper than this are left to canonicalize (which walks with a stack of its own, not the call stack). */
const MAX_WRITTEN_DEPTH = 64;
/**
 * The JCS text of a JSON value as JSON.parse makes it, written out flat (each container's parts
 * joined), or null for canonicalize to decide: anything else (another prototype, a toJSON, a value
 * JSON has no form for) and whatever could fail (a lone surrogate, a non-finite number). An object's
 * members are sorted by key in UTF-16 code units (the order `sort()` gives, as canonicalize sorts),
 * strings and numbers are what JSON.stringify writes (as canonicalize writes them). Per value it
 * saves canonicalize's general walk, and its text is one flat string where canonicalize's is a tree
 * of concatenations that every later use flattens again (a signed record's payload, an event's
 * content hash). A property test holds it equal to canonicalize over arbitrary values.
 */
function jsonText(value, depth) {
    switch (typeof value) {
        case 'string':
            return value.isWellFormed() ? JSON.stringify(value) : null;
        case 'number':
            return Number.isFinite(value) ? JSON.stringify(value) : null;
        case 'boolean':
            return value ? 'true' : 'false';
        case 'object':
            break;
        default:
            return null;
    }
    if (value === null)
        return 'null';
    if (depth >= MAX_WRITTEN_DEPTH)
        return null;
    if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype)
            return null;
        const parts = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
            const given = value[i];
            // As JSON.stringify and canonicalize write them: an element with no JSON form (a hole, undefined, a function) is null.
            const t = given === undefined || typeof given === 'function' || typeof given === 'symbol' ? 'null' : jsonText(given, depth + 1);
            if (t === null)
                return null;
            parts[i] = t;
        }
        return `[${parts.join(',')}]`;
    }
    if (!isPlainObject(value) || typeof value.toJSON === 'function')
        return null;
    return membersText(value, depth, null);
}
/**
 * Members in key order (UTF-16 code units, as `<` compares strings). An object (a target, a record)
 * has a few keys: they are sorted in place, by insertion (Array.prototype.sort allocated 115 MiB of scratch for 160 000
 * subjects); past SMALL_TARGET keys, by sort, so an input with thousands of keys costs n log n.
 */
function sortByKey(members) {
    if (members.length > SMALL_TARGET) {
        members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        return;
    }
    for (let i = 1; i < members.length; i++) {
        const m = members[i];
        let j = i - 1;
        while (j >= 0 && members[j][0] > m[0]) {
            members[j + 1] = members[j];
            j--;
        }
        members[j + 1] = m;
    }
}
const SMALL_TARGET = 8;
/** An object as JSON.parse makes them (canonicalize alone judges anything with another prototype: a toJSON, a boxed value). */
const isPlainObject = (v) => (0,json/* isObject */.Gv)(v) && Object.getPrototypeOf(v) === Object.prototype;


/***/ }),

/***/ 4637:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $t: () => (/* binding */ placeOf),
/* harmony export */   f2: () => (/* binding */ FINDING_CODES),
/* harmony export */   gk: () => (/* binding */ finding)
/* harmony export */ });
/* unused harmony exports FINDINGS, inputFinding, byLocation, compareFindings */
/* harmony import */ var _severity_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(432);


const FINDINGS = {
    invalid_artifact: {
        severity: 'error',
        title: 'Invalid artifact',
        help: 'An artifact could not be read or breaks its shape, so nothing in it is trusted.',
        about: 'file',
    },
    record_inconsistent: {
        severity: 'error',
        title: 'Audit record inconsistent',
        help: "An audit record's subject does not hash to its binding_digest: it was edited after it was made.",
    },
    duplicate_record: {
        severity: 'error',
        title: 'Duplicate audit record',
        help: 'Two records share one (provider, record_id) but differ in subject or binding_digest: one identity names one audit entry, so neither verifies a call.',
    },
    record_unmatched: {
        severity: 'error',
        option: { when: 'with `allow-unmatched-records`', severity: 'warning' },
        title: 'Audit record binds no call',
        help: 'A consistent audit record binds no recorded call: with an agent-scoped export, a side effect the provider logged for the agent that no committed run declares.',
    },
    record_pending: {
        severity: 'notice',
        title: 'Audit record waits for its run',
        help: "A record binds no call, and its own file holds a usable coverage statement of its scope (provider, action, an actor, its repository or organisation) whose window has ended less than the policy's pending ago: the agent's run may arrive by another pull request. Once pending has run out it is record_unmatched.",
    },
    record_untrusted: {
        severity: 'error',
        option: { when: "with the policy file's `trust.mode: warn`", severity: 'warning' },
        title: 'Audit record not from a trusted signer',
        help: 'Trusted signers are configured and the record is unsigned, signed by another key, or its signature does not verify.',
    },
    policy_unmet: {
        severity: 'error',
        option: { when: 'under a rule of `mode: warn`', severity: 'warning' },
        title: 'Required level not reached',
        help: "A required level (the policy file's rule or default, or --require / require) is above the level the call earned, or the record that verified it is not from a signer the rule names.",
        shortfall: true,
    },
    policy_invalid: {
        severity: 'error',
        title: 'Policy file invalid',
        help: "The policy file does not parse or breaks its rules (docs/policy.md); located in the file. The policy in effect invalid stops the gate (a configuration error); a pull request's own invalid policy fails it.",
        about: 'file',
    },
    policy_excepted: {
        severity: 'notice',
        title: 'Shortfall excused by an exception',
        help: 'A call falls short of its rule and a live exception of the policy file excuses it (its reason and owner are named). It never excuses an honesty failure.',
    },
    exception_expired: {
        severity: 'error',
        title: 'Exception expired',
        help: 'An exception of the policy file would excuse a call but has expired: the call fails as usual. Renew it with a new reason, or fix the call.',
    },
    exception_expiring: {
        severity: 'warning',
        title: 'Exception expiring soon',
        help: 'An exception of the policy file expires within 14 days: renew it or fix what it excuses before it does.',
    },
    exception_unused: {
        severity: 'warning',
        option: { when: 'for an exception a pull request adds, until it merges', severity: 'notice' },
        title: 'Exception excuses nothing',
        help: 'An exception of the policy file excused no call: prune it.',
    },
    grandfather_stale: {
        severity: 'warning',
        title: 'Grandfathered run absent or changed',
        help: 'A grandfathered entry of the policy file names a run that is not among the runs, or whose bytes changed: it grandfathers nothing, and a changed run is judged in full.',
    },
    policy_changed: {
        severity: 'notice',
        title: 'Pull request changes the policy',
        help: 'This pull request changes the policy file (or trust material read at the base): the change takes effect after merge; its effect on the committed corpus is shown.',
    },
    verified_not_reproduced: {
        severity: 'error',
        title: 'verified claim not reproduced',
        help: 'A call claims verified, but no committed audit record reproduces its binding.',
        shortfall: true,
    },
    observed_confirmed_not_reproduced: {
        severity: 'warning',
        option: { when: 'with `strict-observed`', severity: 'error' },
        title: 'observed_confirmed claim not reproduced',
        help: 'A call claims observed_confirmed, but no later successful read of the same target in the run confirms it (decided after it and, where the run says, begun after it was decided).',
        shortfall: true,
    },
    inconsistent_claim: {
        severity: 'error',
        title: 'Inconsistent claim',
        help: "A call's claim contradicts itself (level, source, digest, asserted flags), or asserts a side effect of a call that was denied, failed or did not succeed.",
    },
    run_incomplete: {
        severity: 'error',
        title: 'Run incomplete',
        help: 'A server log shows a tool call started or answered with no decision, or an event lost: a side effect may have happened that no decision records.',
        about: 'file',
    },
    run_unattested: {
        severity: 'error',
        option: { when: "with the policy file's `trust.mode: warn`", severity: 'warning' },
        title: 'Run not attested by a trusted producer',
        help: 'Trusted producers are configured and the run is not an evidence bundle whose attestation a trusted producer key signed and every check passes.',
        about: 'file',
    },
    orphan_attestation: {
        severity: 'warning',
        title: 'Attestation without its artifact',
        help: 'An attestation file (.intoto.jsonl, .sigstore.json) has no artifact of its base name beside it: a renamed artifact must not lose its attestation silently.',
        about: 'file',
    },
    no_artifacts: {
        severity: 'error',
        title: 'No run artifacts',
        help: 'The run-artifact inputs matched no file, or their files hold not one decision (an empty capture, runs and audit swapped); a gate that sees nothing must not pass.',
    },
    rule_unused: {
        severity: 'warning',
        title: 'Required-level rule applies to no call',
        help: 'A required-level rule matches no call that asserts a side effect (a misspelt class or verb must not silently turn a requirement off).',
    },
    effect_not_logged: {
        severity: 'error',
        title: 'Side effect the provider never logged',
        help: "An export's coverage statement covers the call's time and scope and holds no record for it: the side effect the agent asserted is not in the provider's log (or was done under another identity). Never excused.",
    },
    coverage_empty: {
        severity: 'warning',
        title: 'Coverage statement covers no call',
        help: 'A coverage statement whose actors list is empty, that names no organisation or repository (GitHub), or that lists an action no class the gate binds has (or another provider than its class): it checks nothing of what it names, so no call is held to it.',
    },
    pending: {
        severity: 'notice',
        title: 'Export not due yet',
        help: "The call is newer than every export that could cover it and younger than the policy's pending: its requirement waits for the next export.",
    },
    trusted_root_stale: {
        severity: 'warning',
        title: 'Shipped trusted root is old',
        help: 'The Sigstore trusted root shipped with receipt-gate was taken more than 180 days ago: update receipt-gate or pass a fresh trusted-root.',
    },
    imported_twice: {
        severity: 'notice',
        title: 'Audit entry imported twice',
        help: 'One audit entry is present twice with the same meaning (overlapping exports, at-least-once streaming, a redelivery): it is counted once.',
    },
    under_claimed: {
        severity: 'notice',
        title: 'Under-claimed',
        help: 'Calls earned a higher level than they claim (verified by a later export: the normal state with nightly exports); counted in one notice.',
    },
    signatures_unchecked: {
        severity: 'warning',
        title: 'Signatures not checked',
        help: 'Audit records are signed, but no trusted key or identity is configured: their signatures were not checked, and they count as unsigned ones would (give trusted-keys, and require-signed-records).',
    },
    skipped_object: { severity: 'notice', title: 'Skipped object', help: 'Objects of other artifact kinds were skipped.', about: 'file' },
    no_decisions: {
        severity: 'notice',
        title: 'No decisions',
        help: 'A run artifact (or a verified evidence bundle) holds no tool decisions.',
        about: 'file',
    },
    run_not_started: {
        severity: 'notice',
        title: 'Server never started',
        help: "A captured log is assay-mcp-server's own output from a start that failed (a startup_failure line, or an error after server_start): the run contributes no calls; its reason_code and next step say what to fix.",
        about: 'file',
    },
    no_records: { severity: 'notice', title: 'No records', help: 'An audit export holds no audit record.', about: 'file' },
    no_match: {
        severity: 'notice',
        option: {
            when: 'for an input given explicitly, and for a default folder missing beside a folder of a near name, such as `.assay/audits`: what that holds is not read',
            severity: 'error',
        },
        title: 'Input matched nothing',
        help: 'An input path or glob matched no file.',
    },
};
const FINDING_CODES = Object.keys(FINDINGS);
/** `file:line` (with `:column` when asked): how a message names a place; reporters have their own (report/text.ts). */
const placeOf = (l, column = false) => `${l.file}:${l.line}${column ? `:${l.column}` : ''}`;
/** A finding at a location; `severity` only for the codes whose severity an option changes. */
function finding(code, loc, message, severity = FINDINGS[code].severity) {
    const base = { severity, code, file: loc.file, line: loc.line, column: loc.column, message };
    if (loc.member !== undefined)
        return { ...base, member: loc.member };
    // A place in a file of another commit (a pull request's base, --policy-ref) names that commit in words too:
    // the file a reader has open is not the one the finding is about (docs/policy.md §8).
    if (loc.commit !== undefined) {
        const short = loc.commit.slice(0, 12);
        return { ...base, message: message.includes(short) ? message : `${message} (${loc.file} at commit ${short})`, commit: loc.commit };
    }
    return base;
}
/** A finding about an input as the user gave it (a path or glob), not a place in a committed file. */
function inputFinding(code, input, message, severity = FINDINGS[code].severity) {
    return { severity, code, input, file: null, line: null, column: null, message };
}
/** Root causes first: findings about inputs, then about whole files, then about the records and calls in them. */
const groupOf = (f) => (f.input !== undefined ? 0 : 'about' in FINDINGS[f.code] ? 1 : 2);
const byLocation = (a, b) => cmp(a.file, b.file) || a.line - b.line || a.column - b.column;
/** Where a finding is, for ordering: its input, or its file, line and column. */
const position = (a, b) => a.input !== undefined || b.input !== undefined ? cmp(a.input ?? '', b.input ?? '') : byLocation(a, b);
/** Root causes first (semantics §6): by group, then in path and line order, then by severity, code and message. */
function compareFindings(left, right) {
    return (groupOf(left) - groupOf(right) ||
        position(left, right) ||
        SEVERITY_TABLE[left.severity].rank - SEVERITY_TABLE[right.severity].rank ||
        cmp(left.code, right.code) ||
        cmp(left.message, right.message));
}


/***/ }),

/***/ 6153:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $3: () => (/* binding */ hasOwn),
/* harmony export */   Gv: () => (/* binding */ isObject),
/* harmony export */   gx: () => (/* binding */ str)
/* harmony export */ });
/* unused harmony exports wholeNumber, obj, memberAt */
/**
 * Values from JSON.parse, read safely: an own-property test that `__proto__` cannot fool, and the one
 * object check every reader and the core use. Parsed objects are never copied or spread.
 */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasOwn = (o, k) => Object.hasOwn(o, k);
/** A string member, or null (absent, empty or not a string). */
const str = (value, key) => {
    const given = isObject(value) ? value[key] : undefined;
    return typeof given === 'string' && given !== '' ? given : null;
};
/** A whole-number member (GitHub's issue and pull request numbers, comment ids; HTTP codes), or null. */
const wholeNumber = (value, key) => {
    const given = isObject(value) ? value[key] : undefined;
    return typeof given === 'number' && Number.isSafeInteger(given) && given > 0 ? given : null;
};
/** An object member, or null. */
const obj = (value, key) => {
    const given = isObject(value) ? value[key] : undefined;
    return isObject(given) ? given : null;
};
/** The value at a path of member names and list indexes, through own members only; undefined when there is none. */
function memberAt(value, path) {
    let node = value;
    for (const segment of path) {
        if (Array.isArray(node) && /^\d{1,6}$/.test(segment))
            node = node[Number(segment)];
        else if (isObject(node) && Object.hasOwn(node, segment))
            node = node[segment];
        else
            return undefined;
    }
    return node;
}


/***/ }),

/***/ 432:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   oC: () => (/* binding */ SEVERITIES)
/* harmony export */ });
/* unused harmony exports SEVERITY_TABLE, annotationRank */
/**
 * Severities, one table: their order and every reporter's word for each (the report's totals, the
 * Checks API's annotation level, SARIF's level, the summary's icon, the table's colour).
 */
/** How bad a finding is: the order is the rank (most severe first). */
const SEVERITIES = ['error', 'warning', 'notice'];
const SEVERITY_TABLE = {
    error: { rank: 0, total: 'errors', annotation: 'failure', sarif: 'error', icon: '❌', colour: 'red' },
    warning: { rank: 1, total: 'warnings', annotation: 'warning', sarif: 'warning', icon: '⚠️', colour: 'yellow' },
    notice: { rank: 2, total: 'notices', annotation: 'notice', sarif: 'note', icon: 'ℹ️', colour: 'dim' },
};
/** The rank of an annotation level: the rank of the severity it stands for. */
const annotationRank = (level) => SEVERITIES.findIndex((s) => SEVERITY_TABLE[s].annotation === level);


/***/ }),

/***/ 2020:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   F: () => (/* binding */ asciiLower),
/* harmony export */   bD: () => (/* binding */ messageOf),
/* harmony export */   hD: () => (/* binding */ quote)
/* harmony export */ });
/* unused harmony exports cmp, visible, clip, editDistance, nearestName, flat */
/** Text helpers every floor uses: one order for strings, one way to cut untrusted text. */
/** Plain string order (UTF-16 code units), the order of paths and ids everywhere. */
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
/**
 * Untrusted text (names, ids, providers from artifacts) as quoted in a message: at most `max`
 * UTF-16 units, cut at a code-point boundary with a visible marker, so no message grows with it.
 */
const quote = (s, max = 200) => clip(s, max);
// C0/C1 controls, DEL, line/paragraph separators, bidi overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Escape control and bidi characters as \uXXXX so they are shown, never interpreted. */
function visible(text) {
    return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/** At most `max` UTF-16 units, cut with a visible marker and never inside a surrogate pair. */
function clip(text, max, marker = '…') {
    if (text.length <= max)
        return text;
    let cut = Math.max(0, max - marker.length);
    const c = text.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff)
        cut--;
    return text.slice(0, cut) + marker;
}
/** Edit distance (insertions, deletions, substitutions; case counts), for "did you mean" suggestions. */
function editDistance(left, right) {
    let prev = Array.from({ length: right.length + 1 }, (_, j) => j);
    for (let i = 1; i <= left.length; i++) {
        const cur = [i];
        for (let j = 1; j <= right.length; j++) {
            cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (left[i - 1] === right[j - 1] ? 0 : 1));
        }
        prev = cur;
    }
    return prev[right.length];
}
/** The candidate nearest to `word` (ties: the first in order), when it is near enough to be a likely typo; else null. */
function nearestName(word, candidates) {
    let best = null;
    let bestD = Number.POSITIVE_INFINITY;
    for (const c of candidates) {
        const d = editDistance(word.toLowerCase(), c.toLowerCase());
        if (d < bestD)
            [best, bestD] = [c, d];
    }
    return best !== null && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}
/** ASCII letters in lower case, nothing else changed (GitHub's case-insensitivity; never Unicode folding). */
const asciiLower = (s) => (/[A-Z]/.test(s) ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s);
/** What went wrong, in words, whatever was thrown (an Error's message, or the value as text). */
const messageOf = (thrown) => (thrown instanceof Error ? thrown.message : String(thrown));
/**
 * The same text, as one flat string. V8 keeps a concatenation (a template literal) as a tree of its
 * parts, and a 70-character reason built from a few templates holds ~2× the memory of its text; a
 * text kept until the report is written (every call's reason) is flattened once, here, instead of
 * being held as a tree and flattened again when the report is rendered. Slicing a concatenation
 * flattens it; the value is the same string. Measured in
 * (BENCHMARKS.md, "Issue 44, eighteenth stop: the tail, and the bound on two cores").
 */
const flat = (s) => (s.length < 13 ? s : `\u0000${s}`.slice(1));


/***/ }),

/***/ 2334:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   QI: () => (/* binding */ compareInstants),
/* harmony export */   Qs: () => (/* binding */ autoSi),
/* harmony export */   TM: () => (/* binding */ parseRfc3339)
/* harmony export */ });
/* unused harmony exports parseDay, fromEpochNumber, utcAsWritten, rfc3339, instantOf, fromEpochNanos */
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const leap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y, m) => [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
const trimZeros = (digits) => digits.replace(/0+$/, '');
/** Why a calendar date is impossible, or null. */
function badDate(y, m, d) {
    if (m < 1 || m > 12)
        return `month ${m} does not exist`;
    if (d < 1 || d > daysIn(y, m))
        return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')} has no day ${d}`;
    return null;
}
/** An RFC 3339 date-time, or why it is not one. */
function parseRfc3339(text, options = {}) {
    const match = SHAPE.exec(text);
    if (!match)
        return { ok: false, reason: 'is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm))' };
    // Each field read directly (no array per parse: every record's signed_at and every event's time come through here).
    const y = Number(match[1]);
    const mo = Number(match[2]);
    const d = Number(match[3]);
    const h = Number(match[4]);
    const mi = Number(match[5]);
    const s = Number(match[6]);
    const date = badDate(y, mo, d);
    if (date)
        return { ok: false, reason: `is not a calendar date: ${date}` };
    if (h > 23)
        return { ok: false, reason: `has hour ${h}, which does not exist (00 to 23)` };
    if (mi > 59)
        return { ok: false, reason: `has minute ${mi}, which does not exist (00 to 59)` };
    if (s > 60)
        return { ok: false, reason: `has second ${s}, which does not exist (00 to 59; 60 only for a leap second)` };
    if (options.utc && !match[8])
        return { ok: false, reason: 'is not a UTC time (it must end in Z)' };
    let offset = 0;
    if (!match[8]) {
        const [oh, om] = [Number(match[10]), Number(match[11])];
        if (oh > 23 || om > 59)
            return { ok: false, reason: `has offset ${match[9]}${match[10]}:${match[11]}, beyond ±23:59` };
        offset = (match[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
    }
    // A leap second is inserted at the end of a UTC day: its local minute is UTC's 23:59 (RFC 3339 §5.7: 15:59:60-08:00).
    if (s === 60 && (((h * 60 + mi - offset / 60) % 1440) + 1440) % 1440 !== 1439)
        return { ok: false, reason: 'has second 60 where none is (a leap second is only in the last minute of a UTC day: 23:59:60Z)' };
    const seconds = daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + Math.min(s, 59) - offset;
    // A leap second (23:59:60) is its day's last second, its own after 23:59:59: inside a window that ends at the next midnight.
    if (s === 60)
        return { ok: true, value: { seconds, fraction: trimZeros(match[7] ?? ''), leap: true } };
    return { ok: true, value: { seconds, fraction: trimZeros(match[7] ?? '') } };
}
/** Days since 1970-01-01 of a proleptic Gregorian date (any year; no Date object, no two-digit-year rule). */
function daysFromCivil(year, m, d) {
    const y = m <= 2 ? year - 1 : year;
    const era = Math.floor(y / 400);
    const yoe = y - era * 400;
    const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
    const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
    return era * 146_097 + doe - 719_468;
}
/** A calendar date (YYYY-MM-DD) as its midnight UTC, or why it is not one. */
function parseDay(text) {
    const match = DAY.exec(text);
    if (!match)
        return null;
    const [y, mo, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const bad = badDate(y, mo, d);
    if (bad)
        return { ok: false, reason: `is not a calendar date: ${bad}` };
    return parseRfc3339(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`);
}
/**
 * A number of seconds (scale 0) or milliseconds (scale 3) since the epoch, read exactly from its
 * decimal form; null for a value that is not finite or is written with an exponent.
 */
function fromEpochNumber(v, scale) {
    if (!Number.isFinite(v))
        return null;
    const text = String(v);
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
    if (!match)
        return null;
    const digits = `${match[2]}${match[3] ?? ''}`;
    const point = match[2].length - scale;
    const whole = point > 0 ? digits.slice(0, point) : '0';
    const frac = point > 0 ? digits.slice(point) : '0'.repeat(-point) + digits;
    const seconds = Number(whole);
    if (match[1] === '-') {
        const file = trimZeros(frac);
        if (file === '')
            return { seconds: -seconds, fraction: '' };
        // −s.f = −(s+1) + (1 − 0.f)
        const complement = (BigInt(`1${'0'.repeat(file.length)}`) - BigInt(file)).toString().padStart(file.length, '0');
        return { seconds: -seconds - 1, fraction: trimZeros(complement) };
    }
    return { seconds, fraction: trimZeros(frac) };
}
/**
 * Order of two instants, exact at any precision: the second, a leap second after its 23:59:59, then
 * the fraction's digits (a missing digit is 0). Nothing is made per call: the ladder compares a
 * run's times pairwise.
 */
function compareInstants(left, right) {
    if (left.seconds !== right.seconds)
        return left.seconds < right.seconds ? -1 : 1;
    if (left.leap !== right.leap)
        return left.leap ? 1 : -1;
    const a = left.fraction;
    const b = right.fraction;
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
        const x = i < a.length ? a.charCodeAt(i) : 48;
        const y = i < b.length ? b.charCodeAt(i) : 48;
        if (x !== y)
            return x < y ? -1 : 1;
    }
    return 0;
}
/** YYYY-MM-DDThh:mm:ss of an instant in UTC; a leap second's second is 60. */
function utcSecond(instant) {
    const base = new Date(instant.seconds * 1000).toISOString().slice(0, 19);
    return instant.leap ? `${base.slice(0, 17)}60` : base;
}
/**
 * UTC, RFC 3339 with Z and 0, 3, 6 or 9 fraction digits: the fewest that show every non-zero digit of
 * the nanoseconds (chrono's AutoSi). A leap second is written without a second 60, as its day's last
 * nanosecond (a bundle's window, as it always was).
 */
function autoSi(instant) {
    const base = new Date(instant.seconds * 1000).toISOString().slice(0, 19);
    const nanos = instant.leap ? '999999999' : instant.fraction.slice(0, 9).padEnd(9, '0');
    if (/^0+$/.test(nanos))
        return `${base}Z`;
    const digits = nanos.endsWith('000000') ? 3 : nanos.endsWith('000') ? 6 : 9;
    return `${base}.${nanos.slice(0, digits)}Z`;
}
/**
 * A time as given (RFC 3339 at any offset, or YYYY-MM-DD for its midnight), written in UTC with the
 * fraction digits it was written with (`2026-11-30` → `2026-11-30T00:00:00Z`, `…T01:00:00.50+01:00`
 * → `…T00:00:00.50Z`): what a statement says its window was. A leap second is written as itself
 * (`15:59:60-08:00` → `23:59:60Z`), the instant it is read as and filtered on: written `23:59:59Z`
 * (or any 23:59:59), a statement's `since` would claim time before it, whose entries were skipped
 * as outside the window (a red team).
 */
function utcAsWritten(text) {
    const day = parseDay(text);
    if (day)
        return day.ok ? { ok: true, value: rfc3339(day.value) } : day;
    const parsed = parseRfc3339(text);
    if (!parsed.ok)
        return parsed;
    const digits = SHAPE.exec(text)?.[7];
    const base = utcSecond(parsed.value);
    return { ok: true, value: digits === undefined ? `${base}Z` : `${base}.${digits}Z` };
}
/** An instant as RFC 3339 UTC, with its fraction when it has one (a leap second as 23:59:60). */
function rfc3339(instant) {
    const base = utcSecond(instant);
    return instant.fraction === '' ? `${base}Z` : `${base}.${instant.fraction}Z`;
}
/** The instant of a JavaScript Date (whole milliseconds). */
function instantOf(date) {
    const ms = date.getTime();
    const seconds = Math.floor(ms / 1000);
    return {
        seconds,
        fraction: String(ms - seconds * 1000)
            .padStart(3, '0')
            .replace(/0+$/, ''),
    };
}
/** The latest instant an epoch count may name: 9999-12-31T23:59:59Z (RFC 3339 has four-digit years). */
const MAX_EPOCH_SECONDS = 253_402_300_799;
/**
 * OpenTelemetry's time: nanoseconds since the epoch, a decimal string (OTLP JSON writes 64-bit
 * integers so) or a whole number; null for anything else, 0 (unset) and years past 9999.
 */
function fromEpochNanos(given) {
    // A bare number past 2^53 has lost its last nanoseconds already; its whole part is still the time.
    const text = typeof given === 'string'
        ? given
        : typeof given === 'number' && Number.isInteger(given) && given > 0 && given < 1e21
            ? BigInt(given).toString()
            : '';
    if (!/^[1-9]\d{0,20}$/.test(text))
        return null;
    const padded = text.padStart(10, '0');
    const seconds = Number(padded.slice(0, -9));
    if (seconds > MAX_EPOCH_SECONDS)
        return null;
    return { seconds, fraction: trimZeros(padded.slice(-9)) };
}


/***/ }),

/***/ 9597:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   J5: () => (/* binding */ refused),
/* harmony export */   M5: () => (/* binding */ TRUST_CODE_NAMES),
/* harmony export */   kg: () => (/* binding */ combine),
/* harmony export */   x3: () => (/* binding */ NONE)
/* harmony export */ });
/* unused harmony exports warnable, refusalText */
/**
 * Trust as values: what one checker decided about a record or a run, and the one pure function that
 * combines the decisions of every checker configured (keys or identities: either trusts). Each
 * refusal carries a code from one table; its words are the detail. Nothing here checks anything:
 * the checkers are in src/trust/checkers/, and they run on the thread that read the file.
 */
/** Why a record or a run is not trusted: one table, read by the report, the docs and the tests. */
const TRUST_CODES = {
    unsigned: { means: 'the record carries no signature' },
    unknown_signer: { means: 'the signature names a key that is not trusted' },
    payload_digest_differs: { means: "the signature's payload digest is not the digest of the record" },
    signature_invalid: { means: 'a signature or a certificate does not verify' },
    no_attestation: { means: 'no attestation beside the file (no .intoto.jsonl sidecar, no .sigstore.json)' },
    attestation_empty: { means: 'the attestation file holds no envelope or bundle' },
    attestation_malformed: { means: 'the attestation file cannot be read or is malformed (see its invalid_artifact finding)' },
    not_a_bundle: { means: 'a producer key attests evidence bundles only; JSON surfaces and server logs cannot carry a sidecar' },
    payload_type: { means: 'the envelope signs another payload type' },
    statement_mismatch: { means: 'the Statement is not about this file (subject, digest, predicate type or predicate)' },
    bundle_unsupported: {
        means: 'a Sigstore bundle of an unsupported version or kind (a message signature, a key instead of a certificate)',
    },
    identity_untrusted: { means: "the certificate's identity or OIDC issuer is not trusted" },
    source_untrusted: { means: "the certificate's source repository or ref is not allowed" },
    chain_untrusted: {
        means: 'the certificate chains to no certificate authority of the trusted root (the root may be out of date)',
        configuration: true,
    },
    log_unknown: {
        means: 'the transparency log or timestamp authority is not in the trusted root (the root may be out of date)',
        configuration: true,
    },
    history_only: {
        means: "a grandfathered audit file's record (trust not asked of it for the runs the base holds) that would bind a call the pull request adds or changes: held to its own trust, an error under any trust mode",
        enforced: true,
    },
};
const TRUST_CODE_NAMES = Object.keys(TRUST_CODES);
const NONE = { kind: 'none' };
/** Whether `trust.mode: warn` may make the refusal a warning (a rollout's gap), or it stays an error (a replay). */
const warnable = (code) => TRUST_CODES[code].enforced !== true;
/** A refusal, made where the check failed. */
const refused = (code, detail) => ({ kind: 'untrusted', code, detail });
/** A refusal's words, with how to refresh the root when the code says the root may be out of date. */
function refusalText(code, detail) {
    const entry = TRUST_CODES[code];
    return entry.configuration
        ? `${detail} (the trusted root may be out of date: refresh it with \`gh attestation trusted-root\`, or update receipt-gate)`
        : detail;
}
/**
 * The decisions of every configured checker, in checker order, as one: trusted when any trusts (the
 * first); else untrusted when any refused (the first refusal's code, every refusal's words);
 * else unchecked when an attestation was seen; else none.
 */
function combine(decisions) {
    let firstRefusal = null;
    const details = [];
    let unchecked = null;
    for (const d of decisions) {
        if (d.kind === 'trusted')
            return d;
        if (d.kind === 'untrusted') {
            firstRefusal ??= d;
            details.push(d.detail);
        }
        else if (d.kind === 'unchecked')
            unchecked ??= d;
    }
    if (firstRefusal)
        return details.length === 1 ? firstRefusal : refused(firstRefusal.code, details.join('; and '));
    return unchecked ?? NONE;
}


/***/ }),

/***/ 7753:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   P: () => (/* binding */ strictBase64)
/* harmony export */ });
/** Standard base64 (RFC 4648 §4, padded), strictly: the one decoder of signatures and envelopes. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** The bytes of strict standard base64 text, or null (wrong alphabet, length or padding). */
const strictBase64 = (s) => (s.length % 4 === 0 && BASE64.test(s) ? Buffer.from(s, 'base64') : null);


/***/ }),

/***/ 5168:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  QR: () => (/* binding */ crc32),
  w5: () => (/* binding */ zlib)
});

// UNUSED EXPORTS: builtin, childProcess, tableCrc32

;// CONCATENATED MODULE: external "node:module"
const external_node_module_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:module");
;// CONCATENATED MODULE: ./src/read/builtins.ts
/**
 * Node built-ins that cost milliseconds to load and that most runs never use, loaded where first
 * used instead of when the bundle starts: `node:child_process` (~7.5 ms: git, only for a policy or
 * trust file read at a commit) and `node:zlib` (~3 ms: gzip and CRC-32, only for bundles, gzipped
 * exports, the cache and CloudTrail's digests). Measured in
 * (BENCHMARKS.md, "Issue 44, twenty-fifth stop: built-ins loaded where first used").
 */

/** A built-in: `process.getBuiltinModule` (Node 22.3+), else `require` (22.0–22.2, which `engines` allows); each is asked for once, below. */
function builtin(id) {
    const get = process.getBuiltinModule;
    return (typeof get === 'function' ? get(id) : (0,external_node_module_namespaceObject.createRequire)(import.meta.url)(id));
}
let childProcessModule = null;
let zlibModule = null;
const childProcess = () => (childProcessModule ??= builtin('node:child_process'));
const zlib = () => (zlibModule ??= builtin('node:zlib'));
const CRC_TABLE = (() => {
    const table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        table[n] = c >>> 0;
    }
    return table;
})();
/** CRC-32 as zlib computes it, continued from `value`, in JavaScript: for runtimes whose zlib has none (before Node 22.2). */
function tableCrc32(data, value = 0) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let c = ~value >>> 0;
    for (let i = 0; i < bytes.length; i++)
        c = (CRC_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
    return ~c >>> 0;
}
/** zlib's CRC-32 where it has one, else the table's: chosen once, at the first check (a snapshot kept checks each call's row). */
let crc = null;
/** CRC-32 (zlib's: a bundle's gzip trailer, the cache's checks against damage), continued from `value`; native from Node 22.2. */
function crc32(data, value = 0) {
    if (crc === null) {
        const native = zlib().crc32;
        crc = typeof native === 'function' ? native : tableCrc32;
    }
    return crc(data, value);
}


/***/ }),

/***/ 8238:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Bz: () => (/* binding */ LocatingSink),
  D4: () => (/* binding */ decode),
  E4: () => (/* binding */ decodeSource),
  DB: () => (/* binding */ documents),
  OG: () => (/* binding */ logLines)
});

// EXTERNAL MODULE: external "node:buffer"
var external_node_buffer_ = __nccwpck_require__(4573);
// EXTERNAL MODULE: ./src/core/findings.ts
var findings = __nccwpck_require__(4637);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
// EXTERNAL MODULE: ./src/read/builtins.ts + 1 modules
var builtins = __nccwpck_require__(5168);
// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __nccwpck_require__(755);
;// CONCATENATED MODULE: ./src/read/json/pieces.ts
/**
 * A large ASCII JSON document read in pieces, never as one string: V8 puts a string of more than
 * ~128 KiB in its own pages, fresh from the kernel, and decoding one costs a page fault per 4 KiB
 * (BENCHMARKS.md, "Issue 44, seventeenth stop: where the page faults go"). The array a reader
 * collects (a run's decisions, an export's records) is found on the bytes, and read in chunks of
 * whole elements; the rest of the document (the shell) is read with one element left in the array.
 *
 * The bytes are only walked to find where things are; what is read is proved by the strict reader
 * (read/json/strict.ts), so the walk decides nothing:
 * - the shell, with the array's elements replaced by one `0`, is strict JSON within the limits and
 *   that `0` is the one element of the array at the collected path (so the array is where the walk
 *   says it is, and the glue after `[` and before `]` is whitespace);
 * - each chunk of elements, wrapped in `[` `]`, is strict JSON within the limits left at that depth,
 *   with as many elements as the walk found (so the walk split it where the grammar does);
 * - between chunks there is only whitespace and one comma.
 * Then the whole text is strict JSON, its value is the shell's with the chunks' elements in place of
 * the `0`, and its element offsets are the walk's. Anything else (a file that is not plain ASCII,
 * an escaped key, a problem anywhere) gives null, and the whole text is read as before: a problem is
 * always found and said by the one whole-text reader, at the same place, with the same words.
 */



/** Elements read together, in bytes: well under the size V8 moves a string to its own pages. */
const CHUNK = 64 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
function skipWs(b, i) {
    while (i < b.length && (0,scanner/* isJsonSpace */.RB)(b[i]))
        i++;
    return i;
}
/** After the string whose opening quote is at i: past its closing quote (one not escaped), or -1. */
function stringEnd(b, i) {
    for (let q = b.indexOf(QUOTE, i + 1); q !== -1; q = b.indexOf(QUOTE, q + 1)) {
        let k = q - 1;
        while (b[k] === BACKSLASH)
            k--;
        if ((q - 1 - k) % 2 === 0)
            return q + 1;
    }
    return -1;
}
/** What a byte is to the walk: 0 nothing, 1 a quote, 2 an opening bracket, 3 a closing one, 4 a colon (a table: one load per byte). */
const CLASS = new Uint8Array(256);
CLASS[QUOTE] = 1;
CLASS[LBRACE] = 2;
CLASS[LBRACKET] = 2;
CLASS[RBRACE] = 3;
CLASS[RBRACKET] = 3;
CLASS[COLON] = 4;
/** Colons outside strings the walk passed since it was last set to 0 (synchronous: one counter serves every walk). */
let colonsPassed = 0;
/** After the value that starts at i (as JSON would end it if it is JSON), or -1; the colons outside its strings are added to `colonsPassed`. */
function valueEnd(b, i) {
    const c = b[i];
    if (c === QUOTE)
        return stringEnd(b, i);
    if (c === LBRACE || c === LBRACKET) {
        let depth = 0;
        const n = b.length;
        while (i < n) {
            const k = CLASS[b[i] ?? 0];
            if (k === 0)
                i++;
            else if (k === 1) {
                i = stringEnd(b, i);
                if (i < 0)
                    return -1;
            }
            else if (k === 4) {
                colonsPassed++;
                i++;
            }
            else {
                if (k === 2)
                    depth++;
                else if (--depth === 0)
                    return i + 1;
                i++;
            }
        }
        return -1;
    }
    while (i < b.length) {
        const d = b[i];
        if (d === COMMA || d === RBRACKET || d === RBRACE || (0,scanner/* isJsonSpace */.RB)(d))
            break;
        i++;
    }
    return i;
}
/** Where the array at a path of at most one key starts (its `[`), walking the root's members by their raw keys; -1 when not found so. */
function arrayAt(b, path) {
    let i = skipWs(b, 0);
    if (path.length === 0)
        return b[i] === LBRACKET ? i : -1;
    if (path.length > 1 || b[i] !== LBRACE)
        return -1;
    const key = Buffer.from(JSON.stringify(path[0]), 'utf8');
    i = skipWs(b, i + 1);
    while (b[i] === QUOTE) {
        const end = stringEnd(b, i);
        if (end < 0)
            return -1;
        const named = end - i === key.length && b.compare(key, 0, key.length, i, end) === 0;
        i = skipWs(b, end);
        if (b[i] !== COLON)
            return -1;
        i = skipWs(b, i + 1);
        if (named)
            return b[i] === LBRACKET ? i : -1;
        i = valueEnd(b, i);
        if (i < 0)
            return -1;
        i = skipWs(b, i);
        if (b[i] !== COMMA)
            return -1;
        i = skipWs(b, i + 1);
    }
    return -1;
}
/** The elements of the array whose `[` is at `open`: each one's start and end, the glue between them checked; null when it is not so (or empty). */
function elementsOf(b, open) {
    const starts = [];
    const ends = [];
    const colons = [];
    let i = skipWs(b, open + 1);
    if (b[i] === RBRACKET)
        return null;
    for (;;) {
        colonsPassed = 0;
        const end = valueEnd(b, i);
        if (end <= i)
            return null;
        starts.push(i);
        ends.push(end);
        colons.push(colonsPassed);
        i = skipWs(b, end);
        if (b[i] === RBRACKET)
            return { starts, ends, colons };
        if (b[i] !== COMMA)
            return null;
        i = skipWs(b, i + 1);
    }
}
const NOTHING = [];
/**
 * The strict parse of a plain-ASCII document read in pieces: the same value and element offsets as
 * `parseStrict` of its whole text, or null (then read the whole text: it may be fine, or it has a
 * problem to say). Offsets are byte offsets, which are the text's for ASCII. The bytes must be plain
 * ASCII (the caller knows: read/documents.ts); `chunkBytes` is a parameter for the tests.
 */
function parsePieces(b, options, chunkBytes = CHUNK) {
    const collect = options.collect ?? NOTHING;
    for (const path of collect) {
        const open = path.length <= 1 ? arrayAt(b, path) : -1;
        if (open < 0)
            continue;
        const found = elementsOf(b, open);
        return found && read(b, options, path, found, chunkBytes);
    }
    return null;
}
function read(b, options, path, found, chunkBytes) {
    const { starts, ends, colons } = found;
    const first = starts[0] ?? 0;
    const last = ends[ends.length - 1] ?? 0;
    const shell = (0,strict/* parseStrict */.z3)(`${b.toString('latin1', 0, first)}0${b.toString('latin1', last, b.length)}`, options);
    const key = (0,scanner/* pathKey */.Pn)(path);
    if (!shell.ok)
        return null;
    const at = atPath(shell.value.json, path);
    if (at?.length !== 1 || at[0] !== 0)
        return null;
    const elements = new Map();
    for (const [k, offsets] of shell.value.elements) {
        if (k === key) {
            if (offsets.length !== 1 || offsets[0] !== first)
                return null;
            elements.set(k, starts);
        }
        else if (offsets.length > 0)
            return null;
        else
            elements.set(k, offsets);
    }
    if (!elements.has(key))
        return null;
    const depth = options.maxDepth - path.length;
    const values = [];
    for (let j = 0; j < starts.length;) {
        const from = starts[j] ?? 0;
        let n = colons[j] ?? 0;
        let k = j + 1;
        while (k < starts.length && (ends[k] ?? 0) - from <= chunkBytes)
            n += colons[k++] ?? 0;
        // The walk's colons are the chunk's outside its strings (only commas and whitespace lie between its elements), once JSON.parse has accepted it.
        const chunkOptions = { maxDepth: depth, maxKeys: options.maxKeys, collect: NOTHING, colons: n };
        const chunk = (0,strict/* parseStrict */.z3)(`[${b.toString('latin1', from, ends[k - 1])}]`, chunkOptions);
        if (!chunk.ok || !Array.isArray(chunk.value.json) || chunk.value.json.length !== k - j)
            return null;
        for (const v of chunk.value.json)
            values.push(v);
        j = k;
    }
    return { ok: true, value: { json: withArray(shell.value.json, path, values), elements: elements } };
}
/** The array at a path of at most one key (the reader's own key, never input text), when there is one. */
function atPath(value, path) {
    const k = path[0];
    const given = k === undefined ? value : (0,json/* isObject */.Gv)(value) && (0,json/* hasOwn */.$3)(value, k) ? value[k] : undefined;
    return Array.isArray(given) ? given : null;
}
/** The shell's value with the elements in place of its one-element array at the path. */
function withArray(shell, path, values) {
    const k = path[0];
    if (k === undefined)
        return values;
    Object.defineProperty(shell, k, { value: values, writable: true, enumerable: true, configurable: true });
    return shell;
}

;// CONCATENATED MODULE: ./src/read/json/positions.ts
/** Where an offset of a decoded text is: its 1-based line and column. */
/**
 * 1-based line and column (in UTF-16 code units) of offsets in one text. Readers ask in increasing
 * order (a file's decisions, records and findings as they are read), so the index walks forward
 * from the last offset asked, counting newlines; an offset before it is found in a table of line
 * starts, built once, up to the furthest offset asked so far (not a table of every line of a file
 * for a few hundred offsets: 3.3 million lines for 100 000 calls).
 */
class LineIndex {
    text;
    /** The line (0-based) and the start of the line of the furthest offset asked. */
    at = 0;
    line = 0;
    lineStart = 0;
    /** The first newline at or after lineStart (-1: none; -2: not looked for yet), so offsets on one long line cost no search. */
    nextBreak = -2;
    /** Line starts up to `at`, built when an offset before it is asked. */
    starts = null;
    /** Over a text, or over the bytes of a plain-ASCII one (read/documents.ts: its byte offsets are its text's). */
    constructor(text) {
        this.text = text;
    }
    /** The first newline at or after `from`, or -1 (over bytes, a loop: a native search per line of ~40 bytes costs more than it finds). */
    newline(from) {
        const text = this.text;
        if (typeof text === 'string')
            return text.indexOf('\n', from);
        for (let i = from; i < text.length; i++)
            if (text[i] === 0x0a)
                return i;
        return -1;
    }
    locate(offset) {
        if (offset >= this.at) {
            const starts = this.starts;
            if (this.nextBreak === -2)
                this.nextBreak = this.newline(0);
            while (this.nextBreak !== -1 && this.nextBreak < offset) {
                this.line++;
                this.lineStart = this.nextBreak + 1;
                starts?.push(this.lineStart);
                this.nextBreak = this.newline(this.lineStart);
            }
            this.at = offset;
            return { line: this.line + 1, column: offset - this.lineStart + 1 };
        }
        const starts = this.behind();
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if ((starts[mid] ?? 0) <= offset)
                lo = mid;
            else
                hi = mid - 1;
        }
        return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
    }
    /** The line starts up to the furthest offset asked (then kept up to date as the index moves forward). */
    behind() {
        if (!this.starts) {
            const starts = [0];
            for (let i = this.newline(0); i !== -1 && i < this.lineStart; i = this.newline(i + 1))
                starts.push(i + 1);
            this.starts = starts;
        }
        return this.starts;
    }
}

// EXTERNAL MODULE: ./src/read/limits.ts
var read_limits = __nccwpck_require__(5826);
// EXTERNAL MODULE: ./src/read/lines.ts
var lines = __nccwpck_require__(771);
// EXTERNAL MODULE: ./src/read/utf8.ts
var utf8 = __nccwpck_require__(8145);
;// CONCATENATED MODULE: ./src/read/documents.ts
/**
 * The one document pipeline: bytes → decoded text → strict-JSON documents, each with the offset it
 * starts at and the element offsets its reader asked for. Every input kind reads through here: run
 * artifacts and audit exports (`json`: the whole file; `ndjson`: one document per non-blank line),
 * bundle events, and the importers' exports (`values`: one or more JSON values one after another,
 * so one value, `[…][…]` pages and JSON lines are all read as written), attestations and trusted
 * roots (`oneOrLines`: one value, pretty-printed or not, or one compact value per line). Limits are
 * in bytes everywhere; problems go to the sink at their offset, never as exceptions. A large
 * plain-ASCII run or export (a Source) is never made one large string when it reads as its whole
 * text would: its .json document in pieces, its NDJSON lines a block at a time
 * (BENCHMARKS.md, "Issue 44, seventeenth stop: where the page faults go").
 */











/**
 * The one locating sink: problems at offsets of one file become `invalid_artifact` findings at its
 * line and column (once the file's line index is known: before that, 1:1). Readers with more to
 * say (caps, skips) extend it.
 */
class LocatingSink {
    file;
    findings = [];
    lines = null;
    constructor(file) {
        this.file = file;
    }
    at(offset) {
        const { line, column } = this.lines ? this.lines.locate(offset) : { line: 1, column: 1 };
        return { file: this.file, line, column };
    }
    locate(where) {
        return 'offset' in where ? this.at(where.offset) : { file: this.file, line: where.line, column: where.column };
    }
    error(where, message) {
        this.report(this.locate(where), message);
    }
    /** Where a located problem goes: here, the findings. */
    report(loc, message) {
        this.findings.push((0,findings/* finding */.gk)('invalid_artifact', loc, message));
    }
}
/** What a file that is not UTF-8 is when it is UTF-16 (a byte-order mark, or NUL bytes between ASCII), so the message can say so. */
function utf16(bytes) {
    const le = bytes[0] === 0xff && bytes[1] === 0xfe;
    const be = bytes[0] === 0xfe && bytes[1] === 0xff;
    const nulls = bytes.length >= 4 && ((bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) || (bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0));
    if (!le && !be && !nulls)
        return null;
    const order = le || (!be && bytes[1] === 0) ? 'little-endian' : 'big-endian';
    return `the file is UTF-16 (${order}${le || be ? ', with a byte-order mark' : ''}), not UTF-8: save it as UTF-8 without a byte-order mark`;
}
const isGzip = (b) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
/**
 * Bytes → text, within max-file-size, strict UTF-8. With `gzip`, a gzip stream (streaming exports)
 * is decompressed first, to at most max-file-size (a bomb stops there).
 */
function decode(bytes, limits, sink, options = {}) {
    let raw = bytes;
    if (options.gzip && isGzip(bytes)) {
        try {
            raw = (0,builtins/* zlib */.w5)().gunzipSync(bytes, { maxOutputLength: limits.maxFileBytes });
        }
        catch (error) {
            const tooLarge = error.code === 'ERR_BUFFER_TOO_LARGE';
            sink.error({ line: 1, column: 1 }, tooLarge ? `decompresses to more than ${limits.maxFileBytes} bytes (max-file-size; a gzip bomb?)` : 'is not a valid gzip stream');
            return null;
        }
    }
    if (raw.length > limits.maxFileBytes) {
        sink.error({ line: 1, column: 1 }, (0,read_limits/* fileTooLarge */.ME)(raw.length, limits));
        return null;
    }
    const decoded = (0,utf8/* decodeUtf8 */._)(raw);
    if (!decoded.ok) {
        sink.error((0,utf8/* byteLocation */.I)(raw, decoded.reason), utf16(raw) ?? `invalid UTF-8 at byte ${decoded.reason}`);
        return null;
    }
    return { text: decoded.value, lines: new LineIndex(decoded.value) };
}
/** Files this large, in bytes, and plain ASCII, are read from their bytes where they can be (read/json/pieces.ts). */
const PIECES_FROM = 128 * 1024;
/** Bytes → a Source (decode's limits and problems; a large plain-ASCII file is left as its bytes). */
function decodeSource(bytes, limits, sink) {
    if (bytes.length >= PIECES_FROM && bytes.length <= limits.maxFileBytes && (0,external_node_buffer_.isAscii)(bytes)) {
        const ascii = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        let text = null;
        // Plain ASCII is valid UTF-8 that decodes to the same code units.
        return { lines: new LineIndex(ascii), ascii, text: () => (text ??= ascii.toString('latin1')) };
    }
    const decoded = decode(bytes, limits, sink);
    return decoded && { lines: decoded.lines, ascii: null, text: () => decoded.text };
}
/**
 * The documents of a decoded text, one at a time (a generator: parsed lines are never all held at
 * once). A Source's .json document is read in pieces when it can be, else from its whole text.
 */
function* documents(input, mode, options, sink) {
    const { limits } = options;
    const opts = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: options.collect };
    if (typeof input !== 'string') {
        const { ascii } = input;
        const pieces = mode === 'json' && ascii ? parsePieces(ascii, opts) : null;
        if (pieces?.ok)
            yield { value: pieces.value.json, start: 0, elements: pieces.value.elements };
        else if (mode === 'ndjson' && ascii)
            for (const [from, to] of blocks(ascii))
                yield* jsonLines(ascii.toString('latin1', from, to), from, opts, limits, sink);
        else
            yield* documents(input.text(), mode, options, sink);
        return;
    }
    const text = input;
    if (mode === 'json') {
        const parsed = (0,strict/* parseStrict */.z3)(text, opts);
        if (parsed.ok)
            yield { value: parsed.value.json, start: 0, elements: parsed.value.elements };
        else
            sink.error({ offset: parsed.reason.offset }, parsed.reason.message);
        return;
    }
    if (byteOrderMark(text, sink))
        return;
    if (mode === 'ndjson') {
        yield* jsonLines(text, 0, opts, limits, sink);
        return;
    }
    if (mode === 'values') {
        for (const span of values(text, opts, limits, sink))
            yield span.doc;
        return;
    }
    yield* oneOrLines(text, opts, limits, sink);
}
/** NDJSON lines read a block at a time: whole lines, about this many bytes (a longer line is a block of its own). */
const BLOCK = 64 * 1024;
/** The blocks of whole lines of an ASCII file, as [from, to) byte ranges: each ends after a newline, or at the end. */
function* blocks(b) {
    for (let from = 0; from < b.length;) {
        let to = b.length;
        if (from + BLOCK < b.length) {
            const last = b.lastIndexOf(0x0a, from + BLOCK - 1);
            const next = last >= from ? last : b.indexOf(0x0a, from + BLOCK);
            if (next >= 0)
                to = next + 1;
        }
        yield [from, to];
        from = to;
    }
}
/** The documents of NDJSON text (the whole file's, or a block of its lines starting at `base` in the file), at the file's offsets. */
function* jsonLines(text, base, opts, limits, sink) {
    for (const { start, end } of (0,lines/* lines */.Mn)(text)) {
        if ((0,lines/* overBytes */.Q_)(text, start, end, limits.maxLineBytes)) {
            sink.error({ offset: start + base }, (0,read_limits/* lineTooLong */.ti)(limits));
        }
        else if (!(0,lines/* blank */.hQ)(text, start, end)) {
            // Anything but spaces and tabs is a document: a BOM, U+00A0 or U+2028 alone is an error, not a blank line.
            const parsed = (0,strict/* parseStrict */.z3)(text, opts, start, end, base);
            if (parsed.ok)
                yield { value: parsed.value.json, start: start + base, elements: parsed.value.elements };
            else
                sink.error({ offset: parsed.reason.offset }, parsed.reason.message);
        }
    }
}
/**
 * One value (pretty-printed or not), or one compact value per line: never two pretty-printed values
 * one after another, never two values on one line (what `gh attestation` and `actions/attest` write,
 * and nothing a reader could take two ways).
 */
function* oneOrLines(text, opts, limits, sink) {
    const spans = [...values(text, opts, limits, sink)];
    if (spans.length <= 1) {
        for (const span of spans)
            yield span.doc;
        return;
    }
    let lastEnd = 0;
    for (const { doc, end } of spans) {
        const sameLine = lastEnd > 0 && !text.slice(lastEnd, doc.start).includes('\n');
        lastEnd = end;
        if (text.slice(doc.start, end).includes('\n'))
            sink.error({ offset: doc.start }, 'a file of several values must hold one compact value per line (a pretty-printed value must be alone in its file)');
        else if (sameLine)
            sink.error({ offset: doc.start }, 'two values on one line: one compact value per line');
        else
            yield doc;
    }
}
/** Whether the text begins with a byte-order mark, refused at 1:1 (never read as part of the first line). */
function byteOrderMark(text, sink) {
    if (text.charCodeAt(0) !== 0xfeff)
        return false;
    sink.error({ offset: 0 }, 'byte-order mark (U+FEFF) is not allowed: save the file as UTF-8 without a byte-order mark');
    return true;
}
/** A JSON-RPC message by its own member: an object with a string `jsonrpc`. */
const isRpc = (value) => (0,json/* isObject */.Gv)(value) && typeof value['jsonrpc'] === 'string';
/**
 * A line that starts with `[` (after any spaces or tabs: `start` is the `[`) as a JSON-RPC batch
 * (JSON-RPC 2.0 batching, MCP 2025-03-26: stdout's answers mixed in): strict JSON, an array with at
 * least one JSON-RPC message, each element its own document; null when it is none (text, as before:
 * `[2026-05-14 INFO] …`, an array of other values); 'error' when it names `jsonrpc` after `[{` but is
 * not strict JSON (a truncated batch, said at its offset). A red team: a batched tools/call passed as
 * a text line, undecided.
 */
function rpcBatch(text, opts, start, end, sink) {
    const parsed = (0,strict/* parseStrict */.z3)(text, { ...opts, collect: [[]] }, start, end);
    if (!parsed.ok) {
        const line = text.slice(start, end);
        if (!/^\[\s*\{/.test(line) || !line.includes('"jsonrpc"'))
            return null;
        sink.error({ offset: parsed.reason.offset }, `a line that starts with "[{" and names "jsonrpc" is not strict JSON (a truncated JSON-RPC batch?): ${parsed.reason.message}`);
        return 'error';
    }
    const value = parsed.value.json;
    if (!Array.isArray(value) || !value.some(isRpc))
        return null;
    const offsets = parsed.value.elements.get((0,scanner/* pathKey */.Pn)([])) ?? [];
    const elements = [];
    for (const at of offsets) {
        // Each element is read again on its own, as a line holding it alone would be (its paths' offsets collected).
        const stop = (0,scanner/* firstValueEnd */.t1)(text, opts, at, end);
        const doc = stop.ok ? (0,strict/* parseStrict */.z3)(text, opts, at, stop.value) : null;
        if (!stop.ok || !doc?.ok) {
            // Never so (the whole line is strict JSON), but said, never dropped.
            sink.error({ offset: at }, 'an element of a JSON-RPC batch line could not be read on its own');
            return 'error';
        }
        elements.push({ doc: { value: doc.value.json, start: at, elements: doc.value.elements }, end: stop.value });
    }
    return elements;
}
/**
 * The lines of a server log (`.log`, docs/assay-server-logs.md): a line whose first character is `{`
 * must be one strict JSON document (a truncated last line is an error, never a skip); a line whose
 * first character other than a space or a tab is `[` and that is a JSON-RPC batch is its elements,
 * and one whose first such character is `{` and that is one strict JSON-RPC message is that message
 * (a red team: indented, a batched or single tools/call passed as a text line, undecided); any other
 * non-blank line is text for the reader to judge; blank lines are nothing.
 */
function* logLines(text, options, sink) {
    // A log saved with a BOM (PowerShell, an editor) read its first line as text, then "no server_start line": say what it is.
    if (byteOrderMark(text, sink))
        return;
    const { limits } = options;
    const opts = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: options.collect };
    for (const { start, end } of (0,lines/* lines */.Mn)(text)) {
        if ((0,lines/* overBytes */.Q_)(text, start, end, limits.maxLineBytes)) {
            sink.error({ offset: start }, (0,read_limits/* lineTooLong */.ti)(limits));
            continue;
        }
        if ((0,lines/* blank */.hQ)(text, start, end))
            continue;
        // JSON-RPC is looked for past leading spaces and tabs (its offsets, and so its columns, count them);
        // a tracing line keeps the first-character rule (indented, it is text: one that mentions tool_decision an error).
        let lead = start;
        for (let c = text.charCodeAt(lead); c === 0x20 || c === 0x09; c = text.charCodeAt(++lead))
            ;
        const first = text.charCodeAt(lead);
        if (first === 0x5b) {
            const batch = rpcBatch(text, opts, lead, end, sink);
            if (batch !== null) {
                if (batch !== 'error')
                    yield { kind: 'batch', elements: batch };
                continue;
            }
        }
        if (first === 0x7b && lead > start) {
            const parsed = (0,strict/* parseStrict */.z3)(text, opts, lead, end);
            if (parsed.ok && isRpc(parsed.value.json))
                yield { kind: 'json', doc: { value: parsed.value.json, start: lead, elements: parsed.value.elements } };
            // Not strict JSON but naming "jsonrpc": a truncated message, said as a truncated batch is (never a text line).
            else if (!parsed.ok && text.slice(lead, end).includes('"jsonrpc"'))
                sink.error({ offset: parsed.reason.offset }, `a line that starts with "{" after spaces or tabs and names "jsonrpc" is not strict JSON (a truncated JSON-RPC message?): ${parsed.reason.message}`);
            else
                yield { kind: 'text', start, end };
            continue;
        }
        if (first !== 0x7b) {
            yield { kind: 'text', start, end };
            continue;
        }
        const parsed = (0,strict/* parseStrict */.z3)(text, opts, start, end);
        if (parsed.ok)
            yield { kind: 'json', doc: { value: parsed.value.json, start, elements: parsed.value.elements } };
        else
            sink.error({ offset: parsed.reason.offset }, `a line that starts with "{" is not strict JSON (a truncated line?): ${parsed.reason.message}`);
    }
}
/** Zero or more JSON values, whitespace between them (an empty export is no entries), each with where it ends; after a syntax error, reading resumes at the next line. */
function* values(text, opts, limits, sink) {
    let at = 0;
    for (;;) {
        while (at < text.length && (0,scanner/* isJsonSpace */.RB)(text.charCodeAt(at)))
            at++;
        if (at >= text.length)
            break;
        const end = (0,scanner/* firstValueEnd */.t1)(text, opts, at);
        if (!end.ok) {
            sink.error({ offset: end.reason.offset }, end.reason.message);
            const next = text.indexOf('\n', Math.max(end.reason.offset, at + 1));
            if (next < 0)
                break;
            at = next + 1;
            continue;
        }
        // A value on one line is held to the line limit, as a JSON line would be.
        if (end.value - at > limits.maxLineBytes / 3 &&
            text.lastIndexOf('\n', end.value - 1) < at &&
            (0,lines/* overBytes */.Q_)(text, at, end.value, limits.maxLineBytes)) {
            sink.error({ offset: at }, (0,read_limits/* lineTooLong */.ti)(limits));
        }
        else {
            const parsed = (0,strict/* parseStrict */.z3)(text, opts, at, end.value);
            if (parsed.ok)
                yield { doc: { value: parsed.value.json, start: at, elements: parsed.value.elements }, end: end.value };
            else
                sink.error({ offset: parsed.reason.offset }, parsed.reason.message);
        }
        at = end.value;
    }
}


/***/ }),

/***/ 1210:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Lh: () => (/* binding */ onlySubject),
/* harmony export */   T4: () => (/* binding */ IN_TOTO_PAYLOAD_TYPE),
/* harmony export */   f_: () => (/* binding */ readEnvelopeFile),
/* harmony export */   iv: () => (/* binding */ strictPayload),
/* harmony export */   zG: () => (/* binding */ STATEMENT_TYPE)
/* harmony export */ });
/* unused harmony export VSA_PREDICATE_TYPE */
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4637);
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(6153);
/* harmony import */ var _base64_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(7753);
/* harmony import */ var _documents_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8238);
/* harmony import */ var _limits_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(5826);
/**
 * DSSE envelopes (docs/attestations.md, "The DSSE envelope"): the shape only, no keys. An envelope
 * file holds one JSON value (possibly pretty-printed) or one compact envelope per line, read through
 * the one document pipeline (`oneOrLines`: never two pretty-printed values). PAE is the same as for signed records (signature.ts).
 */





const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
const VSA_PREDICATE_TYPE = 'https://slsa.dev/verification_summary/v1';
/** A Statement's only subject and its only digest (sha256): more would let another artifact match. */
function onlySubject(source) {
    const subject = source['subject'];
    if (!Array.isArray(subject) || subject.length !== 1)
        return { ok: false, reason: 'the Statement must have exactly one subject' };
    const only = subject[0];
    const digest = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(only) ? only['digest'] : undefined;
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(only) || !(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(digest) || Object.keys(digest).length !== 1 || typeof digest['sha256'] !== 'string') {
        return { ok: false, reason: 'the subject must carry exactly one digest, sha256 (a second entry would let another artifact match)' };
    }
    return { ok: true, value: { name: only['name'], sha256: digest['sha256'] } };
}
/** What a JSON object given where an envelope belongs is instead, when it is something the gate knows. */
function notAnEnvelope(value) {
    if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$3)(value, 'verifier') && (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$3)(value, 'verificationResult'))
        return 'a Verification Summary predicate (what --vsa-predicate writes for actions/attest; the signed verdict is what --vsa writes)';
    if (value['_type'] === STATEMENT_TYPE)
        return 'an unsigned in-toto Statement (its DSSE envelope carries it as the payload)';
    if (typeof value['mediaType'] === 'string' && value['mediaType'].startsWith('application/vnd.dev.sigstore.bundle'))
        return 'a Sigstore bundle (check it by identity: --certificate-identity)';
    return null;
}
/** One envelope's shape: payloadType and payload strings, payload standard base64, a non-empty signatures array of {keyid, sig}. */
function readEnvelope(value, loc) {
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(value))
        return { ok: false, reason: 'an envelope is not a JSON object' };
    const what = notAnEnvelope(value);
    if (what)
        return { ok: false, reason: `this is ${what}, not a DSSE envelope` };
    for (const k of Object.keys(value)) {
        if (k !== 'payload' && k !== 'payloadType' && k !== 'signatures')
            return { ok: false, reason: `an envelope has an unknown member ${JSON.stringify(k.slice(0, 60))}` };
    }
    const type = value['payloadType'];
    if (typeof type !== 'string' || type === '')
        return { ok: false, reason: 'payloadType is not a non-empty string' };
    const given = value['payload'];
    const payload = typeof given === 'string' ? (0,_base64_js__WEBPACK_IMPORTED_MODULE_4__/* .strictBase64 */ .P)(given) : null;
    if (!payload)
        return { ok: false, reason: 'payload is not standard base64 (with padding)' };
    const sigs = value['signatures'];
    if (!Array.isArray(sigs) || sigs.length === 0)
        return { ok: false, reason: 'signatures is not a non-empty array' };
    if (sigs.length > _limits_js__WEBPACK_IMPORTED_MODULE_2__/* .MAX_SIGNATURES */ .d4)
        return { ok: false, reason: `too many signatures (${sigs.length}; at most ${_limits_js__WEBPACK_IMPORTED_MODULE_2__/* .MAX_SIGNATURES */ .d4})` };
    const signatures = [];
    for (const [i, s] of sigs.entries()) {
        if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .Gv)(s))
            return { ok: false, reason: `signatures[${i}] is not an object` };
        const keyid = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$3)(s, 'keyid') ? s['keyid'] : '';
        if (typeof keyid !== 'string')
            return { ok: false, reason: `signatures[${i}].keyid is not a string` };
        const raw = s['sig'];
        const sig = typeof raw === 'string' ? (0,_base64_js__WEBPACK_IMPORTED_MODULE_4__/* .strictBase64 */ .P)(raw) : null;
        if (!sig || sig.length === 0)
            return { ok: false, reason: `signatures[${i}].sig is not standard base64` };
        signatures.push({ keyid, sig });
    }
    return { ok: true, value: { loc, payloadType: type, payload, signatures } };
}
/** The payload as one strict JSON value (duplicate members, lone surrogates, a BOM: refused). */
function strictPayload(payload, limits) {
    const problems = [];
    const sink = { error: (_at, message) => problems.push(message) };
    const decoded = (0,_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .decode */ .D4)(payload, limits, sink);
    if (!decoded)
        return { ok: false, reason: `payload is not strict JSON: ${problems[0] ?? 'unreadable'}` };
    let value;
    let count = 0;
    for (const doc of (0,_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .documents */ .DB)(decoded.text, 'json', { limits, collect: [] }, sink)) {
        value = doc.value;
        count++;
    }
    if (problems.length > 0 || count !== 1)
        return { ok: false, reason: `payload is not strict JSON: ${problems[0] ?? 'no value'}` };
    return { ok: true, value };
}
/** Every envelope of an envelope file (one value, or one per line), each located; problems as findings. */
function readEnvelopeFile(file, bytes, limits) {
    const sink = new _documents_js__WEBPACK_IMPORTED_MODULE_1__/* .LocatingSink */ .Bz(file);
    const findings = sink.findings;
    const decoded = (0,_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .decode */ .D4)(bytes, limits, sink);
    if (!decoded)
        return { envelopes: [], findings, empty: false };
    sink.lines = decoded.lines;
    const at = (offset) => sink.at(offset);
    const envelopes = [];
    for (const doc of (0,_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .documents */ .DB)(decoded.text, 'oneOrLines', { limits, collect: [] }, sink)) {
        const result = readEnvelope(doc.value, at(doc.start));
        if (result.ok)
            envelopes.push(result.value);
        else
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(doc.start), `DSSE envelope: ${result.reason}`));
    }
    return { envelopes, findings, empty: envelopes.length === 0 && findings.length === 0 };
}


/***/ }),

/***/ 3853:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   HA: () => (/* binding */ offsetAt),
/* harmony export */   Lp: () => (/* binding */ Scanner),
/* harmony export */   Pn: () => (/* binding */ pathKey),
/* harmony export */   RB: () => (/* binding */ isJsonSpace),
/* harmony export */   SQ: () => (/* binding */ scan),
/* harmony export */   Sw: () => (/* binding */ runScanner),
/* harmony export */   t1: () => (/* binding */ firstValueEnd)
/* harmony export */ });
/** The key under which `elements` holds a path's offsets. */
const pathKey = (path) => JSON.stringify(path);
/** JSON's whitespace (RFC 8259: space, tab, line feed, carriage return), as a code unit or a byte. */
const isJsonSpace = (c) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
var C;
(function (C) {
    C[C["TAB"] = 9] = "TAB";
    C[C["LF"] = 10] = "LF";
    C[C["CR"] = 13] = "CR";
    C[C["SPACE"] = 32] = "SPACE";
    C[C["QUOTE"] = 34] = "QUOTE";
    C[C["PLUS"] = 43] = "PLUS";
    C[C["COMMA"] = 44] = "COMMA";
    C[C["MINUS"] = 45] = "MINUS";
    C[C["DOT"] = 46] = "DOT";
    C[C["ZERO"] = 48] = "ZERO";
    C[C["NINE"] = 57] = "NINE";
    C[C["COLON"] = 58] = "COLON";
    C[C["UPPER_E"] = 69] = "UPPER_E";
    C[C["LBRACKET"] = 91] = "LBRACKET";
    C[C["BACKSLASH"] = 92] = "BACKSLASH";
    C[C["RBRACKET"] = 93] = "RBRACKET";
    C[C["LOWER_E"] = 101] = "LOWER_E";
    C[C["LBRACE"] = 123] = "LBRACE";
    C[C["RBRACE"] = 125] = "RBRACE";
})(C || (C = {}));
class ScanError {
    offset;
    message;
    constructor(offset, message) {
        this.offset = offset;
        this.message = message;
    }
}
const describe = (text) => {
    const source = JSON.stringify(text);
    return source.length > 80 ? source.slice(0, 77) + '…"' : source;
};
/** Validate `text[start, end)` as one strict JSON value, checking the whole grammar. */
function scan(text, options, start = 0, end = text.length) {
    return runScanner(new Scanner(text, start, end, options, false));
}
/**
 * Where the first JSON value at or after `start` (after whitespace) ends: a full grammar scan of that
 * value alone, never of what follows it, so a file of many values is scanned once (`[…][…]`).
 */
function firstValueEnd(text, options, start, end = text.length) {
    const scanner = new Scanner(text, start, end, { maxDepth: options.maxDepth, ...(options.maxKeys !== undefined ? { maxKeys: options.maxKeys } : {}) }, false);
    try {
        scanner.run(true);
        return { ok: true, value: scanner.valueEnd };
    }
    catch (error) {
        if (error instanceof ScanError)
            return { ok: false, reason: { offset: error.offset, message: error.message } };
        throw error;
    }
}
/** The first offset at or after `i` that is not JSON whitespace. */
function skipWs(text, i) {
    let at = i;
    for (let c = text.charCodeAt(at); c === C.SPACE || c === C.LF || c === C.CR || c === C.TAB; c = text.charCodeAt(++at))
        ;
    return at;
}
/**
 * Where the member at `path` (keys and indices) of the JSON value that starts at `start` begins, or
 * null when there is none: a place for a problem a reader finds in a parsed value (a subject's
 * number, read/surface.ts). The text is strict JSON already (keys are unique), so each member passed
 * over is scanned alone (`firstValueEnd`); only the members before the path's are, and only when asked.
 */
function offsetAt(text, start, path, options) {
    let i = skipWs(text, start);
    // Past one value and the comma after it, or null when none follows (the container ends, or the text is not what was parsed).
    const pastMember = () => {
        const end = firstValueEnd(text, options, i);
        if (!end.ok)
            return false;
        i = skipWs(text, end.value);
        if (text.charCodeAt(i) !== C.COMMA)
            return false;
        i = skipWs(text, i + 1);
        return true;
    };
    for (const step of path) {
        const open = text.charCodeAt(i);
        i = skipWs(text, i + 1);
        if (open === C.LBRACKET && typeof step === 'number') {
            for (let k = 0; k < step; k++)
                if (!pastMember())
                    return null;
            if (text.charCodeAt(i) === C.RBRACKET)
                return null;
        }
        else if (open === C.LBRACE && typeof step === 'string') {
            for (;;) {
                if (text.charCodeAt(i) !== C.QUOTE)
                    return null;
                const keyEnd = firstValueEnd(text, options, i);
                if (!keyEnd.ok)
                    return null;
                const key = JSON.parse(text.slice(i, keyEnd.value));
                i = skipWs(text, keyEnd.value);
                if (text.charCodeAt(i) !== C.COLON)
                    return null;
                i = skipWs(text, i + 1);
                if (key === step)
                    break;
                if (!pastMember())
                    return null;
            }
        }
        else
            return null;
    }
    return i;
}
function runScanner(scanner) {
    try {
        return { ok: true, value: scanner.run() };
    }
    catch (error) {
        if (error instanceof ScanError)
            return { ok: false, reason: { offset: error.offset, message: error.message } };
        throw error;
    }
}
/**
 * A cheap fingerprint of a key (length and three code units): equal keys always collide, and a
 * collision only costs a comparison of the two decoded keys.
 */
function keyHash(text, a, b) {
    const n = b - a;
    if (n === 0)
        return 0;
    return ((Math.imul(Math.imul(Math.imul(n, 65599) + text.charCodeAt(a), 65599) + text.charCodeAt(a + (n >> 1)), 31) + text.charCodeAt(b - 1)) | 0);
}
/** Members remembered per open object before switching to a Set of decoded keys. */
const SMALL = 16;
const NO_PATHS = [];
/** The keys and depth of the paths a reader collects, computed once per list (a reader passes the same list for every line). */
const plans = new WeakMap();
function collectPlan(collect) {
    let plan = plans.get(collect);
    if (!plan) {
        plan = { keys: new Set(collect.map(pathKey)), maxPath: Math.max(-1, ...collect.map((p) => p.length)) };
        plans.set(collect, plan);
    }
    return plan;
}
let shared = null;
function tables(depths) {
    if (!shared || shared.kinds.length < depths) {
        shared = {
            kinds: new Uint8Array(depths),
            counts: new Int32Array(depths),
            starts: new Int32Array(depths * SMALL),
            ends: new Int32Array(depths * SMALL),
            hashes: new Int32Array(depths * SMALL),
            escapes: new Uint8Array(depths * SMALL),
        };
    }
    return shared;
}
class Scanner {
    text;
    end;
    options;
    trusted;
    i;
    depth = 0;
    /** Per depth: 1 for an object, 2 for an array. */
    kinds;
    /**
     * Per depth, the members of the open object so far: for the first SMALL, the raw key's start,
     * end and hash (no string is made unless two hashes meet); past that, a Set of decoded keys.
     */
    counts;
    starts;
    ends;
    hashes;
    escapes;
    sets = [];
    /** Per depth: the path of the open container, or null when nobody asked for anything below it. */
    paths = [];
    collecting = [];
    /** The offsets found, by path key (a wanted path that holds no array is absent). */
    wanted = new Map();
    wantedKeys;
    maxPath;
    maxKeys;
    /** The last key read, decoded: only kept while path bookkeeping needs it. */
    lastKey = '';
    /** Set by string(): whether the last string had an escape, and its hash over raw code units. */
    escaped = false;
    hash = 0;
    /** Index of the next backslash at or after the scan position (-1: none); trusted mode only. */
    nextBackslash = -2;
    /** Index of the next `\\u` at or after the scan position (-1: none); trusted mode only. */
    nextUnicode = -2;
    /**
     * @param trusted JSON.parse accepted exactly this text and it is well-formed UTF-16: grammar,
     * control characters and raw surrogates need no checking, and strings can be skipped with indexOf.
     */
    constructor(text, start, end, options, trusted) {
        this.text = text;
        this.end = end;
        this.options = options;
        this.trusted = trusted;
        this.i = start;
        const lookup = tables(options.maxDepth + 2);
        this.kinds = lookup.kinds;
        this.counts = lookup.counts;
        this.starts = lookup.starts;
        this.ends = lookup.ends;
        this.hashes = lookup.hashes;
        this.escapes = lookup.escapes;
        const plan = collectPlan(options.collect ?? NO_PATHS);
        this.wantedKeys = plan.keys;
        this.maxPath = plan.maxPath;
        this.maxKeys = options.maxKeys ?? Number.MAX_SAFE_INTEGER;
    }
    /** With `firstOnly`, the scan stops after the first value and its end offset is here. */
    valueEnd = -1;
    run(firstOnly = false) {
        const { text: s, end } = this;
        if (this.i < end && s.charCodeAt(this.i) === 0xfeff)
            throw new ScanError(this.i, 'byte-order mark (U+FEFF) is not allowed');
        this.ws();
        if (this.i >= end)
            throw new ScanError(this.i, 'empty input: expected a JSON value');
        this.value();
        for (;;) {
            if (this.depth === 0) {
                this.valueEnd = this.i;
                if (firstOnly)
                    return this.wanted;
                this.ws();
                if (this.i < end)
                    throw new ScanError(this.i, `unexpected ${this.what()} after the JSON value`);
                return this.wanted;
            }
            this.ws();
            const c = this.i < end ? s.charCodeAt(this.i) : -1;
            const inObject = this.kinds[this.depth] === 1;
            if (c === C.COMMA) {
                this.i++;
                if (inObject)
                    this.key();
                else
                    this.element();
            }
            else if (c === (inObject ? C.RBRACE : C.RBRACKET)) {
                this.i++;
                this.depth--;
            }
            else {
                throw new ScanError(this.i, `expected ',' or '${inObject ? '}' : ']'}' but found ${this.what()}`);
            }
        }
    }
    what() {
        if (this.i >= this.end)
            return 'the end of the input (truncated?)';
        const ch = this.text.codePointAt(this.i) ?? 0;
        return ch < 0x20 || ch === 0x7f
            ? `control character U+${ch.toString(16).padStart(4, '0').toUpperCase()}`
            : `'${String.fromCodePoint(ch)}'`;
    }
    ws() {
        const { text: s, end } = this;
        let i = this.i;
        while (i < end) {
            const c = s.charCodeAt(i);
            if (c === C.SPACE || c === C.LF || c === C.CR || c === C.TAB)
                i++;
            else
                break;
        }
        this.i = i;
    }
    /** An array element starts here (after '[' or ','). */
    element() {
        this.ws();
        const col = this.collecting[this.depth];
        if (col)
            col.push(this.i);
        this.value();
    }
    /** A value starts here. Containers are closed by run(); recursion through open() is bounded by maxDepth. */
    value() {
        this.ws();
        const { text: s, end } = this;
        const i = this.i;
        if (i >= end)
            throw new ScanError(i, 'unexpected end of input: expected a value (truncated?)');
        const c = s.charCodeAt(i);
        if (c === C.QUOTE)
            this.skipString();
        else if (c === C.LBRACE)
            this.open(1);
        else if (c === C.LBRACKET)
            this.open(2);
        else if (c === C.MINUS || (c >= C.ZERO && c <= C.NINE))
            this.number();
        else if (c === 116 /* t */ && i + 4 <= end && s.startsWith('true', i))
            this.i = i + 4;
        else if (c === 102 /* f */ && i + 5 <= end && s.startsWith('false', i))
            this.i = i + 5;
        else if (c === 110 /* n */ && i + 4 <= end && s.startsWith('null', i))
            this.i = i + 4;
        else
            throw new ScanError(i, `unexpected ${this.what()}: expected a value`);
    }
    open(kind) {
        const parentDepth = this.depth;
        if (parentDepth >= this.options.maxDepth) {
            throw new ScanError(this.i, `nesting deeper than ${this.options.maxDepth} levels`);
        }
        const d = ++this.depth;
        this.kinds[d] = kind;
        this.i++;
        // Path bookkeeping only as deep as some requested path goes.
        if (d - 1 <= this.maxPath) {
            let path = null;
            if (d === 1)
                path = [];
            else {
                const parent = this.paths[d - 1];
                if (parent && this.kinds[d - 1] === 1)
                    path = [...parent, this.lastKey];
            }
            this.paths[d] = path;
            this.collecting[d] = kind === 2 && path ? this.collected(pathKey(path)) : null;
        }
        else {
            this.paths[d] = null;
            this.collecting[d] = null;
        }
        this.ws();
        const close = kind === 1 ? C.RBRACE : C.RBRACKET;
        if (this.i < this.end && this.text.charCodeAt(this.i) === close) {
            this.i++;
            this.depth--;
            return;
        }
        if (kind === 1) {
            this.counts[d] = 0;
            this.key();
        }
        else {
            this.element();
        }
    }
    /** Where the element offsets of the array at this path go, when it is wanted. */
    collected(key) {
        if (!this.wantedKeys.has(key))
            return null;
        let offsets = this.wanted.get(key);
        if (!offsets)
            this.wanted.set(key, (offsets = []));
        return offsets;
    }
    sameRaw(a, b, a2, b2) {
        if (b - a !== b2 - a2)
            return false;
        const { text: s } = this;
        for (let k = 0; k < b - a; k++)
            if (s.charCodeAt(a + k) !== s.charCodeAt(a2 + k))
                return false;
        return true;
    }
    /** The decoded text of a key whose raw string (quotes excluded) is s[a, b). */
    decoded(a, b) {
        const raw = this.text.slice(a - 1, b + 1);
        return raw.includes('\\') ? JSON.parse(raw) : raw.slice(1, -1);
    }
    /** An object member starts here: key, colon, then its value. */
    key() {
        this.ws();
        const { text: s } = this;
        if (this.i >= this.end || s.charCodeAt(this.i) !== C.QUOTE) {
            throw new ScanError(this.i, `expected a string key but found ${this.what()}`);
        }
        const at = this.i;
        this.string();
        const a = at + 1;
        const b = this.i - 1;
        const d = this.depth;
        const n = this.counts[d] ?? 0;
        // Escaped keys are compared decoded: {"a":1,"\u0061":2} is a duplicate. Hash the decoded text then.
        let key = null;
        let h = this.hash;
        if (this.escaped) {
            key = this.decoded(a, b);
            h = keyHash(key, 0, key.length);
        }
        if (n < SMALL) {
            const base = d * SMALL;
            for (let k = 0; k < n; k++) {
                if (this.hashes[base + k] !== h)
                    continue;
                const a2 = this.starts[base + k] ?? 0;
                const b2 = this.ends[base + k] ?? 0;
                // Unescaped keys are compared in place; an escaped one on either side is decoded.
                const same = key === null && this.escapes[base + k] === 0 ? this.sameRaw(a, b, a2, b2) : this.decoded(a2, b2) === (key ??= this.decoded(a, b));
                if (same)
                    throw new ScanError(at, `duplicate key ${describe(key ?? this.decoded(a, b))}`);
            }
            this.starts[base + n] = a;
            this.ends[base + n] = b;
            this.hashes[base + n] = h;
            this.escapes[base + n] = this.escaped ? 1 : 0;
        }
        else {
            let set = this.sets[d];
            if (n === SMALL || !set) {
                // Switch to a set: decode the first SMALL keys once.
                if (set)
                    set.clear();
                else
                    this.sets[d] = set = new Set();
                const base = d * SMALL;
                for (let k = 0; k < SMALL; k++)
                    set.add(this.decoded(this.starts[base + k] ?? 0, this.ends[base + k] ?? 0));
            }
            key ??= this.decoded(a, b);
            if (set.has(key))
                throw new ScanError(at, `duplicate key ${describe(key)}`);
            set.add(key);
        }
        if (n + 1 > this.maxKeys)
            throw new ScanError(at, `object has more than ${this.maxKeys} members`);
        this.counts[d] = n + 1;
        if (d <= this.maxPath)
            this.lastKey = key ?? this.decoded(a, b);
        this.ws();
        if (this.i >= this.end || s.charCodeAt(this.i) !== C.COLON) {
            throw new ScanError(this.i, `expected ':' after key ${describe(key ?? this.decoded(a, b))} but found ${this.what()}`);
        }
        this.i++;
        this.value();
    }
    /** Trusted mode: the closing quote of the string at `start` if no backslash comes before it, else -1. */
    quickEnd(start) {
        const q = this.text.indexOf('"', start + 1);
        if (this.nextBackslash !== -1 && this.nextBackslash < start)
            this.nextBackslash = this.text.indexOf('\\', start);
        return this.nextBackslash === -1 || this.nextBackslash > q ? q : -1;
    }
    /**
     * Trusted mode: the closing quote of a string at `start` that holds escapes, found from quote to
     * quote (a quote preceded by an odd run of backslashes is escaped), or -1 when the string may hold
     * a `\u` escape: those are left to the exact loop, which refuses lone surrogates (JSON.parse
     * accepts them). A JSON text inside a string (a server log's decision) is skipped in a few hops
     * instead of character by character.
     */
    escapedEnd(start) {
        const { text: s } = this;
        let q = s.indexOf('"', start + 1);
        for (;;) {
            if (q === -1)
                return -1;
            let k = q - 1;
            while (s.charCodeAt(k) === C.BACKSLASH)
                k--;
            if ((q - 1 - k) % 2 === 0)
                break;
            q = s.indexOf('"', q + 1);
        }
        if (this.nextUnicode !== -1 && this.nextUnicode < start)
            this.nextUnicode = s.indexOf('\\u', start);
        return this.nextUnicode !== -1 && this.nextUnicode < q ? -1 : q;
    }
    /** A string starts at the quote; moves past it and says whether it held an escape. */
    skipString() {
        const { text: s, end } = this;
        const start = this.i;
        if (this.trusted) {
            const q = this.quickEnd(start);
            if (q !== -1) {
                this.i = q + 1;
                return false;
            }
            const e = this.escapedEnd(start);
            if (e !== -1) {
                this.i = e + 1;
                return true;
            }
        }
        let i = start + 1;
        let escaped = false;
        for (;;) {
            if (i >= end)
                throw new ScanError(start, 'unterminated string (truncated?)');
            const c = s.charCodeAt(i);
            if (c === C.QUOTE)
                break;
            if (c >= 0x20 && c !== C.BACKSLASH && (c & 0xf800) !== 0xd800) {
                i++;
                continue;
            }
            if (c === C.BACKSLASH) {
                escaped = true;
                i = this.escape(i);
            }
            else if (c < 0x20)
                throw new ScanError(i, `control character U+${c.toString(16).padStart(4, '0').toUpperCase()} must be escaped inside a string`);
            else {
                const n = i + 1 < end ? s.charCodeAt(i + 1) : 0;
                if (c > 0xdbff || n < 0xdc00 || n > 0xdfff)
                    throw new ScanError(i, 'lone UTF-16 surrogate in a string');
                i += 2;
            }
        }
        this.i = i + 1;
        return escaped;
    }
    /** A key string starts at the quote; leaves `escaped` and the `hash` of the raw key for key(). */
    string() {
        const start = this.i;
        this.escaped = this.skipString();
        this.hash = this.escaped ? 0 : keyHash(this.text, start + 1, this.i - 1);
    }
    /** The escape at `i` (the backslash); returns the index after it. Lone surrogates are refused here. */
    escape(i) {
        const { text: s, end } = this;
        if (i + 1 >= end)
            throw new ScanError(i, 'unterminated escape (truncated?)');
        const e = s.charCodeAt(i + 1);
        if (e !== 117 /* u */) {
            if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)
                return i + 2;
            throw new ScanError(i, `invalid escape '\\${String.fromCharCode(e)}'`);
        }
        const u = this.hex4(i + 2);
        if (u >= 0xdc00 && u <= 0xdfff)
            throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a low surrogate without a high one)`);
        if (u >= 0xd800 && u <= 0xdbff) {
            if (i + 12 > end || s.charCodeAt(i + 6) !== C.BACKSLASH || s.charCodeAt(i + 7) !== 117) {
                throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a high surrogate not followed by a low one)`);
            }
            const low = this.hex4(i + 8);
            if (low < 0xdc00 || low > 0xdfff)
                throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a high surrogate not followed by a low one)`);
            return i + 12;
        }
        return i + 6;
    }
    hex4(at) {
        if (at + 4 > this.end)
            throw new ScanError(at - 2, 'truncated \\u escape');
        let v = 0;
        for (let k = 0; k < 4; k++) {
            const c = this.text.charCodeAt(at + k);
            const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
            if (d < 0)
                throw new ScanError(at - 2, 'invalid \\u escape: expected four hex digits');
            v = v * 16 + d;
        }
        return v;
    }
    number() {
        const { text: s, end } = this;
        const start = this.i;
        let i = start;
        if (s.charCodeAt(i) === C.MINUS)
            i++;
        const digits = () => {
            const from = i;
            while (i < end) {
                const c = s.charCodeAt(i);
                if (c < C.ZERO || c > C.NINE)
                    break;
                i++;
            }
            return i - from;
        };
        if (i < end && s.charCodeAt(i) === C.ZERO) {
            i++;
            if (i < end && s.charCodeAt(i) >= C.ZERO && s.charCodeAt(i) <= C.NINE)
                throw new ScanError(start, 'numbers must not have leading zeros');
        }
        else if (digits() === 0) {
            throw new ScanError(start, 'invalid number: expected a digit');
        }
        let exp = false;
        if (i < end && s.charCodeAt(i) === C.DOT) {
            i++;
            if (digits() === 0)
                throw new ScanError(i, 'invalid number: expected a digit after the decimal point');
        }
        const e = i < end ? s.charCodeAt(i) : 0;
        if (e === C.LOWER_E || e === C.UPPER_E) {
            exp = true;
            i++;
            const sign = i < end ? s.charCodeAt(i) : 0;
            if (sign === C.PLUS || sign === C.MINUS)
                i++;
            if (digits() === 0)
                throw new ScanError(i, 'invalid number: expected a digit in the exponent');
        }
        this.i = i;
        if ((exp || i - start > 308) && !Number.isFinite(Number(s.slice(start, i)))) {
            throw new ScanError(start, `number ${s.slice(start, Math.min(i, start + 40))} is out of range (not a finite double)`);
        }
    }
}


/***/ }),

/***/ 755:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  z3: () => (/* binding */ parseStrict)
});

// UNUSED EXPORTS: jsonOrText, strictValue

// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
// EXTERNAL MODULE: ./src/read/limits.ts
var limits = __nccwpck_require__(5826);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
;// CONCATENATED MODULE: ./src/read/json/proof.ts
/**
 * The proof that text JSON.parse accepted is strict JSON without a scan (read/json/strict.ts): from
 * the parsed value alone, when nothing is to be collected.
 */

/**
 * Whether text JSON.parse accepted, well-formed and without a `\u` escape (one may spell a lone
 * surrogate, which only the scan refuses), is exactly its parsed value, within the limits, with
 * nothing to collect — proved without a scan, from the value:
 *
 * Every `:` of valid JSON outside a string separates a member. The parsed value holds every member of
 * the text except those a duplicate key overwrote (at least one, with its key): it has as many
 * members as the text has colons outside its strings exactly when no key repeats, and fewer when one
 * does. When the caller counted those colons on its way through the text (`options.colons`), that is
 * the count; else every colon of the text is counted: without `\u`, every string's decoded text holds
 * as many `:` as its raw text, so the text's colons are its members plus the colons in its strings,
 * which the value holds too. Depth, members per object and finite numbers are read off the value.
 * False is not an error: the scan then decides, and says where.
 */
function provablyClean(text, value, options) {
    const counted = options.colons;
    if (text.includes('\\u'))
        return false;
    if (options.collect)
        for (const p of options.collect)
            if (holdsArray(value, p))
                return false;
    walkState.colons = 0;
    walkState.bad = false;
    walkState.strings = counted === undefined;
    walk(value, 1, options.maxDepth, options.maxKeys ?? Number.MAX_SAFE_INTEGER);
    return !walkState.bad && (counted ?? colonsIn(text)) === walkState.colons;
}
/** Whether the value at a path (the reader's own keys, never input text) is an array: then its elements' offsets are wanted. */
function holdsArray(value, path) {
    let given = value;
    for (const k of path) {
        if (!(0,json/* isObject */.Gv)(given) || !(0,json/* hasOwn */.$3)(given, k))
            return false;
        given = given[k];
    }
    return Array.isArray(given);
}
const colonsIn = (text) => {
    let n = 0;
    for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1))
        n++;
    return n;
};
/** Members, plus colons in strings when `strings`, counted by walk (synchronous, never nested: one state serves every call). */
const walkState = { colons: 0, bad: false, strings: true };
function walk(value, depth, maxDepth, maxKeys) {
    if (typeof value === 'string') {
        if (walkState.strings && value.includes(':'))
            walkState.colons += colonsIn(value);
        return;
    }
    if (typeof value === 'number') {
        if (!Number.isFinite(value))
            walkState.bad = true;
        return;
    }
    if (typeof value !== 'object' || value === null)
        return;
    if (depth > maxDepth) {
        walkState.bad = true;
        return;
    }
    if (Array.isArray(value)) {
        for (let i = 0; i < value.length && !walkState.bad; i++)
            walk(value[i], depth + 1, maxDepth, maxKeys);
        return;
    }
    // Own keys and values only (an enumerable key someone put on Object.prototype is not the text's),
    // never a lookup by a key read from the input.
    const keys = Object.keys(value);
    if (keys.length > maxKeys)
        walkState.bad = true;
    walkState.colons += keys.length;
    if (walkState.strings)
        for (const k of keys)
            if (k.includes(':'))
                walkState.colons += colonsIn(k);
    for (const x of Object.values(value)) {
        if (walkState.bad)
            return;
        walk(x, depth + 1, maxDepth, maxKeys);
    }
}

// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
;// CONCATENATED MODULE: ./src/read/json/strict.ts
/**
 * Strict JSON: JSON.parse for the values (`__proto__` is an ordinary own key there), and the checks
 * it cannot make, with positions. JSON.parse sees the text first: when it accepts, the text is
 * trusted grammar, and the value is either proved clean from itself (read/json/proof.ts: nothing to
 * collect) or scanned in trusted mode; when it refuses, the full scan (read/json/scanner.ts) says
 * where and why.
 */




const wellFormed = (s) => s.isWellFormed();
/**
 * JSON.parse, then the strict checks. When JSON.parse accepts the text (the common case), the grammar
 * is known good and the scan runs in trusted mode: strings are skipped with indexOf instead of
 * character by character. When it rejects, the full scan finds and locates the error.
 *
 * Both scans run on the document's own slice, never on the text around it: a search (for the next
 * quote or backslash) can then never run past the document, so reading an NDJSON file is linear in
 * its size whatever its lines hold. Offsets are moved back to the whole text's.
 */
function parseStrict(text, options, start = 0, end = text.length, base = 0) {
    const slice = start === 0 && end === text.length ? text : text.slice(start, end);
    // Offsets are the file's: `base` is where the text starts in it (a block of an NDJSON file's lines, read/documents.ts).
    const at = start + base;
    let value;
    try {
        value = JSON.parse(slice);
    }
    catch (error) {
        const scanned = (0,scanner/* scan */.SQ)(slice, options);
        // The full scan rejects everything JSON.parse does; if not, fail closed with JSON.parse's words.
        return {
            ok: false,
            reason: scanned.ok
                ? { offset: at, message: (0,core_text/* messageOf */.bD)(error) }
                : { offset: scanned.reason.offset + at, message: scanned.reason.message },
        };
    }
    const trusted = wellFormed(slice);
    // Colons a caller counted are the whole text's: a slice of it is proved by counting its own (every other option kept).
    const proof = slice === text || options.colons === undefined ? options : withoutColons(options);
    if (trusted && provablyClean(slice, value, proof))
        return { ok: true, value: { json: value, elements: NO_ELEMENTS } };
    const scanned2 = (0,scanner/* runScanner */.Sw)(new scanner/* Scanner */.Lp(slice, 0, slice.length, options, trusted));
    if (!scanned2.ok)
        return { ok: false, reason: { offset: scanned2.reason.offset + at, message: scanned2.reason.message } };
    return { ok: true, value: { json: value, elements: at === 0 ? scanned2.value : shifted(scanned2.value, at) } };
}
const NO_ELEMENTS = new Map();
/** The options without a colon count (the reader's own options object, never parsed input). */
function withoutColons(options) {
    const { colons: _, ...rest } = options;
    return rest;
}
function shifted(elements, by) {
    const out = new Map();
    for (const [k, v] of elements)
        out.set(k, v.map((o) => o + by));
    return out;
}
/** The limits of JSON text inside a document: the depth of any document (no option names another). */
const EMBEDDED = { maxDepth: limits/* DEFAULT_LIMITS */.dR.maxDepth };
/**
 * A JSON text embedded in another document (a CloudTrail event in a lookup-events entry, a tool's
 * arguments in a span, an MCP result's text content), read as strictly as its document: a key given
 * twice is refused, never the last one taken, since two readers would then see two values.
 */
function strictValue(text) {
    const parsed = parseStrict(text, EMBEDDED);
    return parsed.ok ? { ok: true, value: parsed.value.json } : { ok: false, reason: parsed.reason.message };
}
/**
 * Text that may hold JSON (a tool's result, an MCP result's text content): its value read strictly;
 * plain text (not JSON to anyone); or JSON the strict reader refuses (a key given twice, a lone
 * surrogate, a number out of range), with why: never a value then, since another reader would take one.
 */
function jsonOrText(text) {
    const parsed = strictValue(text);
    if (parsed.ok)
        return { kind: 'json', value: parsed.value };
    try {
        JSON.parse(text);
    }
    catch {
        return { kind: 'text' };
    }
    return { kind: 'refused', reason: parsed.reason };
}


/***/ }),

/***/ 5826:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   ME: () => (/* binding */ fileTooLarge),
/* harmony export */   d4: () => (/* binding */ MAX_SIGNATURES),
/* harmony export */   dR: () => (/* binding */ DEFAULT_LIMITS),
/* harmony export */   k$: () => (/* binding */ DEFAULT_BUNDLE_LIMITS),
/* harmony export */   ti: () => (/* binding */ lineTooLong),
/* harmony export */   x0: () => (/* binding */ bundleLimits)
/* harmony export */ });
/* unused harmony exports MAX_KEY_TEXT_BYTES, MAX_WALK_ENTRIES */
const DEFAULT_LIMITS = {
    maxFileBytes: 64 * 1024 ** 2,
    maxLineBytes: 8 * 1024 ** 2,
    maxDepth: 64,
    maxKeys: 10_000,
    maxFindingsPerFile: 20,
    maxDecisions: 100_000,
};
/** The messages a broken limit gives, the same wherever it is checked. */
const fileTooLarge = (size, limits) => `file is ${size} bytes, over the ${limits.maxFileBytes}-byte limit (max-file-size)`;
const lineTooLong = (limits) => `line is over the ${limits.maxLineBytes}-byte limit (max-line-size)`;
/** Largest key file (PEM text) read from a flag or an action input: a few keys are a few KiB. */
const MAX_KEY_TEXT_BYTES = (/* unused pure expression or super */ null && (64 * 1024));
/** Most signatures one DSSE envelope may carry (each is checked against every trusted key). */
const MAX_SIGNATURES = 16;
/** Most directory entries one discovery walks before it stops (narrow the inputs). */
const MAX_WALK_ENTRIES = 500_000;
const MiB = 1024 * 1024;
const DEFAULT_BUNDLE_LIMITS = {
    maxCompressedBytes: 100 * MiB,
    maxDecompressedBytes: 1024 * MiB,
    maxRatio: 200,
    maxManifestBytes: 10 * MiB,
    maxEventsBytes: 500 * MiB,
    maxEvents: 100_000,
    maxLineBytes: 1 * MiB,
    maxPathBytes: 256,
    maxMetaBytes: 64 * 1024,
    maxDepth: 64,
    maxDecisions: DEFAULT_LIMITS.maxDecisions,
};
/** The bundle limits under the user's read limits: a bundle's compressed size honours max-file-size. */
function bundleLimits(read) {
    return {
        ...DEFAULT_BUNDLE_LIMITS,
        maxCompressedBytes: Math.min(DEFAULT_BUNDLE_LIMITS.maxCompressedBytes, read.maxFileBytes),
        maxDecisions: read.maxDecisions,
    };
}


/***/ }),

/***/ 771:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Mn: () => (/* binding */ lines),
/* harmony export */   Q_: () => (/* binding */ overBytes),
/* harmony export */   hQ: () => (/* binding */ blank)
/* harmony export */ });
/**
 * NDJSON lines of a decoded text, as the readers and the bundle reader both need them: split on
 * "\n", one trailing "\r" tolerated, a final line without "\n" still a line. Offsets, not slices.
 */
function* lines(text) {
    for (let start = 0, line = 1; start < text.length; line++) {
        let end = text.indexOf('\n', start);
        const next = end === -1 ? text.length : end + 1;
        if (end === -1)
            end = text.length;
        if (end > start && text.charCodeAt(end - 1) === 13)
            end--;
        yield { line, start, end };
        start = next;
    }
}
/** Whether text[start, end) is over `maxBytes` in UTF-8; only slices when the length says it might be. */
function overBytes(text, start, end, maxBytes) {
    return end - start > maxBytes / 3 && Buffer.byteLength(text.slice(start, end)) > maxBytes;
}
/** A blank NDJSON line (§1): empty, or only spaces and tabs (a final CR is already cut). */
function blank(text, start, end) {
    for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c !== 0x20 && c !== 0x09)
            return false;
    }
    return true;
}


/***/ }),

/***/ 8145:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ byteLocation),
/* harmony export */   _: () => (/* binding */ decodeUtf8)
/* harmony export */ });
/* harmony import */ var node_buffer__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4573);
/* harmony import */ var node_buffer__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_buffer__WEBPACK_IMPORTED_MODULE_0__);
/** UTF-8 decoding that refuses invalid bytes and says where the first one is. */

/** Validate (simdutf), then decode; a byte-order mark is kept so that it can be refused with a location. */
function decodeUtf8(bytes) {
    if (!(0,node_buffer__WEBPACK_IMPORTED_MODULE_0__.isUtf8)(bytes))
        return { ok: false, reason: firstInvalidUtf8(bytes) };
    return { ok: true, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}
/** Byte offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes) {
    let i = 0;
    while (i < bytes.length) {
        const c = bytes[i] ?? 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        let n;
        let min;
        let cp;
        if (c >= 0xc2 && c <= 0xdf)
            [n, min, cp] = [1, 0x80, c & 0x1f];
        else if (c >= 0xe0 && c <= 0xef)
            [n, min, cp] = [2, 0x800, c & 0x0f];
        else if (c >= 0xf0 && c <= 0xf4)
            [n, min, cp] = [3, 0x10000, c & 0x07];
        else
            return i;
        if (i + n >= bytes.length)
            return i;
        for (let k = 1; k <= n; k++) {
            const cc = bytes[i + k] ?? 0;
            if ((cc & 0xc0) !== 0x80)
                return i;
            cp = (cp << 6) | (cc & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return i;
        i += n + 1;
    }
    return bytes.length;
}
/** 1-based line and column (in bytes) of a byte offset. */
function byteLocation(bytes, offset) {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset && i < bytes.length; i++) {
        if (bytes[i] === 0x0a) {
            line++;
            lineStart = i + 1;
        }
    }
    return { line, column: offset - lineStart + 1 };
}


/***/ }),

/***/ 2510:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   T: () => (/* binding */ refuse)
/* harmony export */ });
const refuse = (code, detail) => ({
    ok: false,
    reason: { code, detail },
});


/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:worker_threads"
const external_node_worker_threads_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");
// EXTERNAL MODULE: ./src/core/findings.ts
var core_findings = __nccwpck_require__(4637);
;// CONCATENATED MODULE: ./src/core/model.ts
/**
 * The vocabulary of the gate, shared by readers, core and reporters.
 * Values here are plain data: locations travel with them from the reader to the finding.
 */
/** The artifact kinds this gate reads: the one place their names are written. */
const SURFACE_SCHEMA = 'assay.tool_decision_surface.v0';
const RECORD_SCHEMA = 'assay.provider_audit_record.v0';
/** What an audit export covered (docs/coverage.md). */
const COVERAGE_SCHEMA = 'receipt-gate.audit_coverage.v1';

// EXTERNAL MODULE: ./src/core/severity.ts
var severity = __nccwpck_require__(432);
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
// EXTERNAL MODULE: ./src/core/trust.ts
var core_trust = __nccwpck_require__(9597);
;// CONCATENATED MODULE: ./src/core/vocabulary.ts
/** The rungs, lowest first: the order is the rank. */
const LEVELS = ['asserted', 'observed_confirmed', 'verified'];
const LEVEL_TABLE = {
    asserted: { rank: 0, icon: '⚪', colour: 'yellow' },
    observed_confirmed: { rank: 1, icon: '🔵', colour: 'cyan' },
    verified: { rank: 2, icon: '🟢', colour: 'green' },
};
const levelRank = (l) => LEVEL_TABLE[l].rank;
/** Highest rung first, the order every tally and every reporter lists them in. */
const LEVELS_DESCENDING = [...LEVELS].sort((a, b) => levelRank(b) - levelRank(a));
const isLevel = (s) => LEVELS.includes(s);
/** `a` ranks below `b`. */
const below = (a, b) => levelRank(a) < levelRank(b);
/** In the order the totals and the reporters list them. */
const RECORD_OUTCOMES = {
    bound: { finding: null, unusable: false, snag: 'already verifies another call', more: 'already verify other calls' },
    unmatched: { finding: 'record_unmatched', unusable: false, snag: 'binds no call', more: 'unmatched' },
    /** Binds no call yet, and its export is younger than the policy's pending: its run may still arrive (docs/policy.md §12). */
    awaiting_run: {
        finding: 'record_pending',
        unusable: false,
        snag: 'binds no call yet (its run may still arrive)',
        more: 'awaiting their run',
    },
    inconsistent: { finding: 'record_inconsistent', unusable: true, snag: 'declares this binding but is inconsistent', more: 'inconsistent' },
    untrusted: { finding: 'record_untrusted', unusable: true, snag: 'is not from a trusted signer', more: 'not from a trusted signer' },
    imported_twice: {
        finding: 'imported_twice',
        unusable: true,
        snag: 'is a second copy of one audit entry (counted once)',
        more: 'second copies',
    },
    duplicate: {
        finding: 'duplicate_record',
        unusable: true,
        snag: 'shares its identity with a record of another meaning',
        more: 'duplicates',
    },
};
const RECORD_OUTCOME_NAMES = Object.keys(RECORD_OUTCOMES);

;// CONCATENATED MODULE: ./src/read/wire.ts






const loc = (l, rel) => [l.file === rel ? null : l.file, l.line, l.column, l.member ?? null];
const unloc = (tuple, rel) => {
    const [written, line, column, member] = tuple;
    const file = written ?? rel;
    return member === null ? { file, line, column } : { file, line, column, member };
};
/** A member equal to the subject's (sent once; the decoded call holds one string for both, as the reader's does). */
const SAME = 1;
const subjectOf = (p) => (p.kind === 'subject' ? p : null);
const same = (v, subject) => (v !== null && v === subject ? SAME : v);
const claimTuple = (c, p) => c.kind === 'invalid'
    ? [0, c.reason]
    : [1, c.claim.asserted, c.claim.level, same(c.claim.digest, subjectOf(p)?.digest), c.claim.legacy, [...c.inconsistencies]];
const projectionTuple = (p) => p.kind === 'none' ? [0, p.reason] : [1, p.subject.action_class, p.subject.verb, p.subject.target, p.digest];
/** provider: 0 absent or null, 2 invalid, else the string (1 is unused, so a string never collides). */
const providerTuple = (p) => (p === null ? 0 : typeof p === 'string' ? p : 2);
const instantTuple = (t) => t === null ? null : t.leap ? [t.seconds, t.fraction, 1] : [t.seconds, t.fraction];
const instantOf = (t) => t === null ? null : t[2] === 1 ? { seconds: t[0], fraction: t[1], leap: true } : { seconds: t[0], fraction: t[1] };
const decisionTuple = (d, rel) => [
    ...loc(d.loc, rel),
    d.index,
    d.tool,
    claimTuple(d.claim, d.projection),
    projectionTuple(d.projection),
    same(d.actionClass, subjectOf(d.projection)?.subject.action_class),
    same(d.verb, subjectOf(d.projection)?.subject.verb),
    d.denied,
    providerTuple(d.provider),
    d.succeeded,
    d.labels,
    instantTuple(d.time),
    instantTuple(d.begun),
    d.session,
];
const recordTuple = (r, rel) => [
    ...loc(r.loc, rel),
    r.record.provider,
    r.record.record_id,
    r.record.subject,
    r.record.binding_digest,
    r.signer,
    r.trust,
    r.recomputed.ok ? (r.recomputed.digest === r.record.binding_digest ? SAME : r.recomputed.digest) : [r.recomputed.reason],
];
/** What a reading thread sends for one file. */
function encodeRead(evidence, rel) {
    const wire = {
        run: evidence.run
            ? {
                artifact: evidence.run.artifact,
                decisions: evidence.run.decisions.map((d) => decisionTuple(d, rel)),
                attestation: evidence.run.attestation ?? null,
                sha256: evidence.run.sha256 ?? null,
            }
            : null,
        records: evidence.records.map((x) => recordTuple(x, rel)),
        statements: evidence.statements,
        findings: evidence.findings,
        digests: evidence.digests,
        strays: evidence.strays ?? 0,
        rejectedClasses: evidence.rejectedClasses ?? [],
    };
    return JSON.stringify(wire);
}
/** Consistent claims share one empty list, as the reader's do. */
const NONE = Object.freeze([]);
const INVALID_PROVIDER = Object.freeze({ invalid: true });
function claimOf(t, projection) {
    if (t[0] === 0)
        return { kind: 'invalid', reason: t[1] };
    const [, asserted, level, sent, legacy, inconsistencies] = t;
    const subject = subjectOf(projection);
    // SAME is written only for a claim whose digest is its subject's: a subject is there.
    const digest = sent === SAME ? (subject?.digest ?? null) : sent;
    return { kind: 'claim', claim: { asserted, level, digest, legacy }, inconsistencies: inconsistencies.length ? inconsistencies : NONE };
}
function projectionOf(t) {
    if (t[0] === 0)
        return { kind: 'none', reason: t[1] };
    return { kind: 'subject', subject: { action_class: t[1], verb: t[2], target: t[3] }, digest: t[4] };
}
function decisionOf(tuple, rel) {
    const [, , , , index, tool, claim, projected, actionClass, verb, denied, provider, succeeded, labels, time, begun, session] = tuple;
    const projection = projectionOf(projected);
    // SAME is written only for a member equal to the subject's: a subject is there.
    const subject = subjectOf(projection)?.subject ?? null;
    return {
        loc: unloc(tuple, rel),
        index,
        tool,
        claim: claimOf(claim, projection),
        projection,
        actionClass: actionClass === SAME ? (subject?.action_class ?? null) : actionClass,
        verb: verb === SAME ? (subject?.verb ?? null) : verb,
        denied,
        provider: provider === 0 ? null : provider === 2 ? INVALID_PROVIDER : provider,
        succeeded,
        labels,
        time: instantOf(time),
        begun: instantOf(begun),
        session,
    };
}
function recordOf(t, rel) {
    const record = { schema: RECORD_SCHEMA, provider: t[4], record_id: t[5], subject: t[6], binding_digest: t[7] };
    const sent = t[10];
    const recomputed = sent === SAME
        ? { ok: true, digest: record.binding_digest }
        : typeof sent === 'string'
            ? { ok: true, digest: sent }
            : { ok: false, reason: sent[0] };
    return { loc: unloc(t, rel), record, recomputed, signer: t[8], trust: t[9] };
}
/** What a reading thread sent for the file `rel` (as encodeRead wrote it). */
const wire_decodeRead = (text, rel) => fromWire(JSON.parse(text), rel);
const FINDING_CODE_SET = new Set(core_findings/* FINDING_CODES */.f2);
const TRUST_CODE_SET = new Set(core_trust/* TRUST_CODE_NAMES */.M5);
const SEVERITY_SET = new Set(severity/* SEVERITIES */.oC);
const trustCodeOk = (t) => t === null || !('code' in t) || TRUST_CODE_SET.has(t.code);
/**
 * The first reason a text another process wrote (a cache entry: src/gate/cache.ts) is not an
 * encoded FileEvidence, or null: its shape (schemas/evidence-cache-entry.schema.json), then every
 * member named from a vocabulary against its table (findings, severities, levels, trust codes).
 */
function wireProblem(w, shape) {
    if (!shape(w)) {
        const e = shape.errors?.[0];
        return `its shape: ${e ? `${e.instancePath || '/'} ${e.message ?? e.keyword}` : 'invalid'}`;
    }
    const wire = w;
    for (const f of wire.findings)
        if (!FINDING_CODE_SET.has(f.code) || !SEVERITY_SET.has(f.severity))
            return `a finding's code or severity (${f.code}, ${f.severity})`;
    for (const d of wire.run?.decisions ?? []) {
        const claim = d[6];
        if (claim[0] === 1 && !isLevel(claim[2]))
            return `a claimed level (${claim[2]})`;
    }
    if (!trustCodeOk(wire.run?.attestation ?? null))
        return "a run's trust code";
    for (const r of wire.records)
        if (!trustCodeOk(r[9]))
            return "a record's trust code";
    for (const st of wire.statements)
        if (!trustCodeOk(st.trust))
            return "a statement's trust code";
    return null;
}
/**
 * An encoded FileEvidence written by another process (a cache entry), checked: the checked value,
 * or why it is not one (it is then ignored and the file read). Decoding it is left to the thread
 * that needs the evidence (`decodeCheckedWire`); a worker sends the text it checked as it is.
 */
function checkWire(text, shape) {
    let w;
    try {
        w = JSON.parse(text);
    }
    catch (error) {
        return { ok: false, reason: `it is not JSON (${(0,core_text/* messageOf */.bD)(error)})` };
    }
    const problem = wireProblem(w, shape);
    return problem === null ? { ok: true, value: { wire: w } } : { ok: false, reason: problem };
}
/** The evidence of a checked text, for the file `rel`. */
const decodeCheckedWire = (checked, rel) => fromWire(checked.wire, rel);
function fromWire(w, rel) {
    let run = null;
    if (w.run) {
        const { artifact, attestation, sha256 } = w.run;
        const decisions = w.run.decisions.map((d) => decisionOf(d, rel));
        run = {
            artifact,
            decisions,
            ...(attestation === null ? {} : { attestation }),
            ...(sha256 === null ? {} : { sha256 }),
        };
    }
    return {
        run,
        records: w.records.map((r) => recordOf(r, rel)),
        statements: w.statements,
        findings: w.findings,
        digests: w.digests,
        ...(w.strays > 0 ? { strays: w.strays } : {}),
        ...(w.rejectedClasses.length > 0 ? { rejectedClasses: w.rejectedClasses } : {}),
    };
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
// EXTERNAL MODULE: ./src/read/envelope.ts
var read_envelope = __nccwpck_require__(1210);
;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
// EXTERNAL MODULE: ./src/core/binding.ts + 1 modules
var binding = __nccwpck_require__(3491);
// EXTERNAL MODULE: ./src/core/json.ts
var core_json = __nccwpck_require__(6153);
// EXTERNAL MODULE: ./src/core/time.ts
var core_time = __nccwpck_require__(2334);
;// CONCATENATED MODULE: ./src/read/classify.ts
/**
 * What a JSON object is (§1), for every reader (plain files, NDJSON logs, bundle events, the members
 * of archives and files the gate does not read by name), so they can never disagree. Export folders
 * and run logs legitimately hold other Assay artifacts, which are skipped with a notice; but a near
 * miss of a kind the gate reads is an error, never a skip: another version (`…v1`), another case
 * (`…V0`), a suffix (`…v0.1`) or stray whitespace. An object that names two kinds at once (an event's
 * `type` and a top-level `schema`) is ambiguous: an error. So is an object of another kind that
 * carries evidence inside (a log shipper's envelope around an evidence event or a tracing line), and
 * upstream Assay's `assay.tool.decision` event, which this gate does not read (`otherKind`).
 */



const KNOWN = [
    [SURFACE_SCHEMA, 'surface'],
    [RECORD_SCHEMA, 'record'],
    [COVERAGE_SCHEMA, 'coverage'],
];
/** The family of a kind we read that `name` is exact or a near miss of, if any. */
function familyOf(name) {
    const name2 = name.trim().toLowerCase();
    for (const k of KNOWN)
        if (name2.startsWith(k[0].replace(/\.v\d+$/, '')))
            return k;
    return null;
}
/**
 * The member that marks an object as a kind this gate reads whatever it is named (a decision
 * surface's `observed_tool_decisions`, a record's `binding_digest`), or null. A surface or record
 * under another name (`assay.tool_decisions_surface.v0`, a look-alike letter) is never skipped as
 * another kind (a red team: a failing run so renamed passed with a notice).
 */
function markOf(value) {
    if (!(0,core_json/* isObject */.Gv)(value))
        return null;
    for (const member of ['observed_tool_decisions', 'binding_digest'])
        if ((0,core_json/* hasOwn */.$3)(value, member))
            return member;
    return null;
}
function byName(name, payload, via) {
    const k = familyOf(name);
    const mark = markOf(payload);
    if (!k && mark !== null)
        return {
            kind: 'error',
            reason: `${via === 'event' ? 'an evidence event of type' : 'an object of schema'} ${JSON.stringify((0,core_text/* quote */.hD)(name, 120))} holds ${mark}: a kind this gate reads under another name is never skipped (this gate reads ${mark === 'binding_digest' ? RECORD_SCHEMA : SURFACE_SCHEMA})`,
            named: true,
        };
    if (!k)
        return { kind: 'other', name: (0,core_text/* quote */.hD)(name, 120) };
    const [known, kind] = k;
    if (name !== known) {
        const version = /\.v\d+$/.test(name) ? 'unsupported version' : 'not exactly the kind';
        return {
            kind: 'error',
            reason: `${version} ${JSON.stringify((0,core_text/* quote */.hD)(name, 120))} (this gate reads ${known}; a near miss is never skipped)`,
            named: true,
        };
    }
    if (!(0,core_json/* isObject */.Gv)(payload))
        return { kind: 'error', reason: `the ${via === 'event' ? 'event data' : 'object'} of ${known} is not an object`, named: true };
    return { kind, payload, via };
}
/** A tracing line: a string `timestamp`, a string `level`, an object `fields` and a string `target`. */
const isTracing = (v) => typeof v['timestamp'] === 'string' && typeof v['level'] === 'string' && (0,core_json/* isObject */.Gv)(v['fields']) && typeof v['target'] === 'string';
/** An `event` that is tool_decision in any case. */
function eventIsDecision(o) {
    const event = o['event'];
    return typeof event === 'string' && event.toLowerCase() === 'tool_decision';
}
/** A `decision` member, or an `event` that is tool_decision in any case. */
const namesDecision = (o) => (0,core_json/* hasOwn */.$3)(o, 'decision') || eventIsDecision(o);
/**
 * Whether a JSON object carries a decision, whatever else it is: a `decision` member or an `event`
 * that is tool_decision in any case, in `fields` or at the top (tracing's flattened shape, a red
 * team: such lines were skipped as JSON that is not a tracing event). Such a line is read as a
 * decision or is an error, never skipped (docs/assay-server-logs.md, "Never skipped").
 */
function carriesDecision(value) {
    const fields = value['fields'];
    if ((0,core_json/* isObject */.Gv)(fields) && namesDecision(fields))
        return true;
    // At the top only on an object that names no kind: Assay's enforcement decisions carry a top-level
    // `decision` under their own schema, and are skipped as another kind (a red team's false red).
    const namesKind = typeof value['schema'] === 'string' || (typeof value['type'] === 'string' && (0,core_json/* hasOwn */.$3)(value, 'data'));
    return !namesKind && namesDecision(value);
}
/** What the object says it is, by its own members (never what it holds inside: that is `otherKind`'s). */
function named(value) {
    if (!(0,core_json/* isObject */.Gv)(value)) {
        return {
            kind: 'error',
            reason: `expected a JSON object with a "schema" string, found ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
            named: false,
        };
    }
    const schema = value['schema'];
    const type = value['type'];
    // The tracing shape is recognised first: a tracing line that also names a kind names two (an error, never a skip).
    if (isTracing(value)) {
        if (schema === undefined && type === undefined)
            return { kind: 'tracing', line: value };
        return {
            kind: 'error',
            reason: `ambiguous: a server tracing line that also carries a top-level ${schema !== undefined ? 'schema' : 'type'}`,
            named: true,
        };
    }
    const event = typeof type === 'string' && (0,core_json/* hasOwn */.$3)(value, 'data');
    if (schema !== undefined && typeof schema !== 'string')
        return { kind: 'error', reason: '"schema" is not a string', named: true };
    if (typeof schema === 'string' && event) {
        // Both named: fine only when they cannot disagree about whether this is something we read.
        if (familyOf(schema) || familyOf(type)) {
            return {
                kind: 'error',
                reason: `ambiguous: an evidence event of type ${JSON.stringify((0,core_text/* quote */.hD)(type, 120))} with a top-level schema ${JSON.stringify((0,core_text/* quote */.hD)(schema, 120))}`,
                named: true,
            };
        }
        // Both named another kind: still never a surface or record under those names (its data, or itself).
        const mark = markOf(value['data']) ?? markOf(value);
        if (mark !== null)
            return {
                kind: 'error',
                reason: `an evidence event of type ${JSON.stringify((0,core_text/* quote */.hD)(type, 120))} holds ${mark}: a kind this gate reads under another name is never skipped`,
                named: true,
            };
        return { kind: 'other', name: (0,core_text/* quote */.hD)(type, 120) };
    }
    if (typeof schema === 'string')
        return byName(schema, value, 'schema');
    if (event)
        return byName(type, value['data'], 'event');
    const mark = markOf(value);
    if (mark !== null)
        return {
            kind: 'error',
            reason: `object has no "schema" string but holds ${mark}: a kind this gate reads is never skipped`,
            named: true,
        };
    return { kind: 'error', reason: 'object has no "schema" string (and is not an evidence event with "type" and "data")', named: false };
}
/**
 * Upstream Assay's own tool decision event (`assay.tool.decision`, in any case, any separator, with
 * or without a version): not a kind this gate reads, and never skipped as another kind (a red team:
 * a run of such events passed with a notice beside a run that did pass).
 */
const UPSTREAM_DECISION = /^assay[._-]tool[._-]decisions?([._-]v\d+)?$/;
/** The `type` or `schema` of an object that names upstream's decision event, or null. */
function upstreamDecision(o) {
    for (const member of ['type', 'schema']) {
        const name = o[member];
        if (typeof name === 'string' && UPSTREAM_DECISION.test(name.trim().toLowerCase()))
            return name;
    }
    return null;
}
/**
 * Whether a nested object names, with a string (`schema`, or an event's `type` beside `data`), a kind
 * this gate reads (exactly or a near miss), or holds a kind's mark under some other string name. An
 * object that names nothing with a string is ordinary data, whatever members it has: a JSON Schema's
 * property called `schema`, a `schema: null`, a receipt's `binding_digest` (a red team: such data in
 * an MCP tools/list answer or a session event rejected the whole run as wrapped evidence).
 */
function namesEvidence(o) {
    const names = [o['schema'], (0,core_json/* hasOwn */.$3)(o, 'data') ? o['type'] : undefined].filter((n) => typeof n === 'string');
    if (names.length === 0)
        return false;
    return names.some((n) => familyOf(n) !== null) || markOf(o) !== null || markOf(o['data']) !== null;
}
/** What evidence an object is, in words, when a reader would take it (null: none). */
/**
 * Whether a nested tracing-shaped object is assay-mcp-server's (its `target` an `assay…` module, or
 * its event tool_decision): another Rust service's tracing line (`api::http`) in a tool's answer, a
 * `kubectl logs` or `docker compose logs` text, is that service's data (a red team's false red).
 */
function serverTracing(o) {
    const target = o['target'];
    return (typeof target === 'string' && /^assay/i.test(target.trim())) || ((0,core_json/* isObject */.Gv)(o['fields']) && eventIsDecision(o['fields']));
}
/**
 * A nested object's `fields` carry a decision as a tool_decision line's do: an event tool_decision,
 * or a `decision` member in a line of an `assay…` target. A table row's `fields.decision` (an
 * Airtable record in a tool's answer), or another service's tracing line with one (an authz
 * service's, with or without its time or target), is that tool's data (a red team's false reds).
 */
function fieldsDecision(o) {
    const fields = o['fields'];
    if (!(0,core_json/* isObject */.Gv)(fields))
        return false;
    if (eventIsDecision(fields))
        return true;
    const target = o['target'];
    return (0,core_json/* hasOwn */.$3)(fields, 'decision') && typeof target === 'string' && /^assay/i.test(target.trim());
}
function evidenceWhat(o) {
    const kind = named(o);
    if (kind.kind === 'tracing') {
        if (!serverTracing(o))
            return null;
        return (0,core_json/* isObject */.Gv)(o['fields']) && eventIsDecision(o['fields']) ? 'a server tool_decision line' : 'a server tracing line';
    }
    if (kind.kind === 'surface')
        return kind.via === 'event' ? `an ${SURFACE_SCHEMA} evidence event` : `a decision surface (${SURFACE_SCHEMA})`;
    if (kind.kind === 'record')
        return `an audit record (${RECORD_SCHEMA})`;
    if (kind.kind === 'coverage')
        return `a coverage statement (${COVERAGE_SCHEMA})`;
    if (kind.kind === 'error' && kind.named && ((isTracing(o) && serverTracing(o)) || namesEvidence(o)))
        return `an object this gate reads or refuses (${(0,core_text/* quote */.hD)(kind.reason, 160)})`;
    const upstream = upstreamDecision(o);
    if (upstream !== null)
        return `upstream Assay's ${JSON.stringify((0,core_text/* quote */.hD)(upstream, 60))} decision event`;
    // A decision's own markers in `fields`, or an event tool_decision (never a bare `decision` member:
    // other JSON, a tool's answer among them, uses that word for its own things).
    if (fieldsDecision(o) || eventIsDecision(o))
        return 'a tool_decision event';
    return null;
}
/** How deep inside another kind's object evidence is looked for (members, list items and JSON text in strings). */
const MAX_INSIDE = 64;
const memberPath = (path, key) => /^[A-Za-z_@$][\w@$-]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify((0,core_text/* quote */.hD)(key, 40))}]`;
/** The member path of found evidence, outermost first (`data.events[2].message (its line 3)`). */
function pathOf(steps) {
    let path = '';
    for (let i = steps.length - 1; i >= 0; i--) {
        const step = steps[i];
        path =
            typeof step === 'number' ? `${path}[${step}]` : typeof step === 'string' ? memberPath(path, step) : `${path} (its line ${step.line})`;
    }
    return path;
}
/** Found evidence, one step further out. */
function via(found, step) {
    found?.steps.push(step);
    return found;
}
/**
 * Evidence a reader would take inside `value` (the object itself too, below the top): a nested
 * object, or a string member whose text (whole, or one of its lines) is a JSON object. Structure
 * only: a string that merely mentions a kind's name is not JSON and holds nothing.
 */
function inside(value, depth, text) {
    if (depth > MAX_INSIDE)
        return null;
    if (typeof value === 'string')
        return inText(value, depth);
    if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
            const found = via(inside(value[i], depth + 1, false), i);
            if (found)
                return found;
        }
        return null;
    }
    if (!(0,core_json/* isObject */.Gv)(value))
        return null;
    // Only an object with one of these members can be evidence (`evidenceWhat`): most nested data is looked past at once.
    if (depth > 0 &&
        (value['schema'] !== undefined || value['type'] !== undefined || value['fields'] !== undefined || value['event'] !== undefined)) {
        const what = evidenceWhat(value);
        if (what !== null)
            return { steps: [], text, what };
    }
    // Paths are built only for what is found: this walk covers every decision of every surface.
    for (const key in value) {
        const found = via(inside(value[key], depth + 1, false), key);
        if (found)
            return found;
    }
    return null;
}
/**
 * The JSON value a string's text holds, or undefined: the whole text, JSON text encoded twice (a
 * string), or the object after a prefix (a container runtime's `<time> stdout F `, a compose
 * service's `agent-1 | `; a red team: evidence behind such a prefix, or encoded twice, was skipped).
 */
function jsonIn(t, prefixed) {
    if (t.startsWith('"') && t.endsWith('"'))
        return jsonValue(t);
    if (!t.endsWith('}'))
        return undefined;
    if (!prefixed)
        return t.startsWith('{') ? jsonValue(t) : undefined;
    // The first few braces only: a prefix rarely holds one, and a failed parse is not free.
    for (let start = t.indexOf('{'), n = 0; start >= 0 && n < 4; start = t.indexOf('{', start + 1), n++) {
        const v = jsonValue(start === 0 ? t : t.slice(start));
        if (v !== undefined)
            return v;
    }
    return undefined;
}
/** JSON text in a string member: the whole string, or each of its lines, when it holds a JSON object (or JSON text). */
function inText(value, depth) {
    if (!value.includes('{'))
        return null;
    const t = value.trim();
    // A prefix only on one line: a text of many lines is read line by line, each located.
    const whole = jsonIn(t, !t.includes('\n'));
    if ((0,core_json/* isObject */.Gv)(whole) || typeof whole === 'string')
        return inside(whole, depth + 1, true);
    if (!t.includes('\n'))
        return null;
    const lines = t.split('\n');
    for (let i = 0; i < lines.length; i++) {
        const v = jsonIn((lines[i] ?? '').trim(), true);
        const found = (0,core_json/* isObject */.Gv)(v) || typeof v === 'string' ? via(inside(v, depth + 1, true), { line: i + 1 }) : null;
        if (found)
            return found;
    }
    return null;
}
/** The error for evidence found inside an object that is not that evidence (`holder`: what the object is). */
function wrapped(found, holder) {
    const path = JSON.stringify((0,core_text/* quote */.hD)(pathOf(found.steps), 120));
    const where = found.text ? `the JSON text in its member ${path}` : `its member ${path}`;
    return {
        kind: 'error',
        reason: `evidence wrapped in ${holder}: ${where} is ${found.what} (a log shipper's or collector's envelope around it?); evidence is never read out of another object, and never skipped: commit the evidence itself as its producer wrote it (a decision surface as .json, evidence events as .ndjson, the server's stderr as a .log, audit records), not the object around it`,
        named: true,
    };
}
/**
 * A decision surface that holds no other evidence, in its decisions or beside them, nor (an evidence
 * event) in the event around it; else the error that says so (a red team: an audit record under a
 * surface's `provider_records`, as a decision's extra member, as JSON text in its `response`, or
 * beside the event's `data`, was dropped unread). The walk is structure only, as for other kinds.
 */
function surfaceAlone(value, kind) {
    const event = kind.via === 'event';
    const holder = event ? 'a decision surface event' : 'a decision surface';
    if (event)
        for (const key of Object.keys(value)) {
            const found = key === 'data' ? null : via(inside(value[key], 1, false), key);
            if (found)
                return wrapped(found, holder);
        }
    for (const key of Object.keys(kind.payload)) {
        const found = via(inside(kind.payload[key], 1, false), key);
        if (found)
            return wrapped(event ? via(found, 'data') : found, holder);
    }
    return kind;
}
/**
 * An object of another kind, or one that names none (`fallback`: skipped by name, or the error that
 * it names none), unless it is upstream's decision event or carries evidence inside: then an error
 * that says so and what to commit instead, never a skip (a red team: events under a log shipper's
 * `message`, a collector's `event`, or a container runtime's `log` passed as another kind).
 */
function otherKind(value, fallback) {
    const upstream = upstreamDecision(value);
    if (upstream !== null)
        return {
            kind: 'error',
            reason: `${JSON.stringify((0,core_text/* quote */.hD)(upstream, 60))} is upstream Assay's tool decision event, which this gate does not read (and never skips): it reads decisions from ${SURFACE_SCHEMA} surfaces and evidence events, and from the tool_decision lines of assay-mcp-server's stderr; commit the server's stderr capture as a .log, or the decisions as an ${SURFACE_SCHEMA} surface (docs/assay-server-logs.md)`,
            named: true,
        };
    // A decision carried by the object itself (in its own `fields`, or at its top) is no envelope: the
    // run readers refuse it as a decision that is not a tracing line (docs/assay-server-logs.md).
    const found = carriesDecision(value) ? null : inside(value, 0, false);
    return found === null ? fallback : wrapped(found, "another kind's data");
}
/** An object with a string `schema` is named by it; an evidence event (a string `type` and `data`) by its type. */
function classify(value) {
    const kind = named(value);
    if (kind.kind === 'surface')
        return surfaceAlone(value, kind);
    if (!(0,core_json/* isObject */.Gv)(value) || !(kind.kind === 'other' || (kind.kind === 'error' && !kind.named)))
        return kind;
    return otherKind(value, kind);
}
/** Whether a JSON value is evidence a reader takes: a surface, a record, a coverage statement or a server tracing line (as a document or an evidence event's data), or a near miss of one, or evidence wrapped in another kind's object. */
function isEvidence(v) {
    const kind = classify(v);
    return kind.kind === 'error' ? kind.named : kind.kind !== 'other';
}
/** A JSON text's value, or undefined when it is none. */
function jsonValue(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}
/**
 * A line a reader takes as evidence, trimmed: a JSON object `isEvidence` takes (an evidence event,
 * an export's entry, a tracing line), or a line with an object that mentions tool_decision (the
 * server log's reader never skips one: a tracing line behind a container runtime's prefix).
 */
function evidenceLine(line) {
    const t = line.trim();
    if (t.startsWith('{') && t.endsWith('}') && isEvidence(jsonValue(t)))
        return true;
    // A quoted "tool_decision" after a brace (a JSON member, escaped or not), never prose or a jq filter that names it.
    return /\{.*\\?"tool_decision\\?"/i.test(t);
}

;// CONCATENATED MODULE: ./src/read/coverage-statement.ts
/**
 * A coverage statement's shape (docs/coverage.md §1): every member present with its type, nothing
 * else but a `signature`; times through the one RFC 3339 parser; `since` before `until`; actions
 * written CLASS:VERB. A statement that breaks it is `invalid_artifact`, never skipped.
 */




const MEMBERS = [
    'schema',
    'provider',
    'export',
    'actors',
    'repos',
    'owner',
    'actions',
    'since',
    'until',
    'entries_read',
    'records',
];
const ACTION = /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/;
const strings = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const count = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** A statement's members, checked; or why it is not a statement. */
function checkStatement(value) {
    const bad = (reason) => ({ ok: false, reason: `coverage statement: ${reason}` });
    for (const k of Object.keys(value))
        if (k !== 'signature' && k !== 'exported_at' && !MEMBERS.includes(k))
            return bad(`unknown member ${JSON.stringify((0,core_text/* quote */.hD)(k, 60))}`);
    for (const k of MEMBERS)
        if (!(0,core_json/* hasOwn */.$3)(value, k))
            return bad(`${k} is missing`);
    if (value['schema'] !== COVERAGE_SCHEMA)
        return bad(`schema must be ${COVERAGE_SCHEMA}`);
    const provider = value['provider'];
    const kind = value['export'];
    if (typeof provider !== 'string' || provider === '')
        return bad('provider must be a non-empty string');
    if (typeof kind !== 'string' || kind === '')
        return bad('export must be a non-empty string');
    const actors = value['actors'];
    if (!strings(actors))
        return bad('actors must be a list of strings (empty: the statement covers nothing)');
    const repos = value['repos'];
    if (repos !== null && !strings(repos))
        return bad('repos must be a list of OWNER/NAME strings, or null');
    if (repos !== null)
        for (const r of repos)
            if (!/^[^/\s]+\/[^/\s]+$/.test(r))
                return bad(`repos: ${JSON.stringify((0,core_text/* quote */.hD)(r, 80))} is not OWNER/NAME`);
    const owner = value['owner'];
    if (owner !== null && (typeof owner !== 'string' || owner === ''))
        return bad('owner must be a non-empty string, or null');
    const actions = value['actions'];
    if (!strings(actions) || actions.length === 0)
        return bad('actions must be a non-empty list of CLASS:VERB strings');
    for (const a of actions)
        if (!ACTION.test(a))
            return bad(`actions: ${JSON.stringify((0,core_text/* quote */.hD)(a, 80))} is not CLASS:VERB`);
    const times = [];
    for (const k of ['since', 'until']) {
        const given = value[k];
        if (typeof given !== 'string')
            return bad(`${k} must be an RFC 3339 time (a string)`);
        const t = (0,core_time/* parseRfc3339 */.TM)(given);
        if (!t.ok)
            return bad(`${k}: ${JSON.stringify((0,core_text/* quote */.hD)(given, 60))} ${t.reason}`);
        times.push(t.value);
    }
    const [since, until] = times;
    if ((0,core_time/* compareInstants */.QI)(since, until) >= 0)
        return bad('since must be before until (the window is [since, until))');
    // When the import ran (docs/coverage.md §6); statements written before it have none.
    if ((0,core_json/* hasOwn */.$3)(value, 'exported_at')) {
        const at = value['exported_at'];
        const t = typeof at === 'string' ? (0,core_time/* parseRfc3339 */.TM)(at) : null;
        if (!t?.ok)
            return bad('exported_at must be an RFC 3339 time (a string)');
        if ((0,core_time/* compareInstants */.QI)(t.value, until) < 0)
            return bad('exported_at is before until: a window is exported once it has ended');
    }
    const entries = value['entries_read'];
    const records = value['records'];
    if (!count(entries))
        return bad('entries_read must be a non-negative integer');
    if (!count(records))
        return bad('records must be a non-negative integer');
    return {
        ok: true,
        value: {
            provider,
            export: kind,
            actors: [...actors],
            repos: repos === null ? null : [...repos],
            owner,
            actions: [...actions],
            since,
            until,
            entries_read: entries,
            records,
        },
    };
}

// EXTERNAL MODULE: ./src/read/documents.ts + 2 modules
var documents = __nccwpck_require__(8238);
;// CONCATENATED MODULE: ./src/read/file-read.ts
/**
 * What reading one input file yields, whatever its kind (a leaf: the file readers and the bundle
 * reader both return it; the gate merges them).
 */

/** One notice for the objects of other kinds a file holds, counted by kind (at most 20 kinds named). */
function skippedFinding(at, skipped) {
    const total = [...skipped.values()].reduce((a, b) => a + b, 0);
    const all = [...skipped.entries()].sort();
    const kinds = all
        .slice(0, 20)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ') + (all.length > 20 ? `, and ${all.length - 20} more kind(s)` : '');
    return (0,core_findings/* finding */.gk)('skipped_object', at, `skipped ${total} object(s) of other kinds: ${kinds}`);
}

// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
// EXTERNAL MODULE: ./src/read/limits.ts
var read_limits = __nccwpck_require__(5826);
;// CONCATENATED MODULE: ./src/read/provider-exports.ts
/**
 * What a provider's own export entries look like (docs/importers.md), by kind: what tells an export
 * of the wrong kind to `import`, and a raw export committed where audit records belong to the gate.
 * A leaf: the importers (tools/import/) and the audit reader both ask it.
 */

const EXPORT_KINDS = {
    'github-audit-log': 'a GitHub audit-log export',
    'github-webhook': 'GitHub webhook deliveries',
    'slack-audit-log': 'a Slack audit-log page',
    'aws-cloudtrail': 'an AWS CloudTrail log file or lookup-events output',
    'k8s-audit': 'a Kubernetes audit log (audit.k8s.io/v1 events)',
    'okta-system-log': 'an Okta System Log page',
};
/** Whether an entry has the shape of each kind's entries. */
const EXPORT_SHAPES = {
    'github-audit-log': (e) => typeof e['action'] === 'string' &&
        !(0,core_json/* isObject */.Gv)(e['entity']) &&
        ((0,core_json/* hasOwn */.$3)(e, '_document_id') || (0,core_json/* hasOwn */.$3)(e, '@timestamp') || (0,core_json/* hasOwn */.$3)(e, 'created_at')),
    'github-webhook': (e) => (typeof e['guid'] === 'string' && ((0,core_json/* isObject */.Gv)(e['request']) || (0,core_json/* hasOwn */.$3)(e, 'delivered_at') || (0,core_json/* hasOwn */.$3)(e, 'event'))) ||
        ((0,core_json/* isObject */.Gv)(e['key']) && (0,core_json/* isObject */.Gv)(e['repository'])),
    'slack-audit-log': (e) => typeof e['action'] === 'string' && !(0,core_json/* hasOwn */.$3)(e, '_document_id') && ((0,core_json/* isObject */.Gv)(e['entity']) || (0,core_json/* isObject */.Gv)(e['context'])),
    'aws-cloudtrail': (e) => (typeof e['eventID'] === 'string' && typeof e['eventSource'] === 'string') || typeof e['CloudTrailEvent'] === 'string',
    'k8s-audit': (e) => e['kind'] === 'Event' && typeof e['auditID'] === 'string' && typeof e['apiVersion'] === 'string',
    'okta-system-log': (e) => typeof e['uuid'] === 'string' && typeof e['eventType'] === 'string' && (0,core_json/* hasOwn */.$3)(e, 'published'),
};
/** The export kind a value (an entry, or a page object with a list of entries) looks like, or null. */
function exportKindOf(value) {
    if (!(0,core_json/* isObject */.Gv)(value))
        return null;
    const list = Object.values(value).find((v) => Array.isArray(v) && (0,core_json/* isObject */.Gv)(v[0]));
    const candidates = [value, ...(list && (0,core_json/* isObject */.Gv)(list[0]) ? [list[0]] : [])];
    for (const kind of Object.keys(EXPORT_SHAPES))
        if (candidates.some((c) => EXPORT_SHAPES[kind](c)))
            return kind;
    return null;
}

;// CONCATENATED MODULE: ./src/core/claims.ts
/**
 * What a decision claims about its side effect (§4 of the semantics). Claims are read, checked
 * for consistency and later compared with what the evidence earns; they never earn anything.
 */


const EXPECTED_SOURCE = {
    asserted: null,
    observed_confirmed: 'observed_read_followup',
    verified: 'provider_audit_import',
};
/** Most claims are consistent: share one empty list rather than keep one per call. */
const claims_NONE = Object.freeze([]);
/** §4: the producer asserts exactly `effect == allow && status == success`; anything else asserted is a contradiction. */
function assertedAgainstOutcome(decision, response) {
    const value = decision['decision'];
    const effect = (0,core_json/* isObject */.Gv)(value) ? value['effect'] : undefined;
    if (effect === 'deny' || effect === 'error')
        return `side_effect_asserted is true while decision.effect is "${effect}": a call that was not allowed cannot have changed anything`;
    const status = response['status'];
    if (status !== 'success')
        return `side_effect_asserted is true while response.status is ${JSON.stringify(typeof status === 'string' ? status.slice(0, 60) : (status ?? null))}, not "success"`;
    return null;
}
function readClaim(decision) {
    const response = decision['response'];
    if (!(0,core_json/* isObject */.Gv)(response))
        return { kind: 'invalid', reason: 'response is not an object' };
    const asserted = response['side_effect_asserted'];
    if (typeof asserted !== 'boolean')
        return { kind: 'invalid', reason: 'response.side_effect_asserted is not a boolean' };
    const legacyVerified = response['side_effect_verified'];
    if ((0,core_json/* hasOwn */.$3)(response, 'side_effect_verified') && typeof legacyVerified !== 'boolean') {
        return { kind: 'invalid', reason: 'response.side_effect_verified is not a boolean' };
    }
    const problems = [];
    const contradiction = asserted ? assertedAgainstOutcome(decision, response) : null;
    if (contradiction)
        problems.push(contradiction);
    if (!(0,core_json/* hasOwn */.$3)(response, 'side_effect')) {
        const level = legacyVerified === true ? 'verified' : 'asserted';
        if (level !== 'asserted' && !asserted)
            problems.push(`claims "${level}" while side_effect_asserted is false`);
        return {
            kind: 'claim',
            claim: { asserted, level, digest: null, legacy: level === 'verified' },
            inconsistencies: problems.length ? problems : claims_NONE,
        };
    }
    const block = response['side_effect'];
    if (!(0,core_json/* isObject */.Gv)(block))
        return { kind: 'invalid', reason: 'response.side_effect is not an object' };
    const blockAsserted = block['asserted'];
    const level = block['level'];
    if (typeof blockAsserted !== 'boolean')
        return { kind: 'invalid', reason: 'response.side_effect.asserted is not a boolean' };
    if (typeof level !== 'string' || !LEVELS.includes(level)) {
        return { kind: 'invalid', reason: `response.side_effect.level must be one of ${LEVELS.join(', ')}` };
    }
    const claimed = level;
    const source = (0,core_json/* hasOwn */.$3)(block, 'verification_source') ? block['verification_source'] : null;
    const digestValue = (0,core_json/* hasOwn */.$3)(block, 'verification_subject_digest') ? block['verification_subject_digest'] : null;
    if (digestValue !== null && typeof digestValue !== 'string') {
        return { kind: 'invalid', reason: 'response.side_effect.verification_subject_digest is not a string or null' };
    }
    if (blockAsserted !== asserted) {
        problems.push(`side_effect.asserted (${blockAsserted}) differs from side_effect_asserted (${asserted})`);
    }
    const expected = EXPECTED_SOURCE[claimed];
    if (source !== expected) {
        problems.push(`verification_source ${JSON.stringify(source)} does not fit level "${claimed}" (expected ${JSON.stringify(expected)})`);
    }
    if (claimed === 'asserted' && digestValue !== null) {
        problems.push('an "asserted" claim carries a verification_subject_digest');
    }
    if ((0,core_json/* hasOwn */.$3)(response, 'side_effect_verified') && legacyVerified !== (claimed === 'verified')) {
        problems.push(`side_effect_verified (${legacyVerified}) contradicts level "${claimed}"`);
    }
    if (claimed !== 'asserted' && !asserted) {
        problems.push(`claims "${claimed}" while side_effect_asserted is false`);
    }
    return {
        kind: 'claim',
        claim: { asserted, level: claimed, digest: digestValue, legacy: false },
        inconsistencies: problems.length ? problems : claims_NONE,
    };
}

;// CONCATENATED MODULE: ./src/core/classes.ts
const classes_NONE = new Set();
const GITHUB_NAMES = new Set(['owner', 'repo']);
/** A GitHub class bound on owner, repo and these fields (GitHub's own ids: numbers, shas, refs), hashed ones as given. */
const github = (verbs, fields, hashed = []) => ({
    fields: ['owner', 'repo', ...fields],
    verbs,
    hashed: new Map(hashed),
    caseless: GITHUB_NAMES,
    scope: { owner: 'owner', repo: 'repo' },
    provider: 'github',
    wholeNumbers: new Set(fields.filter((f) => f === 'number' || f === 'comment_id')),
});
/** A class of a provider whose log is one tenant's (an AWS account, a cluster, an Okta org), bound on the tenant and these fields. */
const tenant = (provider, field, verbs, fields, hashed = [], caseless = classes_NONE) => ({
    fields: [field, ...fields],
    verbs,
    hashed: new Map(hashed),
    caseless,
    scope: { owner: field, repo: null },
    provider,
    wholeNumbers: classes_NONE,
});
const CLASSES = new Map([
    // The writes agents do most on GitHub, bound on the ids GitHub gives them.
    ['github_issue', github(['create', 'close'], ['number'])],
    ['github_issue_comment', github(['create'], ['comment_id'])],
    ['github_pull_request', github(['create', 'merge', 'close'], ['number'])],
    ['github_branch_push', github(['push'], ['ref', 'after'])],
    ['github_label', github(['add'], ['number', 'label_hash'], [['label', { field: 'label_hash', domain: 'github_label' }]])],
    ['github_repo_member', github(['add'], ['user_hash'], [['user', { field: 'user_hash', domain: 'github_user' }]])],
    [
        'github_deploy_key',
        {
            fields: ['owner', 'repo', 'key_title_hash'],
            verbs: ['create'],
            hashed: new Map([['key_title', { field: 'key_title_hash', domain: 'github_key_title' }]]),
            caseless: GITHUB_NAMES,
            scope: { owner: 'owner', repo: 'repo' },
            provider: 'github',
            wholeNumbers: classes_NONE,
        },
    ],
    [
        'workspace_member',
        {
            fields: ['workspace_id_hash', 'channel_id_hash', 'principal_hash'],
            verbs: ['add'],
            hashed: new Map([
                ['workspace_id', { field: 'workspace_id_hash', domain: 'slack_workspace' }],
                ['channel_id', { field: 'channel_id_hash', domain: 'slack_channel' }],
                ['principal', { field: 'principal_hash', domain: 'slack_principal' }],
            ]),
            caseless: new Set(),
            scope: null,
            provider: 'slack',
            wholeNumbers: classes_NONE,
        },
    ],
    [
        'workspace_role',
        {
            fields: ['workspace_id_hash', 'principal_hash', 'role'],
            verbs: ['grant', 'change_role', 'invite', 'modify', 'create'],
            hashed: new Map([
                ['workspace_id', { field: 'workspace_id_hash', domain: 'workspace' }],
                ['principal', { field: 'principal_hash', domain: 'workspace_principal' }],
            ]),
            caseless: new Set(),
            scope: null,
            provider: 'workspace',
            wholeNumbers: classes_NONE,
        },
    ],
    // Cloud and identity providers: AWS IAM (CloudTrail), Kubernetes RBAC (the audit log), Okta admin roles (the System Log).
    [
        'aws_iam_access_key',
        tenant('aws', 'account', ['create'], ['user_name_hash'], [['user_name', { field: 'user_name_hash', domain: 'aws_iam_user' }]]),
    ],
    // IAM names a role without regard to case (`PROD-admin` is the role `prod-admin`): a rule's role_name glob ignores it too.
    ['aws_iam_role_policy', tenant('aws', 'account', ['attach'], ['role_name', 'policy_arn'], [], new Set(['role_name']))],
    ['k8s_rbac_binding', tenant('kubernetes', 'cluster', ['create'], ['namespace', 'kind', 'name'])],
    ['idp_admin_role', tenant('okta', 'org', ['grant'], ['principal_id'])],
]);
/** The action classes of the table. */
const KNOWN_CLASSES = [...CLASSES.keys()];
/** A class's row, or undefined when the gate has no binding rule for it. */
const classRow = (actionClass) => CLASSES.get(actionClass);

;// CONCATENATED MODULE: ./src/core/projection.ts
/**
 * The call subject (action projection) of a decision: {action_class, verb, target} with the target
 * narrowed to the fields bound for its class (the class table: core/classes.ts). `provider` and `read_only` describe the request, not
 * the effect, and are never bound. The github_deploy_key row is byte-compatible with upstream Assay.
 */



/** The verbs the producer writes for each class of the table (a rule naming another verb is a typo unless the input has it). */
const PRODUCER_VERBS = new Map([...CLASSES].map(([c, row]) => [c, row.verbs]));

/** The bound fields of an action class (the class table, core/classes.ts), or undefined when the class has no binding rule. */
const boundFields = (actionClass) => classRow(actionClass)?.fields;
/** Narrow a target to its class's bound fields, copying only those (never spreading the parsed object). */
function narrowTarget(actionClass, target) {
    const fields = boundFields(actionClass);
    if (!fields)
        return undefined;
    const out = {};
    for (const f of fields)
        if ((0,core_json/* hasOwn */.$3)(target, f))
            out[f] = target[f];
    return out;
}
function project(decision) {
    const action = decision['action'];
    if (!(0,core_json/* isObject */.Gv)(action))
        return { kind: 'none', reason: 'action is not an object' };
    const actionClass = action['resource_type'];
    const verb = action['verb'];
    const target = action['target'];
    if (typeof actionClass !== 'string')
        return { kind: 'none', reason: 'action.resource_type is not a string' };
    if (typeof verb !== 'string')
        return { kind: 'none', reason: 'action.verb is not a string' };
    if (!(0,core_json/* isObject */.Gv)(target))
        return { kind: 'none', reason: 'action.target is not an object' };
    const narrowed = narrowTarget(actionClass, target);
    if (!narrowed)
        return { kind: 'none', reason: `action class "${actionClass}" has no binding rule` };
    if (Object.keys(narrowed).length === 0) {
        return { kind: 'none', reason: `target has none of the bound fields (${(boundFields(actionClass) ?? []).join(', ')})` };
    }
    const subject = { action_class: actionClass, verb, target: narrowed };
    const bound = (0,binding/* binding */.Ch)(subject);
    if (!bound.ok)
        return { kind: 'none', reason: `subject cannot be canonicalized: ${bound.reason}` };
    return { kind: 'subject', subject, digest: bound.digest };
}
/**
 * The first number of a decision's would-be subject (its class's bound target fields) that is an
 * integer beyond ±(2^53−1), with its path from the decision and why it is refused, or null. Such a
 * subject is never bound (`project` says so through the binding); a reader rejects the decision at
 * the number's place instead (read/surface.ts). Fields outside the binding are never bound: any
 * number may stand there.
 */
function unsafeSubjectNumber(decision) {
    const action = decision['action'];
    if (!(0,core_json/* isObject */.Gv)(action) || typeof action['resource_type'] !== 'string' || typeof action['verb'] !== 'string')
        return null;
    const target = action['target'];
    const narrowed = (0,core_json/* isObject */.Gv)(target) ? narrowTarget(action['resource_type'], target) : undefined;
    const unsafe = narrowed === undefined ? null : (0,binding/* unsafeInteger */.n0)(narrowed);
    return unsafe === null ? null : { path: ['action', 'target', ...unsafe.path], reason: (0,binding/* unsafeIntegerText */.Aj)(unsafe, 'action.target') };
}
/**
 * Two calls touch the same thing when canonical {action_class, target} are equal. A subject's target
 * holds only its class's bound fields, in the table's order, so that equality is: the same class and,
 * field by field, the same presence and canonically equal values. The key says exactly that: the
 * class, then per bound field `\u0000` and its value: a string as `s`, its length, `:` and the string
 * itself (its length says where it ends, so nothing in it needs escaping: JSON.stringify of each
 * string was ~a third of the key's cost), anything else by `boundValueText` (a JSON text: never
 * empty, never starting with `s`, never holding a raw U+0000; a value JCS refuses, written as U+0000,
 * is never in a call's subject, whose binding succeeded); nothing when absent. No sorting or escaping
 * of whole objects per call.
 */
function targetKey(subject) {
    let key = subject.action_class;
    for (const f of boundFields(subject.action_class) ?? []) {
        if (!hasOwn(subject.target, f)) {
            key += '\u0000';
            continue;
        }
        const value = subject.target[f];
        key += typeof value === 'string' ? `\u0000s${value.length}:${value}` : `\u0000${boundValueText(value)}`;
    }
    return key;
}
/**
 * A bound field's value as the binding sees it, for telling values equal: a string as
 * JSON.stringify writes it, anything else canonical (JCS), so `{"a":1,"b":2}` equals
 * `{"b":2,"a":1}` here as in their digests; a string's text starts with `"` and no other value's
 * does. U+0000 alone for a value JCS refuses (no JSON text is that); a subject's values were
 * canonicalized once already, so that cannot happen for a call.
 */
function boundValueText(value) {
    if (typeof value === 'string')
        return JSON.stringify(value);
    const canonical = jcs(value);
    return canonical.ok ? canonical.text : '\u0000';
}

;// CONCATENATED MODULE: ./src/core/decision.ts
/**
 * A parsed decision → the few facts verification reads (claim, subject, denial, provider, status).
 * Readers call this as each decision is read, so a run's parsed JSON is never held past its file.
 */



/**
 * Labels: what a policy rule's target fields match when the call has no subject (docs/policy.md §3:
 * "a plain field matches when the call's target has that field as a string"). For a class outside
 * the binding table, every member of action.target (the reader's limits bound how many: a cap
 * here dropped a field a rule named, and its call escaped the rule: a red team); for a class of the
 * table whose call has no subject (a verb missing, a field of the wrong type), its bound fields (a
 * red team: such a call escaped every rule that names a target field). A field that is not text is
 * kept as it is: a rule testing it cannot tell, and says so (policy.ts `untoldWhy`). Else null.
 */
function labelsOf(actionClass, target, subject) {
    if (typeof actionClass !== 'string' || !(0,core_json/* isObject */.Gv)(target))
        return null;
    const bound = boundFields(actionClass);
    if (bound && subject)
        return null;
    const out = {};
    // Every field as given: one that is not text is kept so a rule naming it cannot tell, never passes it over.
    for (const field of bound ?? Object.keys(target))
        if ((0,core_json/* hasOwn */.$3)(target, field))
            out[field] = target[field];
    return out;
}
/**
 * @param time  when the decision was made, where its format says (a server log line's timestamp, an
 *              evidence event's time); null for a decision surface, which has none
 * @param begun when the call's request began, where its format says (a server log's tool_call_start
 *              line); null where it has no such time
 * @param session which server session of its run it was decided in (a server log's, 1 and up); 0 for
 *              a format without sessions
 */
function prepareDecision(loc, index, decision, time = null, begun = null, session = 0) {
    const tool = decision['tool'];
    const value = decision['decision'];
    const action = decision['action'];
    const target = (0,core_json/* isObject */.Gv)(action) ? action['target'] : undefined;
    const given = (0,core_json/* isObject */.Gv)(target) && (0,core_json/* hasOwn */.$3)(target, 'provider') ? target['provider'] : null;
    const response = decision['response'];
    const projection = project(decision);
    return {
        loc,
        index,
        tool: (0,core_json/* isObject */.Gv)(tool) && typeof tool['name'] === 'string' ? tool['name'] : null,
        claim: readClaim(decision),
        projection,
        actionClass: (0,core_json/* isObject */.Gv)(action) && typeof action['resource_type'] === 'string' ? action['resource_type'] : null,
        verb: (0,core_json/* isObject */.Gv)(action) && typeof action['verb'] === 'string' ? action['verb'] : null,
        denied: (0,core_json/* isObject */.Gv)(value) && (value['effect'] === 'deny' || value['effect'] === 'error') ? value['effect'] : false,
        provider: given === null || typeof given === 'string' ? given : { invalid: true },
        succeeded: (0,core_json/* isObject */.Gv)(response) && response['status'] === 'success',
        labels: labelsOf((0,core_json/* isObject */.Gv)(action) ? action['resource_type'] : undefined, target, projection.kind === 'subject'),
        time,
        begun,
        session,
    };
}

// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __nccwpck_require__(755);
// EXTERNAL MODULE: ./node_modules/ajv/dist/runtime/ucs2length.js
var ucs2length = __nccwpck_require__(6214);
;// CONCATENATED MODULE: ./src/read/validators.generated.js
// Generated by scripts/gen-validators.mjs from schemas/; do not edit.
const decision = validate1;
const schema1 = {"description":"One recorded tool call. A call can only be verified when action.resource_type, action.verb and action.target yield a subject (see the semantics document, section 2).","type":"object","required":["response"],"properties":{"tool":{"type":"object","properties":{"name":{"type":["string","null"],"maxLength":1024,"description":"The MCP tool name; longer than 1024 characters is refused (it is printed in annotations and summaries)."},"category":{"type":["string","null"]}}},"action":{"description":"What the call does. Missing or non-string resource_type/verb, or a non-object target, leave the call without a subject (never verified) rather than invalid.","type":["object","null"],"properties":{"resource_type":{"description":"The action class: github_deploy_key, workspace_member or workspace_role bind; other classes cannot be verified."},"verb":{},"target":{"description":"Only the fields bound for the class are hashed; provider selects which audit records may bind; read_only is never bound.","properties":{"provider":{"type":["string","null"]}}}}},"decision":{"type":"object","properties":{"effect":{"enum":["allow","deny","error"],"description":"Exactly allow, deny or error when present (upstream's server writes error for a call that failed): a denied or failed call is never promoted and never confirms another."}}},"response":{"type":"object","required":["side_effect_asserted"],"properties":{"status":{"description":"\"success\" on a read makes it able to confirm an earlier write."},"side_effect_asserted":{"type":"boolean"},"side_effect_verified":{"type":"boolean","description":"Legacy claim: true without a side_effect block claims verified (no digest)."},"side_effect":{"type":"object","required":["asserted","level"],"properties":{"asserted":{"type":"boolean"},"level":{"enum":["asserted","observed_confirmed","verified"]},"verification_source":{"type":["string","null"],"description":"null for asserted, observed_read_followup for observed_confirmed, provider_audit_import for verified."},"verification_subject_digest":{"type":["string","null"],"description":"The claimed binding of the call subject (sha256:<64 hex>); null for asserted."}}}}}}};

const func0 = ucs2length["default"] ?? ucs2length;

function validate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.response === undefined) && (missing0 = "response")){
validate1.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.tool !== undefined){
let data0 = data.tool;
const _errs1 = errors;
if(errors === _errs1){
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(data0.name !== undefined){
let data1 = data0.name;
const _errs3 = errors;
if((typeof data1 !== "string") && (data1 !== null)){
validate1.errors = [{instancePath:instancePath+"/tool/name",schemaPath:"#/properties/tool/properties/name/type",keyword:"type",params:{type: schema1.properties.tool.properties.name.type},message:"must be string,null"}];
return false;
}
if(errors === _errs3){
if(typeof data1 === "string"){
if(func0(data1) > 1024){
validate1.errors = [{instancePath:instancePath+"/tool/name",schemaPath:"#/properties/tool/properties/name/maxLength",keyword:"maxLength",params:{limit: 1024},message:"must NOT have more than 1024 characters"}];
return false;
}
}
}
var valid1 = _errs3 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data0.category !== undefined){
let data2 = data0.category;
const _errs5 = errors;
if((typeof data2 !== "string") && (data2 !== null)){
validate1.errors = [{instancePath:instancePath+"/tool/category",schemaPath:"#/properties/tool/properties/category/type",keyword:"type",params:{type: schema1.properties.tool.properties.category.type},message:"must be string,null"}];
return false;
}
var valid1 = _errs5 === errors;
}
else {
var valid1 = true;
}
}
}
else {
validate1.errors = [{instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.action !== undefined){
let data3 = data.action;
const _errs7 = errors;
if((!(data3 && typeof data3 == "object" && !Array.isArray(data3))) && (data3 !== null)){
validate1.errors = [{instancePath:instancePath+"/action",schemaPath:"#/properties/action/type",keyword:"type",params:{type: schema1.properties.action.type},message:"must be object,null"}];
return false;
}
if(errors === _errs7){
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
if(data3.target !== undefined){
let data4 = data3.target;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.provider !== undefined){
let data5 = data4.provider;
if((typeof data5 !== "string") && (data5 !== null)){
validate1.errors = [{instancePath:instancePath+"/action/target/provider",schemaPath:"#/properties/action/properties/target/properties/provider/type",keyword:"type",params:{type: schema1.properties.action.properties.target.properties.provider.type},message:"must be string,null"}];
return false;
}
}
}
}
}
}
var valid0 = _errs7 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.decision !== undefined){
let data6 = data.decision;
const _errs12 = errors;
if(errors === _errs12){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
if(data6.effect !== undefined){
let data7 = data6.effect;
if(!(((data7 === "allow") || (data7 === "deny")) || (data7 === "error"))){
validate1.errors = [{instancePath:instancePath+"/decision/effect",schemaPath:"#/properties/decision/properties/effect/enum",keyword:"enum",params:{allowedValues: schema1.properties.decision.properties.effect.enum},message:"must be equal to one of the allowed values"}];
return false;
}
}
}
else {
validate1.errors = [{instancePath:instancePath+"/decision",schemaPath:"#/properties/decision/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.response !== undefined){
let data8 = data.response;
const _errs15 = errors;
if(errors === _errs15){
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
let missing1;
if((data8.side_effect_asserted === undefined) && (missing1 = "side_effect_asserted")){
validate1.errors = [{instancePath:instancePath+"/response",schemaPath:"#/properties/response/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data8.side_effect_asserted !== undefined){
const _errs17 = errors;
if(typeof data8.side_effect_asserted !== "boolean"){
validate1.errors = [{instancePath:instancePath+"/response/side_effect_asserted",schemaPath:"#/properties/response/properties/side_effect_asserted/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid5 = _errs17 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data8.side_effect_verified !== undefined){
const _errs19 = errors;
if(typeof data8.side_effect_verified !== "boolean"){
validate1.errors = [{instancePath:instancePath+"/response/side_effect_verified",schemaPath:"#/properties/response/properties/side_effect_verified/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid5 = _errs19 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data8.side_effect !== undefined){
let data11 = data8.side_effect;
const _errs21 = errors;
if(errors === _errs21){
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
let missing2;
if(((data11.asserted === undefined) && (missing2 = "asserted")) || ((data11.level === undefined) && (missing2 = "level"))){
validate1.errors = [{instancePath:instancePath+"/response/side_effect",schemaPath:"#/properties/response/properties/side_effect/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data11.asserted !== undefined){
const _errs23 = errors;
if(typeof data11.asserted !== "boolean"){
validate1.errors = [{instancePath:instancePath+"/response/side_effect/asserted",schemaPath:"#/properties/response/properties/side_effect/properties/asserted/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid6 = _errs23 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data11.level !== undefined){
let data13 = data11.level;
const _errs25 = errors;
if(!(((data13 === "asserted") || (data13 === "observed_confirmed")) || (data13 === "verified"))){
validate1.errors = [{instancePath:instancePath+"/response/side_effect/level",schemaPath:"#/properties/response/properties/side_effect/properties/level/enum",keyword:"enum",params:{allowedValues: schema1.properties.response.properties.side_effect.properties.level.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid6 = _errs25 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data11.verification_source !== undefined){
let data14 = data11.verification_source;
const _errs26 = errors;
if((typeof data14 !== "string") && (data14 !== null)){
validate1.errors = [{instancePath:instancePath+"/response/side_effect/verification_source",schemaPath:"#/properties/response/properties/side_effect/properties/verification_source/type",keyword:"type",params:{type: schema1.properties.response.properties.side_effect.properties.verification_source.type},message:"must be string,null"}];
return false;
}
var valid6 = _errs26 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data11.verification_subject_digest !== undefined){
let data15 = data11.verification_subject_digest;
const _errs28 = errors;
if((typeof data15 !== "string") && (data15 !== null)){
validate1.errors = [{instancePath:instancePath+"/response/side_effect/verification_subject_digest",schemaPath:"#/properties/response/properties/side_effect/properties/verification_subject_digest/type",keyword:"type",params:{type: schema1.properties.response.properties.side_effect.properties.verification_subject_digest.type},message:"must be string,null"}];
return false;
}
var valid6 = _errs28 === errors;
}
else {
var valid6 = true;
}
}
}
}
}
}
else {
validate1.errors = [{instancePath:instancePath+"/response/side_effect",schemaPath:"#/properties/response/properties/side_effect/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid5 = _errs21 === errors;
}
else {
var valid5 = true;
}
}
}
}
}
else {
validate1.errors = [{instancePath:instancePath+"/response",schemaPath:"#/properties/response/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs15 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
else {
validate1.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate1.errors = vErrors;
return errors === 0;
}

const record = validate2;
const schema3 = {"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://receipt-gate.dev/schemas/provider-audit-record.schema.json","title":"assay.provider_audit_record.v0","description":"An audit record exported independently from a provider's own audit log. binding_digest must equal sha256(JCS(subject)); receipt-gate recomputes it and never queries the provider.","type":"object","required":["schema","provider","record_id","subject","binding_digest"],"properties":{"schema":{"const":"assay.provider_audit_record.v0"},"provider":{"type":"string","description":"Must equal action.target.provider of the call it verifies, when the call names one."},"record_id":{"type":"string","description":"With provider, the record's identity: one record verifies one call."},"subject":{"type":"object","required":["action_class","verb","target"],"properties":{"action_class":{"type":"string"},"verb":{"type":"string"},"target":{"type":"object"}}},"binding_digest":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"non_claims":{"type":"array","items":{"type":"string"}},"signature":{"type":"object","description":"Optional: an Ed25519 signature by the export job over the DSSE PAE of JCS(this record without signature); see docs/records-provenance.md.","required":["version","algorithm","payload_type","signed_payload_digest","key_id","signature","signed_at"],"additionalProperties":false,"properties":{"version":{"const":1},"algorithm":{"const":"ed25519"},"payload_type":{"const":"application/vnd.assay.provider-audit-record+json;v=0"},"signed_payload_digest":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"key_id":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$","description":"sha256 of the signer's public key (SubjectPublicKeyInfo DER)."},"signature":{"type":"string","description":"base64 of the 64-byte Ed25519 signature"},"signed_at":{"type":"string","description":"RFC 3339 UTC time"}}}}};
const pattern0 = new RegExp("^sha256:[0-9a-f]{64}$", "u");

function validate2(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://receipt-gate.dev/schemas/provider-audit-record.schema.json" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((((((data.schema === undefined) && (missing0 = "schema")) || ((data.provider === undefined) && (missing0 = "provider"))) || ((data.record_id === undefined) && (missing0 = "record_id"))) || ((data.subject === undefined) && (missing0 = "subject"))) || ((data.binding_digest === undefined) && (missing0 = "binding_digest"))){
validate2.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.schema !== undefined){
const _errs1 = errors;
if("assay.provider_audit_record.v0" !== data.schema){
validate2.errors = [{instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: "assay.provider_audit_record.v0"},message:"must be equal to constant"}];
return false;
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.provider !== undefined){
const _errs2 = errors;
if(typeof data.provider !== "string"){
validate2.errors = [{instancePath:instancePath+"/provider",schemaPath:"#/properties/provider/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.record_id !== undefined){
const _errs4 = errors;
if(typeof data.record_id !== "string"){
validate2.errors = [{instancePath:instancePath+"/record_id",schemaPath:"#/properties/record_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.subject !== undefined){
let data3 = data.subject;
const _errs6 = errors;
if(errors === _errs6){
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
let missing1;
if((((data3.action_class === undefined) && (missing1 = "action_class")) || ((data3.verb === undefined) && (missing1 = "verb"))) || ((data3.target === undefined) && (missing1 = "target"))){
validate2.errors = [{instancePath:instancePath+"/subject",schemaPath:"#/properties/subject/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data3.action_class !== undefined){
const _errs8 = errors;
if(typeof data3.action_class !== "string"){
validate2.errors = [{instancePath:instancePath+"/subject/action_class",schemaPath:"#/properties/subject/properties/action_class/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs8 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data3.verb !== undefined){
const _errs10 = errors;
if(typeof data3.verb !== "string"){
validate2.errors = [{instancePath:instancePath+"/subject/verb",schemaPath:"#/properties/subject/properties/verb/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs10 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data3.target !== undefined){
let data6 = data3.target;
const _errs12 = errors;
if(!(data6 && typeof data6 == "object" && !Array.isArray(data6))){
validate2.errors = [{instancePath:instancePath+"/subject/target",schemaPath:"#/properties/subject/properties/target/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid1 = _errs12 === errors;
}
else {
var valid1 = true;
}
}
}
}
}
else {
validate2.errors = [{instancePath:instancePath+"/subject",schemaPath:"#/properties/subject/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.binding_digest !== undefined){
let data7 = data.binding_digest;
const _errs14 = errors;
if(errors === _errs14){
if(typeof data7 === "string"){
if(!pattern0.test(data7)){
validate2.errors = [{instancePath:instancePath+"/binding_digest",schemaPath:"#/properties/binding_digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""}];
return false;
}
}
else {
validate2.errors = [{instancePath:instancePath+"/binding_digest",schemaPath:"#/properties/binding_digest/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.non_claims !== undefined){
let data8 = data.non_claims;
const _errs16 = errors;
if(errors === _errs16){
if(Array.isArray(data8)){
var valid2 = true;
const len0 = data8.length;
for(let i0=0; i0<len0; i0++){
const _errs18 = errors;
if(typeof data8[i0] !== "string"){
validate2.errors = [{instancePath:instancePath+"/non_claims/" + i0,schemaPath:"#/properties/non_claims/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs18 === errors;
if(!valid2){
break;
}
}
}
else {
validate2.errors = [{instancePath:instancePath+"/non_claims",schemaPath:"#/properties/non_claims/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.signature !== undefined){
let data10 = data.signature;
const _errs20 = errors;
if(errors === _errs20){
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
let missing2;
if((((((((data10.version === undefined) && (missing2 = "version")) || ((data10.algorithm === undefined) && (missing2 = "algorithm"))) || ((data10.payload_type === undefined) && (missing2 = "payload_type"))) || ((data10.signed_payload_digest === undefined) && (missing2 = "signed_payload_digest"))) || ((data10.key_id === undefined) && (missing2 = "key_id"))) || ((data10.signature === undefined) && (missing2 = "signature"))) || ((data10.signed_at === undefined) && (missing2 = "signed_at"))){
validate2.errors = [{instancePath:instancePath+"/signature",schemaPath:"#/properties/signature/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
const _errs22 = errors;
for(const key0 in data10){
if(!(((((((key0 === "version") || (key0 === "algorithm")) || (key0 === "payload_type")) || (key0 === "signed_payload_digest")) || (key0 === "key_id")) || (key0 === "signature")) || (key0 === "signed_at"))){
validate2.errors = [{instancePath:instancePath+"/signature",schemaPath:"#/properties/signature/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs22 === errors){
if(data10.version !== undefined){
const _errs23 = errors;
if(1 !== data10.version){
validate2.errors = [{instancePath:instancePath+"/signature/version",schemaPath:"#/properties/signature/properties/version/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"}];
return false;
}
var valid3 = _errs23 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.algorithm !== undefined){
const _errs24 = errors;
if("ed25519" !== data10.algorithm){
validate2.errors = [{instancePath:instancePath+"/signature/algorithm",schemaPath:"#/properties/signature/properties/algorithm/const",keyword:"const",params:{allowedValue: "ed25519"},message:"must be equal to constant"}];
return false;
}
var valid3 = _errs24 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.payload_type !== undefined){
const _errs25 = errors;
if("application/vnd.assay.provider-audit-record+json;v=0" !== data10.payload_type){
validate2.errors = [{instancePath:instancePath+"/signature/payload_type",schemaPath:"#/properties/signature/properties/payload_type/const",keyword:"const",params:{allowedValue: "application/vnd.assay.provider-audit-record+json;v=0"},message:"must be equal to constant"}];
return false;
}
var valid3 = _errs25 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.signed_payload_digest !== undefined){
let data14 = data10.signed_payload_digest;
const _errs26 = errors;
if(errors === _errs26){
if(typeof data14 === "string"){
if(!pattern0.test(data14)){
validate2.errors = [{instancePath:instancePath+"/signature/signed_payload_digest",schemaPath:"#/properties/signature/properties/signed_payload_digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""}];
return false;
}
}
else {
validate2.errors = [{instancePath:instancePath+"/signature/signed_payload_digest",schemaPath:"#/properties/signature/properties/signed_payload_digest/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid3 = _errs26 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.key_id !== undefined){
let data15 = data10.key_id;
const _errs28 = errors;
if(errors === _errs28){
if(typeof data15 === "string"){
if(!pattern0.test(data15)){
validate2.errors = [{instancePath:instancePath+"/signature/key_id",schemaPath:"#/properties/signature/properties/key_id/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""}];
return false;
}
}
else {
validate2.errors = [{instancePath:instancePath+"/signature/key_id",schemaPath:"#/properties/signature/properties/key_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid3 = _errs28 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.signature !== undefined){
const _errs30 = errors;
if(typeof data10.signature !== "string"){
validate2.errors = [{instancePath:instancePath+"/signature/signature",schemaPath:"#/properties/signature/properties/signature/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs30 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.signed_at !== undefined){
const _errs32 = errors;
if(typeof data10.signed_at !== "string"){
validate2.errors = [{instancePath:instancePath+"/signature/signed_at",schemaPath:"#/properties/signature/properties/signed_at/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs32 === errors;
}
else {
var valid3 = true;
}
}
}
}
}
}
}
}
}
}
else {
validate2.errors = [{instancePath:instancePath+"/signature",schemaPath:"#/properties/signature/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs20 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
else {
validate2.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate2.errors = vErrors;
return errors === 0;
}

const policyFile = (/* unused pure expression or super */ null && (policyValidate0));
const policySchema0 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/policy.schema.json","title":"receipt-gate policy file (.github/receipt-gate.yml)","description":"What each side effect must reach, read from the base commit on pull requests and merge queues (docs/policy.md). YAML 1.2, one document; this schema is its shape (what the gate checks besides: unique rule names, globs only on plain fields, fields the class binds, expiry at most 366 days out, signers among those trusted, class and verb names).","type":"object","additionalProperties":false,"required":["version"],"properties":{"version":{"description":"The policy file's version: 1.","const":1},"default":{"description":"The level required of a call that asserts a side effect, was not denied and no rule matches (default: asserted, honesty only).","$ref":"#/$defs/level"},"pending":{"description":"How long a call (or a record) may wait for the export (or the run) that matches it (docs/coverage.md, docs/policy.md §12): whole units d, h, m in that order (72h, 3d, 1d12h, 90m), at most 30d; 0 (the number or the string, the default): nothing is ever pending.","type":["string","integer"],"pattern":"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},"rules":{"description":"Rules, first match wins in file order.","type":"array","items":{"$ref":"#/$defs/rule"}},"exceptions":{"description":"Shortfalls excused, each keyed by a call's binding, with a reason, an owner and an expiry.","type":"array","items":{"$ref":"#/$defs/exception"}},"grandfathered":{"description":"Runs judged for honesty only, and audit files whose trust is not asked, pinned by their bytes.","type":"array","items":{"$ref":"#/$defs/grandfathered"}},"trust":{"$ref":"#/$defs/trust"}},"$defs":{"level":{"enum":["asserted","observed_confirmed","verified"]},"name":{"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"},"glob":{"type":"string","minLength":1},"rule":{"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}},"exception":{"type":"object","additionalProperties":false,"required":["binding","rule","reason","owner","expires"],"properties":{"binding":{"description":"The call subject's binding.","type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"rule":{"description":"The rule it excuses.","$ref":"#/$defs/name"},"reason":{"type":"string","minLength":1},"owner":{"type":"string","minLength":1},"expires":{"description":"An RFC 3339 date (00:00 UTC) or date-time; at most 366 days after the verification time.","type":"string","minLength":1}}},"grandfathered":{"type":"object","additionalProperties":false,"required":["sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it: judged for honesty only.","type":"string","minLength":1},"audit":{"description":"An audit file's path, as the report names it: its records are judged for honesty and bind calls, but trust is not asked of them.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}},"paths":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"strings":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"trust":{"description":"Trust, read at the base with the rules (docs/policy.md §9): the keys mean what the action inputs of the same names mean; a path is read at the same commit as the policy. Beside a trust: section, no trust input may be given.","type":"object","additionalProperties":false,"properties":{"mode":{"description":"enforce (default), or warn: trust failures are warnings (a rollout).","enum":["enforce","warn"]},"trusted-keys":{"description":"PEM files of the Ed25519 keys trusted to sign records.","$ref":"#/$defs/paths"},"trusted-signer-identities":{"description":"Workflow identities whose attestations trust records.","$ref":"#/$defs/strings"},"require-signed-records":{"type":"boolean"},"trusted-producers":{"description":"PEM files of the Ed25519 keys trusted to attest runs.","$ref":"#/$defs/paths"},"trusted-producer-identities":{"description":"Workflow identities whose attestations attest runs.","$ref":"#/$defs/strings"},"require-attested-runs":{"type":"boolean"},"source-refs":{"description":"Refs a trusted identity may run from.","$ref":"#/$defs/strings"},"certificate-oidc-issuer":{"type":"string","minLength":1},"trusted-root":{"description":"A Sigstore trusted-root file (JSON lines), read at the same commit.","type":"string","minLength":1}}}}};
const policySchema1 = {"enum":["asserted","observed_confirmed","verified"]};
const policySchema9 = {"type":"object","additionalProperties":false,"required":["sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it: judged for honesty only.","type":"string","minLength":1},"audit":{"description":"An audit file's path, as the report names it: its records are judged for honesty and bind calls, but trust is not asked of them.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}};
const policyPattern0 = new RegExp("^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$", "u");
const policyPattern5 = new RegExp("^[0-9a-f]{64}$", "u");
const policySchema2 = {"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}};
const policySchema3 = {"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"};
const policySchema4 = {"type":"string","minLength":1};
const policyPattern1 = new RegExp("^[a-z0-9][a-z0-9-]{0,63}$", "u");
const policyPattern2 = new RegExp("^(https://\\S+|sha256:[0-9a-f]{64})$", "u");
const policyFunc0 = ucs2length["default"] ?? ucs2length;

function policyValidate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.match === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "match"},message:"must have required property '"+"match"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.require === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "require"},message:"must have required property '"+"require"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((key0 === "name") || (key0 === "match")) || (key0 === "require")) || (key0 === "mode")) || (key0 === "signed-by"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!policyPattern1.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9-]{0,63}$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9-]{0,63}$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.match !== undefined){
let data1 = data.match;
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.class === undefined){
const err6 = {instancePath:instancePath+"/match",schemaPath:"#/properties/match/required",keyword:"required",params:{missingProperty: "class"},message:"must have required property '"+"class"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
for(const key1 in data1){
if(!(((key1 === "class") || (key1 === "verb")) || (key1 === "target"))){
const err7 = {instancePath:instancePath+"/match",schemaPath:"#/properties/match/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.class !== undefined){
let data2 = data1.class;
if(typeof data2 === "string"){
if(policyFunc0(data2) < 1){
const err8 = {instancePath:instancePath+"/match/class",schemaPath:"#/properties/match/properties/class/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/match/class",schemaPath:"#/properties/match/properties/class/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.verb !== undefined){
let data3 = data1.verb;
if(typeof data3 === "string"){
if(policyFunc0(data3) < 1){
const err10 = {instancePath:instancePath+"/match/verb",schemaPath:"#/properties/match/properties/verb/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/match/verb",schemaPath:"#/properties/match/properties/verb/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.target !== undefined){
let data4 = data1.target;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(Object.keys(data4).length < 1){
const err12 = {instancePath:instancePath+"/match/target",schemaPath:"#/properties/match/properties/target/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
for(const key2 in data4){
let data5 = data4[key2];
const _errs16 = errors;
let valid4 = false;
let passing0 = null;
const _errs17 = errors;
if(typeof data5 === "string"){
if(policyFunc0(data5) < 1){
const err13 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/glob/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/glob/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs17 === errors;
if(_valid0){
valid4 = true;
passing0 = 0;
}
const _errs20 = errors;
if(Array.isArray(data5)){
if(data5.length < 1){
const err15 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/match/properties/target/additionalProperties/oneOf/1/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
if(typeof data6 === "string"){
if(policyFunc0(data6) < 1){
const err16 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i0,schemaPath:"#/$defs/glob/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i0,schemaPath:"#/$defs/glob/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/match/properties/target/additionalProperties/oneOf/1/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
var _valid0 = _errs20 === errors;
if(_valid0 && valid4){
valid4 = false;
passing0 = [passing0, 1];
}
else {
if(_valid0){
valid4 = true;
passing0 = 1;
}
}
if(!valid4){
const err19 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/match/properties/target/additionalProperties/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
else {
errors = _errs16;
if(vErrors !== null){
if(_errs16){
vErrors.length = _errs16;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err20 = {instancePath:instancePath+"/match/target",schemaPath:"#/properties/match/properties/target/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/match",schemaPath:"#/properties/match/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data.require !== undefined){
let data7 = data.require;
if(!(((data7 === "asserted") || (data7 === "observed_confirmed")) || (data7 === "verified"))){
const err22 = {instancePath:instancePath+"/require",schemaPath:"#/$defs/level/enum",keyword:"enum",params:{allowedValues: policySchema1.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.mode !== undefined){
let data8 = data.mode;
if(!((data8 === "enforce") || (data8 === "warn"))){
const err23 = {instancePath:instancePath+"/mode",schemaPath:"#/properties/mode/enum",keyword:"enum",params:{allowedValues: policySchema2.properties.mode.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data["signed-by"] !== undefined){
let data9 = data["signed-by"];
if(Array.isArray(data9)){
if(data9.length < 1){
const err24 = {instancePath:instancePath+"/signed-by",schemaPath:"#/properties/signed-by/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
const len1 = data9.length;
for(let i1=0; i1<len1; i1++){
let data10 = data9[i1];
if(typeof data10 === "string"){
if(!policyPattern2.test(data10)){
const err25 = {instancePath:instancePath+"/signed-by/" + i1,schemaPath:"#/properties/signed-by/items/pattern",keyword:"pattern",params:{pattern: "^(https://\\S+|sha256:[0-9a-f]{64})$"},message:"must match pattern \""+"^(https://\\S+|sha256:[0-9a-f]{64})$"+"\""};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
else {
const err26 = {instancePath:instancePath+"/signed-by/" + i1,schemaPath:"#/properties/signed-by/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
else {
const err27 = {instancePath:instancePath+"/signed-by",schemaPath:"#/properties/signed-by/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
policyValidate1.errors = vErrors;
return errors === 0;
}

const policySchema7 = {"type":"object","additionalProperties":false,"required":["binding","rule","reason","owner","expires"],"properties":{"binding":{"description":"The call subject's binding.","type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"rule":{"description":"The rule it excuses.","$ref":"#/$defs/name"},"reason":{"type":"string","minLength":1},"owner":{"type":"string","minLength":1},"expires":{"description":"An RFC 3339 date (00:00 UTC) or date-time; at most 366 days after the verification time.","type":"string","minLength":1}}};
const policyPattern3 = new RegExp("^sha256:[0-9a-f]{64}$", "u");

function policyValidate3(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.binding === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "binding"},message:"must have required property '"+"binding"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.rule === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "rule"},message:"must have required property '"+"rule"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.reason === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.owner === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "owner"},message:"must have required property '"+"owner"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.expires === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expires"},message:"must have required property '"+"expires"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
for(const key0 in data){
if(!(((((key0 === "binding") || (key0 === "rule")) || (key0 === "reason")) || (key0 === "owner")) || (key0 === "expires"))){
const err5 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.binding !== undefined){
let data0 = data.binding;
if(typeof data0 === "string"){
if(!policyPattern3.test(data0)){
const err6 = {instancePath:instancePath+"/binding",schemaPath:"#/properties/binding/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/binding",schemaPath:"#/properties/binding/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.rule !== undefined){
let data1 = data.rule;
if(typeof data1 === "string"){
if(!policyPattern1.test(data1)){
const err8 = {instancePath:instancePath+"/rule",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9-]{0,63}$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9-]{0,63}$"+"\""};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/rule",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.reason !== undefined){
let data2 = data.reason;
if(typeof data2 === "string"){
if(policyFunc0(data2) < 1){
const err10 = {instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.owner !== undefined){
let data3 = data.owner;
if(typeof data3 === "string"){
if(policyFunc0(data3) < 1){
const err12 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.expires !== undefined){
let data4 = data.expires;
if(typeof data4 === "string"){
if(policyFunc0(data4) < 1){
const err14 = {instancePath:instancePath+"/expires",schemaPath:"#/properties/expires/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/expires",schemaPath:"#/properties/expires/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
policyValidate3.errors = vErrors;
return errors === 0;
}

const policySchema10 = {"description":"Trust, read at the base with the rules (docs/policy.md §9): the keys mean what the action inputs of the same names mean; a path is read at the same commit as the policy. Beside a trust: section, no trust input may be given.","type":"object","additionalProperties":false,"properties":{"mode":{"description":"enforce (default), or warn: trust failures are warnings (a rollout).","enum":["enforce","warn"]},"trusted-keys":{"description":"PEM files of the Ed25519 keys trusted to sign records.","$ref":"#/$defs/paths"},"trusted-signer-identities":{"description":"Workflow identities whose attestations trust records.","$ref":"#/$defs/strings"},"require-signed-records":{"type":"boolean"},"trusted-producers":{"description":"PEM files of the Ed25519 keys trusted to attest runs.","$ref":"#/$defs/paths"},"trusted-producer-identities":{"description":"Workflow identities whose attestations attest runs.","$ref":"#/$defs/strings"},"require-attested-runs":{"type":"boolean"},"source-refs":{"description":"Refs a trusted identity may run from.","$ref":"#/$defs/strings"},"certificate-oidc-issuer":{"type":"string","minLength":1},"trusted-root":{"description":"A Sigstore trusted-root file (JSON lines), read at the same commit.","type":"string","minLength":1}}};
const policySchema11 = {"type":"array","minItems":1,"items":{"type":"string","minLength":1}};
const policySchema12 = {"type":"array","minItems":1,"items":{"type":"string","minLength":1}};
const policyFunc10 = Object.prototype.hasOwnProperty;

function policyValidate5(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(policyFunc10.call(policySchema10.properties, key0))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.mode !== undefined){
let data0 = data.mode;
if(!((data0 === "enforce") || (data0 === "warn"))){
const err1 = {instancePath:instancePath+"/mode",schemaPath:"#/properties/mode/enum",keyword:"enum",params:{allowedValues: policySchema10.properties.mode.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data["trusted-keys"] !== undefined){
let data1 = data["trusted-keys"];
if(Array.isArray(data1)){
if(data1.length < 1){
const err2 = {instancePath:instancePath+"/trusted-keys",schemaPath:"#/$defs/paths/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 === "string"){
if(policyFunc0(data2) < 1){
const err3 = {instancePath:instancePath+"/trusted-keys/" + i0,schemaPath:"#/$defs/paths/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/trusted-keys/" + i0,schemaPath:"#/$defs/paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/trusted-keys",schemaPath:"#/$defs/paths/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data["trusted-signer-identities"] !== undefined){
let data3 = data["trusted-signer-identities"];
if(Array.isArray(data3)){
if(data3.length < 1){
const err6 = {instancePath:instancePath+"/trusted-signer-identities",schemaPath:"#/$defs/strings/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 === "string"){
if(policyFunc0(data4) < 1){
const err7 = {instancePath:instancePath+"/trusted-signer-identities/" + i1,schemaPath:"#/$defs/strings/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/trusted-signer-identities/" + i1,schemaPath:"#/$defs/strings/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath:instancePath+"/trusted-signer-identities",schemaPath:"#/$defs/strings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data["require-signed-records"] !== undefined){
if(typeof data["require-signed-records"] !== "boolean"){
const err10 = {instancePath:instancePath+"/require-signed-records",schemaPath:"#/properties/require-signed-records/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data["trusted-producers"] !== undefined){
let data6 = data["trusted-producers"];
if(Array.isArray(data6)){
if(data6.length < 1){
const err11 = {instancePath:instancePath+"/trusted-producers",schemaPath:"#/$defs/paths/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
const len2 = data6.length;
for(let i2=0; i2<len2; i2++){
let data7 = data6[i2];
if(typeof data7 === "string"){
if(policyFunc0(data7) < 1){
const err12 = {instancePath:instancePath+"/trusted-producers/" + i2,schemaPath:"#/$defs/paths/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/trusted-producers/" + i2,schemaPath:"#/$defs/paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/trusted-producers",schemaPath:"#/$defs/paths/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data["trusted-producer-identities"] !== undefined){
let data8 = data["trusted-producer-identities"];
if(Array.isArray(data8)){
if(data8.length < 1){
const err15 = {instancePath:instancePath+"/trusted-producer-identities",schemaPath:"#/$defs/strings/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
const len3 = data8.length;
for(let i3=0; i3<len3; i3++){
let data9 = data8[i3];
if(typeof data9 === "string"){
if(policyFunc0(data9) < 1){
const err16 = {instancePath:instancePath+"/trusted-producer-identities/" + i3,schemaPath:"#/$defs/strings/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/trusted-producer-identities/" + i3,schemaPath:"#/$defs/strings/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/trusted-producer-identities",schemaPath:"#/$defs/strings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data["require-attested-runs"] !== undefined){
if(typeof data["require-attested-runs"] !== "boolean"){
const err19 = {instancePath:instancePath+"/require-attested-runs",schemaPath:"#/properties/require-attested-runs/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data["source-refs"] !== undefined){
let data11 = data["source-refs"];
if(Array.isArray(data11)){
if(data11.length < 1){
const err20 = {instancePath:instancePath+"/source-refs",schemaPath:"#/$defs/strings/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
const len4 = data11.length;
for(let i4=0; i4<len4; i4++){
let data12 = data11[i4];
if(typeof data12 === "string"){
if(policyFunc0(data12) < 1){
const err21 = {instancePath:instancePath+"/source-refs/" + i4,schemaPath:"#/$defs/strings/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/source-refs/" + i4,schemaPath:"#/$defs/strings/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/source-refs",schemaPath:"#/$defs/strings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data["certificate-oidc-issuer"] !== undefined){
let data13 = data["certificate-oidc-issuer"];
if(typeof data13 === "string"){
if(policyFunc0(data13) < 1){
const err24 = {instancePath:instancePath+"/certificate-oidc-issuer",schemaPath:"#/properties/certificate-oidc-issuer/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/certificate-oidc-issuer",schemaPath:"#/properties/certificate-oidc-issuer/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data["trusted-root"] !== undefined){
let data14 = data["trusted-root"];
if(typeof data14 === "string"){
if(policyFunc0(data14) < 1){
const err26 = {instancePath:instancePath+"/trusted-root",schemaPath:"#/properties/trusted-root/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {instancePath:instancePath+"/trusted-root",schemaPath:"#/properties/trusted-root/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
policyValidate5.errors = vErrors;
return errors === 0;
}


function policyValidate0(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://github.com/receipt-gate/receipt-gate/blob/main/schemas/policy.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.version === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "version") || (key0 === "default")) || (key0 === "pending")) || (key0 === "rules")) || (key0 === "exceptions")) || (key0 === "grandfathered")) || (key0 === "trust"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.version !== undefined){
if(1 !== data.version){
const err2 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.default !== undefined){
let data1 = data.default;
if(!(((data1 === "asserted") || (data1 === "observed_confirmed")) || (data1 === "verified"))){
const err3 = {instancePath:instancePath+"/default",schemaPath:"#/$defs/level/enum",keyword:"enum",params:{allowedValues: policySchema1.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.pending !== undefined){
let data2 = data.pending;
if((typeof data2 !== "string") && (!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2))))){
const err4 = {instancePath:instancePath+"/pending",schemaPath:"#/properties/pending/type",keyword:"type",params:{type: policySchema0.properties.pending.type},message:"must be string,integer"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(typeof data2 === "string"){
if(!policyPattern0.test(data2)){
const err5 = {instancePath:instancePath+"/pending",schemaPath:"#/properties/pending/pattern",keyword:"pattern",params:{pattern: "^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},message:"must match pattern \""+"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"+"\""};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
if(data.rules !== undefined){
let data3 = data.rules;
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
if(!(policyValidate1(data3[i0], {instancePath:instancePath+"/rules/" + i0,parentData:data3,parentDataProperty:i0,rootData}))){
vErrors = vErrors === null ? policyValidate1.errors : vErrors.concat(policyValidate1.errors);
errors = vErrors.length;
}
}
}
else {
const err6 = {instancePath:instancePath+"/rules",schemaPath:"#/properties/rules/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.exceptions !== undefined){
let data5 = data.exceptions;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
if(!(policyValidate3(data5[i1], {instancePath:instancePath+"/exceptions/" + i1,parentData:data5,parentDataProperty:i1,rootData}))){
vErrors = vErrors === null ? policyValidate3.errors : vErrors.concat(policyValidate3.errors);
errors = vErrors.length;
}
}
}
else {
const err7 = {instancePath:instancePath+"/exceptions",schemaPath:"#/properties/exceptions/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.grandfathered !== undefined){
let data7 = data.grandfathered;
if(Array.isArray(data7)){
const len2 = data7.length;
for(let i2=0; i2<len2; i2++){
let data8 = data7[i2];
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.sha256 === undefined){
const err8 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/required",keyword:"required",params:{missingProperty: "sha256"},message:"must have required property '"+"sha256"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data8.reason === undefined){
const err9 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
for(const key1 in data8){
if(!((((key1 === "run") || (key1 === "audit")) || (key1 === "sha256")) || (key1 === "reason"))){
const err10 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data8.run !== undefined){
let data9 = data8.run;
if(typeof data9 === "string"){
if(policyFunc0(data9) < 1){
const err11 = {instancePath:instancePath+"/grandfathered/" + i2+"/run",schemaPath:"#/$defs/grandfathered/properties/run/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/grandfathered/" + i2+"/run",schemaPath:"#/$defs/grandfathered/properties/run/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data8.audit !== undefined){
let data10 = data8.audit;
if(typeof data10 === "string"){
if(policyFunc0(data10) < 1){
const err13 = {instancePath:instancePath+"/grandfathered/" + i2+"/audit",schemaPath:"#/$defs/grandfathered/properties/audit/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/grandfathered/" + i2+"/audit",schemaPath:"#/$defs/grandfathered/properties/audit/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data8.sha256 !== undefined){
let data11 = data8.sha256;
if(typeof data11 === "string"){
if(!policyPattern5.test(data11)){
const err15 = {instancePath:instancePath+"/grandfathered/" + i2+"/sha256",schemaPath:"#/$defs/grandfathered/properties/sha256/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{64}$"},message:"must match pattern \""+"^[0-9a-f]{64}$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/grandfathered/" + i2+"/sha256",schemaPath:"#/$defs/grandfathered/properties/sha256/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data8.reason !== undefined){
let data12 = data8.reason;
if(typeof data12 === "string"){
if(policyFunc0(data12) < 1){
const err17 = {instancePath:instancePath+"/grandfathered/" + i2+"/reason",schemaPath:"#/$defs/grandfathered/properties/reason/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/grandfathered/" + i2+"/reason",schemaPath:"#/$defs/grandfathered/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/grandfathered",schemaPath:"#/properties/grandfathered/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.trust !== undefined){
if(!(policyValidate5(data.trust, {instancePath:instancePath+"/trust",parentData:data,parentDataProperty:"trust",rootData}))){
vErrors = vErrors === null ? policyValidate5.errors : vErrors.concat(policyValidate5.errors);
errors = vErrors.length;
}
}
}
else {
const err21 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
policyValidate0.errors = vErrors;
return errors === 0;
}

const policySchema = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/policy.schema.json","title":"receipt-gate policy file (.github/receipt-gate.yml)","description":"What each side effect must reach, read from the base commit on pull requests and merge queues (docs/policy.md). YAML 1.2, one document; this schema is its shape (what the gate checks besides: unique rule names, globs only on plain fields, fields the class binds, expiry at most 366 days out, signers among those trusted, class and verb names).","type":"object","additionalProperties":false,"required":["version"],"properties":{"version":{"description":"The policy file's version: 1.","const":1},"default":{"description":"The level required of a call that asserts a side effect, was not denied and no rule matches (default: asserted, honesty only).","$ref":"#/$defs/level"},"pending":{"description":"How long a call (or a record) may wait for the export (or the run) that matches it (docs/coverage.md, docs/policy.md §12): whole units d, h, m in that order (72h, 3d, 1d12h, 90m), at most 30d; 0 (the number or the string, the default): nothing is ever pending.","type":["string","integer"],"pattern":"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},"rules":{"description":"Rules, first match wins in file order.","type":"array","items":{"$ref":"#/$defs/rule"}},"exceptions":{"description":"Shortfalls excused, each keyed by a call's binding, with a reason, an owner and an expiry.","type":"array","items":{"$ref":"#/$defs/exception"}},"grandfathered":{"description":"Runs judged for honesty only, and audit files whose trust is not asked, pinned by their bytes.","type":"array","items":{"$ref":"#/$defs/grandfathered"}},"trust":{"$ref":"#/$defs/trust"}},"$defs":{"level":{"enum":["asserted","observed_confirmed","verified"]},"name":{"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"},"glob":{"type":"string","minLength":1},"rule":{"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}},"exception":{"type":"object","additionalProperties":false,"required":["binding","rule","reason","owner","expires"],"properties":{"binding":{"description":"The call subject's binding.","type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"rule":{"description":"The rule it excuses.","$ref":"#/$defs/name"},"reason":{"type":"string","minLength":1},"owner":{"type":"string","minLength":1},"expires":{"description":"An RFC 3339 date (00:00 UTC) or date-time; at most 366 days after the verification time.","type":"string","minLength":1}}},"grandfathered":{"type":"object","additionalProperties":false,"required":["sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it: judged for honesty only.","type":"string","minLength":1},"audit":{"description":"An audit file's path, as the report names it: its records are judged for honesty and bind calls, but trust is not asked of them.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}},"paths":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"strings":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"trust":{"description":"Trust, read at the base with the rules (docs/policy.md §9): the keys mean what the action inputs of the same names mean; a path is read at the same commit as the policy. Beside a trust: section, no trust input may be given.","type":"object","additionalProperties":false,"properties":{"mode":{"description":"enforce (default), or warn: trust failures are warnings (a rollout).","enum":["enforce","warn"]},"trusted-keys":{"description":"PEM files of the Ed25519 keys trusted to sign records.","$ref":"#/$defs/paths"},"trusted-signer-identities":{"description":"Workflow identities whose attestations trust records.","$ref":"#/$defs/strings"},"require-signed-records":{"type":"boolean"},"trusted-producers":{"description":"PEM files of the Ed25519 keys trusted to attest runs.","$ref":"#/$defs/paths"},"trusted-producer-identities":{"description":"Workflow identities whose attestations attest runs.","$ref":"#/$defs/strings"},"require-attested-runs":{"type":"boolean"},"source-refs":{"description":"Refs a trusted identity may run from.","$ref":"#/$defs/strings"},"certificate-oidc-issuer":{"type":"string","minLength":1},"trusted-root":{"description":"A Sigstore trusted-root file (JSON lines), read at the same commit.","type":"string","minLength":1}}}}};
const mappingFile = (/* unused pure expression or super */ null && (mappingValidate0));
const mappingSchema0 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/tool-mapping.schema.json","title":"receipt-gate mapping file (import-run --map)","description":"Which of a producer's tools write, to which action class and verb, and where each bound target field comes from (docs/producers.md). YAML 1.2, one document, read like the policy file; this schema is its shape (what the importer checks besides: known classes and verbs, exactly the class's bound fields, hashed fields with the class's domain, one source per field).","type":"object","additionalProperties":false,"required":["version","tools"],"properties":{"version":{"description":"The mapping file's version: 1.","const":1},"tools":{"description":"Tool rules, first match wins in file order: a call no rule matches asserts nothing (it is imported and counted, never dropped).","type":"array","items":{"$ref":"#/$defs/tool"}}},"$defs":{"path":{"description":"A dotted path into the arguments or the result (owner, repository.owner, items.0.id): letters, digits, _ and -.","type":"string","pattern":"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},"tool":{"type":"object","additionalProperties":false,"required":["tool","class","verb","target"],"properties":{"tool":{"description":"The tool's name as the producer writes it (gen_ai.tool.name, a tool_result event's tool_name, an MCP request's params.name): exact, or a glob where * matches any run of characters.","type":"string","minLength":1,"maxLength":1024},"server":{"description":"The MCP server the tool is called on (a tool_result event's mcp_server_name, an MCP log's server_id), exact; absent: any server or none.","type":"string","minLength":1},"class":{"description":"The action class (a row of the class table).","type":"string","minLength":1},"verb":{"description":"One of the class's verbs.","type":"string","minLength":1},"provider":{"description":"Which provider's records may bind the call: the class's provider in the class table (the default), and no other.","type":"string","minLength":1},"when":{"description":"A guard: the rule applies only when this argument has this prefix or equals this value (a generic tool such as a CLI runner).","type":"object","additionalProperties":false,"required":["arg"],"properties":{"arg":{"$ref":"#/$defs/path"},"prefix":{"type":"string","minLength":1},"equals":{"type":"string"},"unless":{"description":"Options that make the rule's constants unknowable (a --profile naming another account's credentials): a command that gives one, whole, as --option=value or abbreviated, asserts the write with no subject.","type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^--[A-Za-z0-9][A-Za-z0-9-]*$"}}}},"failed":{"description":"When the source says the call succeeded but its result says the provider refused it (a server that answers a refused operation as a tool result, such as the AWS API MCP server's `0.response.error_code`): the call failed, and asserts nothing, when the result gives this member (its value, structuredContent or a JSON text content; through lists of one element only) as true or a non-empty string, and no place gives it otherwise. Read once the rule's guard has chosen it; a result not captured is not read.","type":"object","additionalProperties":false,"required":["result"],"properties":{"result":{"$ref":"#/$defs/path"}}},"target":{"description":"Each bound field of the class, and where its value comes from.","type":"object","minProperties":1,"additionalProperties":{"$ref":"#/$defs/source"}}}},"source":{"description":"Exactly one of arg (from the call's arguments), result (from the tool's result, JSON) or value (a constant); hash names the class's domain of a hashed field; url-part takes a part of a GitHub URL, cli-option an option's value from a command line.","type":"object","additionalProperties":false,"properties":{"arg":{"$ref":"#/$defs/path"},"result":{"$ref":"#/$defs/path"},"value":{"description":"A constant: a string, a whole number, or null (a field the class leaves empty, as a cluster-wide binding's namespace).","type":["string","integer","null"]},"hash":{"description":"The hash domain of a hashed field (the class table's): the raw value is hashed as the target hash says.","type":"string","minLength":1},"url-part":{"description":"The value is a GitHub URL (https://HOST/OWNER/REPO/issues/N, …/pull/N, …#issuecomment-M: what GitHub's MCP server returns for a write): take this part of it.","enum":["owner","repo","number","comment_id"]},"cli-option":{"description":"The value is a command line (an AWS CLI or kubectl command a generic tool ran): take this option's value (`--user-name NAME` or `--user-name=NAME`; quotes as a shell reads them).","type":"string","pattern":"^--?[A-Za-z0-9][A-Za-z0-9-]*$"}}}}};
const mappingSchema1 = {"type":"object","additionalProperties":false,"required":["tool","class","verb","target"],"properties":{"tool":{"description":"The tool's name as the producer writes it (gen_ai.tool.name, a tool_result event's tool_name, an MCP request's params.name): exact, or a glob where * matches any run of characters.","type":"string","minLength":1,"maxLength":1024},"server":{"description":"The MCP server the tool is called on (a tool_result event's mcp_server_name, an MCP log's server_id), exact; absent: any server or none.","type":"string","minLength":1},"class":{"description":"The action class (a row of the class table).","type":"string","minLength":1},"verb":{"description":"One of the class's verbs.","type":"string","minLength":1},"provider":{"description":"Which provider's records may bind the call: the class's provider in the class table (the default), and no other.","type":"string","minLength":1},"when":{"description":"A guard: the rule applies only when this argument has this prefix or equals this value (a generic tool such as a CLI runner).","type":"object","additionalProperties":false,"required":["arg"],"properties":{"arg":{"$ref":"#/$defs/path"},"prefix":{"type":"string","minLength":1},"equals":{"type":"string"},"unless":{"description":"Options that make the rule's constants unknowable (a --profile naming another account's credentials): a command that gives one, whole, as --option=value or abbreviated, asserts the write with no subject.","type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^--[A-Za-z0-9][A-Za-z0-9-]*$"}}}},"failed":{"description":"When the source says the call succeeded but its result says the provider refused it (a server that answers a refused operation as a tool result, such as the AWS API MCP server's `0.response.error_code`): the call failed, and asserts nothing, when the result gives this member (its value, structuredContent or a JSON text content; through lists of one element only) as true or a non-empty string, and no place gives it otherwise. Read once the rule's guard has chosen it; a result not captured is not read.","type":"object","additionalProperties":false,"required":["result"],"properties":{"result":{"$ref":"#/$defs/path"}}},"target":{"description":"Each bound field of the class, and where its value comes from.","type":"object","minProperties":1,"additionalProperties":{"$ref":"#/$defs/source"}}}};
const mappingSchema2 = {"description":"A dotted path into the arguments or the result (owner, repository.owner, items.0.id): letters, digits, _ and -.","type":"string","pattern":"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"};
const mappingFunc0 = ucs2length["default"] ?? ucs2length;
const mappingPattern0 = new RegExp("^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$", "u");
const mappingPattern1 = new RegExp("^--[A-Za-z0-9][A-Za-z0-9-]*$", "u");
const mappingSchema4 = {"description":"Exactly one of arg (from the call's arguments), result (from the tool's result, JSON) or value (a constant); hash names the class's domain of a hashed field; url-part takes a part of a GitHub URL, cli-option an option's value from a command line.","type":"object","additionalProperties":false,"properties":{"arg":{"$ref":"#/$defs/path"},"result":{"$ref":"#/$defs/path"},"value":{"description":"A constant: a string, a whole number, or null (a field the class leaves empty, as a cluster-wide binding's namespace).","type":["string","integer","null"]},"hash":{"description":"The hash domain of a hashed field (the class table's): the raw value is hashed as the target hash says.","type":"string","minLength":1},"url-part":{"description":"The value is a GitHub URL (https://HOST/OWNER/REPO/issues/N, …/pull/N, …#issuecomment-M: what GitHub's MCP server returns for a write): take this part of it.","enum":["owner","repo","number","comment_id"]},"cli-option":{"description":"The value is a command line (an AWS CLI or kubectl command a generic tool ran): take this option's value (`--user-name NAME` or `--user-name=NAME`; quotes as a shell reads them).","type":"string","pattern":"^--?[A-Za-z0-9][A-Za-z0-9-]*$"}}};
const mappingPattern5 = new RegExp("^--?[A-Za-z0-9][A-Za-z0-9-]*$", "u");

function mappingValidate2(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((((key0 === "arg") || (key0 === "result")) || (key0 === "value")) || (key0 === "hash")) || (key0 === "url-part")) || (key0 === "cli-option"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.arg !== undefined){
let data0 = data.arg;
if(typeof data0 === "string"){
if(!mappingPattern0.test(data0)){
const err1 = {instancePath:instancePath+"/arg",schemaPath:"#/$defs/path/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"+"\""};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath:instancePath+"/arg",schemaPath:"#/$defs/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.result !== undefined){
let data1 = data.result;
if(typeof data1 === "string"){
if(!mappingPattern0.test(data1)){
const err3 = {instancePath:instancePath+"/result",schemaPath:"#/$defs/path/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"+"\""};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/result",schemaPath:"#/$defs/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.value !== undefined){
let data2 = data.value;
if(((typeof data2 !== "string") && (!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2))))) && (data2 !== null)){
const err5 = {instancePath:instancePath+"/value",schemaPath:"#/properties/value/type",keyword:"type",params:{type: mappingSchema4.properties.value.type},message:"must be string,integer,null"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.hash !== undefined){
let data3 = data.hash;
if(typeof data3 === "string"){
if(mappingFunc0(data3) < 1){
const err6 = {instancePath:instancePath+"/hash",schemaPath:"#/properties/hash/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/hash",schemaPath:"#/properties/hash/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data["url-part"] !== undefined){
let data4 = data["url-part"];
if(!((((data4 === "owner") || (data4 === "repo")) || (data4 === "number")) || (data4 === "comment_id"))){
const err8 = {instancePath:instancePath+"/url-part",schemaPath:"#/properties/url-part/enum",keyword:"enum",params:{allowedValues: mappingSchema4.properties["url-part"].enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data["cli-option"] !== undefined){
let data5 = data["cli-option"];
if(typeof data5 === "string"){
if(!mappingPattern5.test(data5)){
const err9 = {instancePath:instancePath+"/cli-option",schemaPath:"#/properties/cli-option/pattern",keyword:"pattern",params:{pattern: "^--?[A-Za-z0-9][A-Za-z0-9-]*$"},message:"must match pattern \""+"^--?[A-Za-z0-9][A-Za-z0-9-]*$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/cli-option",schemaPath:"#/properties/cli-option/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
mappingValidate2.errors = vErrors;
return errors === 0;
}


function mappingValidate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.tool === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "tool"},message:"must have required property '"+"tool"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.class === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "class"},message:"must have required property '"+"class"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.verb === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "verb"},message:"must have required property '"+"verb"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.target === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "target"},message:"must have required property '"+"target"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 in data){
if(!((((((((key0 === "tool") || (key0 === "server")) || (key0 === "class")) || (key0 === "verb")) || (key0 === "provider")) || (key0 === "when")) || (key0 === "failed")) || (key0 === "target"))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.tool !== undefined){
let data0 = data.tool;
if(typeof data0 === "string"){
if(mappingFunc0(data0) > 1024){
const err5 = {instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/maxLength",keyword:"maxLength",params:{limit: 1024},message:"must NOT have more than 1024 characters"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(mappingFunc0(data0) < 1){
const err6 = {instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.server !== undefined){
let data1 = data.server;
if(typeof data1 === "string"){
if(mappingFunc0(data1) < 1){
const err8 = {instancePath:instancePath+"/server",schemaPath:"#/properties/server/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/server",schemaPath:"#/properties/server/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.class !== undefined){
let data2 = data.class;
if(typeof data2 === "string"){
if(mappingFunc0(data2) < 1){
const err10 = {instancePath:instancePath+"/class",schemaPath:"#/properties/class/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/class",schemaPath:"#/properties/class/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.verb !== undefined){
let data3 = data.verb;
if(typeof data3 === "string"){
if(mappingFunc0(data3) < 1){
const err12 = {instancePath:instancePath+"/verb",schemaPath:"#/properties/verb/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/verb",schemaPath:"#/properties/verb/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.provider !== undefined){
let data4 = data.provider;
if(typeof data4 === "string"){
if(mappingFunc0(data4) < 1){
const err14 = {instancePath:instancePath+"/provider",schemaPath:"#/properties/provider/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/provider",schemaPath:"#/properties/provider/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.when !== undefined){
let data5 = data.when;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.arg === undefined){
const err16 = {instancePath:instancePath+"/when",schemaPath:"#/properties/when/required",keyword:"required",params:{missingProperty: "arg"},message:"must have required property '"+"arg"+"'"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
for(const key1 in data5){
if(!((((key1 === "arg") || (key1 === "prefix")) || (key1 === "equals")) || (key1 === "unless"))){
const err17 = {instancePath:instancePath+"/when",schemaPath:"#/properties/when/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data5.arg !== undefined){
let data6 = data5.arg;
if(typeof data6 === "string"){
if(!mappingPattern0.test(data6)){
const err18 = {instancePath:instancePath+"/when/arg",schemaPath:"#/$defs/path/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"+"\""};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/when/arg",schemaPath:"#/$defs/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data5.prefix !== undefined){
let data7 = data5.prefix;
if(typeof data7 === "string"){
if(mappingFunc0(data7) < 1){
const err20 = {instancePath:instancePath+"/when/prefix",schemaPath:"#/properties/when/properties/prefix/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
else {
const err21 = {instancePath:instancePath+"/when/prefix",schemaPath:"#/properties/when/properties/prefix/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data5.equals !== undefined){
if(typeof data5.equals !== "string"){
const err22 = {instancePath:instancePath+"/when/equals",schemaPath:"#/properties/when/properties/equals/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data5.unless !== undefined){
let data9 = data5.unless;
if(Array.isArray(data9)){
if(data9.length < 1){
const err23 = {instancePath:instancePath+"/when/unless",schemaPath:"#/properties/when/properties/unless/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
const len0 = data9.length;
for(let i0=0; i0<len0; i0++){
let data10 = data9[i0];
if(typeof data10 === "string"){
if(!mappingPattern1.test(data10)){
const err24 = {instancePath:instancePath+"/when/unless/" + i0,schemaPath:"#/properties/when/properties/unless/items/pattern",keyword:"pattern",params:{pattern: "^--[A-Za-z0-9][A-Za-z0-9-]*$"},message:"must match pattern \""+"^--[A-Za-z0-9][A-Za-z0-9-]*$"+"\""};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/when/unless/" + i0,schemaPath:"#/properties/when/properties/unless/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
let i1 = data9.length;
let j0;
if(i1 > 1){
const indices0 = {};
for(;i1--;){
let item0 = data9[i1];
if(typeof item0 !== "string"){
continue;
}
if(typeof indices0[item0] == "number"){
j0 = indices0[item0];
const err26 = {instancePath:instancePath+"/when/unless",schemaPath:"#/properties/when/properties/unless/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
break;
}
indices0[item0] = i1;
}
}
}
else {
const err27 = {instancePath:instancePath+"/when/unless",schemaPath:"#/properties/when/properties/unless/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/when",schemaPath:"#/properties/when/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.failed !== undefined){
let data11 = data.failed;
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
if(data11.result === undefined){
const err29 = {instancePath:instancePath+"/failed",schemaPath:"#/properties/failed/required",keyword:"required",params:{missingProperty: "result"},message:"must have required property '"+"result"+"'"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
for(const key2 in data11){
if(!(key2 === "result")){
const err30 = {instancePath:instancePath+"/failed",schemaPath:"#/properties/failed/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data11.result !== undefined){
let data12 = data11.result;
if(typeof data12 === "string"){
if(!mappingPattern0.test(data12)){
const err31 = {instancePath:instancePath+"/failed/result",schemaPath:"#/$defs/path/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"+"\""};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
else {
const err32 = {instancePath:instancePath+"/failed/result",schemaPath:"#/$defs/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
}
else {
const err33 = {instancePath:instancePath+"/failed",schemaPath:"#/properties/failed/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data.target !== undefined){
let data13 = data.target;
if(data13 && typeof data13 == "object" && !Array.isArray(data13)){
if(Object.keys(data13).length < 1){
const err34 = {instancePath:instancePath+"/target",schemaPath:"#/properties/target/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
for(const key3 in data13){
if(!(mappingValidate2(data13[key3], {instancePath:instancePath+"/target/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data13,parentDataProperty:key3,rootData}))){
vErrors = vErrors === null ? mappingValidate2.errors : vErrors.concat(mappingValidate2.errors);
errors = vErrors.length;
}
}
}
else {
const err35 = {instancePath:instancePath+"/target",schemaPath:"#/properties/target/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
}
else {
const err36 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
mappingValidate1.errors = vErrors;
return errors === 0;
}


function mappingValidate0(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://github.com/receipt-gate/receipt-gate/blob/main/schemas/tool-mapping.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.version === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.tools === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "tools"},message:"must have required property '"+"tools"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "version") || (key0 === "tools"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.version !== undefined){
if(1 !== data.version){
const err3 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.tools !== undefined){
let data1 = data.tools;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
if(!(mappingValidate1(data1[i0], {instancePath:instancePath+"/tools/" + i0,parentData:data1,parentDataProperty:i0,rootData}))){
vErrors = vErrors === null ? mappingValidate1.errors : vErrors.concat(mappingValidate1.errors);
errors = vErrors.length;
}
}
}
else {
const err4 = {instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
mappingValidate0.errors = vErrors;
return errors === 0;
}

const mappingSchema = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/tool-mapping.schema.json","title":"receipt-gate mapping file (import-run --map)","description":"Which of a producer's tools write, to which action class and verb, and where each bound target field comes from (docs/producers.md). YAML 1.2, one document, read like the policy file; this schema is its shape (what the importer checks besides: known classes and verbs, exactly the class's bound fields, hashed fields with the class's domain, one source per field).","type":"object","additionalProperties":false,"required":["version","tools"],"properties":{"version":{"description":"The mapping file's version: 1.","const":1},"tools":{"description":"Tool rules, first match wins in file order: a call no rule matches asserts nothing (it is imported and counted, never dropped).","type":"array","items":{"$ref":"#/$defs/tool"}}},"$defs":{"path":{"description":"A dotted path into the arguments or the result (owner, repository.owner, items.0.id): letters, digits, _ and -.","type":"string","pattern":"^[A-Za-z0-9_-]{1,128}(\\.[A-Za-z0-9_-]{1,128}){0,15}$"},"tool":{"type":"object","additionalProperties":false,"required":["tool","class","verb","target"],"properties":{"tool":{"description":"The tool's name as the producer writes it (gen_ai.tool.name, a tool_result event's tool_name, an MCP request's params.name): exact, or a glob where * matches any run of characters.","type":"string","minLength":1,"maxLength":1024},"server":{"description":"The MCP server the tool is called on (a tool_result event's mcp_server_name, an MCP log's server_id), exact; absent: any server or none.","type":"string","minLength":1},"class":{"description":"The action class (a row of the class table).","type":"string","minLength":1},"verb":{"description":"One of the class's verbs.","type":"string","minLength":1},"provider":{"description":"Which provider's records may bind the call: the class's provider in the class table (the default), and no other.","type":"string","minLength":1},"when":{"description":"A guard: the rule applies only when this argument has this prefix or equals this value (a generic tool such as a CLI runner).","type":"object","additionalProperties":false,"required":["arg"],"properties":{"arg":{"$ref":"#/$defs/path"},"prefix":{"type":"string","minLength":1},"equals":{"type":"string"},"unless":{"description":"Options that make the rule's constants unknowable (a --profile naming another account's credentials): a command that gives one, whole, as --option=value or abbreviated, asserts the write with no subject.","type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^--[A-Za-z0-9][A-Za-z0-9-]*$"}}}},"failed":{"description":"When the source says the call succeeded but its result says the provider refused it (a server that answers a refused operation as a tool result, such as the AWS API MCP server's `0.response.error_code`): the call failed, and asserts nothing, when the result gives this member (its value, structuredContent or a JSON text content; through lists of one element only) as true or a non-empty string, and no place gives it otherwise. Read once the rule's guard has chosen it; a result not captured is not read.","type":"object","additionalProperties":false,"required":["result"],"properties":{"result":{"$ref":"#/$defs/path"}}},"target":{"description":"Each bound field of the class, and where its value comes from.","type":"object","minProperties":1,"additionalProperties":{"$ref":"#/$defs/source"}}}},"source":{"description":"Exactly one of arg (from the call's arguments), result (from the tool's result, JSON) or value (a constant); hash names the class's domain of a hashed field; url-part takes a part of a GitHub URL, cli-option an option's value from a command line.","type":"object","additionalProperties":false,"properties":{"arg":{"$ref":"#/$defs/path"},"result":{"$ref":"#/$defs/path"},"value":{"description":"A constant: a string, a whole number, or null (a field the class leaves empty, as a cluster-wide binding's namespace).","type":["string","integer","null"]},"hash":{"description":"The hash domain of a hashed field (the class table's): the raw value is hashed as the target hash says.","type":"string","minLength":1},"url-part":{"description":"The value is a GitHub URL (https://HOST/OWNER/REPO/issues/N, …/pull/N, …#issuecomment-M: what GitHub's MCP server returns for a write): take this part of it.","enum":["owner","repo","number","comment_id"]},"cli-option":{"description":"The value is a command line (an AWS CLI or kubectl command a generic tool ran): take this option's value (`--user-name NAME` or `--user-name=NAME`; quotes as a shell reads them).","type":"string","pattern":"^--?[A-Za-z0-9][A-Za-z0-9-]*$"}}}}};

;// CONCATENATED MODULE: ./src/read/shapes.ts

function describe(errors) {
    const e = errors?.[0];
    if (!e)
        return 'does not match its schema';
    const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'the object';
    if (e.keyword === 'const' || e.keyword === 'enum') {
        return `${where} must be ${JSON.stringify(e.params.allowedValue ?? e.params.allowedValues)}`;
    }
    return `${where} ${e.message ?? 'is invalid'}`;
}
const checker = (fn) => (value) => fn(value) ? { ok: true } : { ok: false, reason: describe(fn.errors) };
const checkDecision = checker(decision);
const checkRecord = checker(record);

;// CONCATENATED MODULE: ./src/read/server-log.ts
/**
 * Runs as Assay's server writes them (docs/assay-server-logs.md, semantics §1): the stderr of
 * `assay-mcp-server`, one tracing JSON line per event. Each `tool_decision` event contributes the
 * decision in its `fields.decision` string, in line order, located at the line and the column of
 * that value. Other events, text lines and JSON that is not a tracing event are skipped and
 * counted; everything the doc lists as an error is one. A call started with no decision in its
 * session, a tools/call on JSON-RPC lines (stdout mixed in) past the calls its tracing events know,
 * or an event tracing could not format, is `run_incomplete`: a side effect may have happened that no
 * decision records. A log is one run, which may hold several server sessions (a restart, or stderr
 * appended with 2>>): each decision carries its session's number, and a read of one session never
 * confirms a write of another (semantics §5, core/ladder.ts).
 */








/** The column (1-based) of the `decision` member's value on a raw line (after the `:` and any whitespace), or 1 when it cannot be found. */
function decisionColumn(text, start, end) {
    const key = /"decision"[ \t]*:[ \t]*/g;
    key.lastIndex = start;
    for (let m = key.exec(text); m !== null && m.index < end; m = key.exec(text)) {
        if (text.charCodeAt(m.index - 1) !== 0x5c)
            return m.index + m[0].length - start + 1;
    }
    return 1;
}
/** Whether a line of text mentions tool_decision in any case (the whole line is searched). */
const mentionsDecision = (line) => /tool_decision/i.test(line);
/**
 * A JSON line behind a character the server never writes before one: a byte-order mark (a file
 * saved with one, then appended), a NUL, another control character (not ESC: an ANSI banner), a
 * no-break space, each perhaps among spaces and tabs. Read as text, it was skipped: a second
 * server_start so hidden merged two processes' sessions, and tools/call lines so hidden passed
 * undecided (a red team). Plain spaces and tabs alone are `logLines`' (an indented JSON-RPC line).
 */
const HIDDEN_JSON = /^[ \t]*[\uFEFF\u0000-\u0008\u000B-\u001A\u001C-\u001F\u00A0\u2000-\u200B\u3000][\s\uFEFF\u0000-\u001A\u001C-\u001F\u00A0\u2000-\u200B\u3000]*[{[]/;
const newSession = (opened = null) => ({
    started: new Map(),
    decided: new Set(),
    requests: new Set(),
    calls: new Map(),
    opened,
});
/** A JSON-RPC id as a key (null: none, or not a string or number: such a message pairs with nothing). */
function rpcKey(id) {
    return typeof id === 'string' ? `s:${id}` : typeof id === 'number' ? `n:${id}` : null;
}
/** An answer to tools/call by its own shape: a result with a `content` list (MCP's CallToolResult). */
const callResult = (value) => (0,core_json/* isObject */.Gv)(value['result']) && Array.isArray(value['result']['content']);
/** A tracing line's timestamp as given, and as an instant or why it is none (the server's word of when its event happened). */
function stampOf(line) {
    const text = typeof line['timestamp'] === 'string' ? line['timestamp'] : '';
    return { text, time: (0,core_time/* parseRfc3339 */.TM)(text) };
}
/** Why a line's timestamp is no time, in words. */
const badStamp = (what, text, reason) => `${what}: the line's timestamp ${JSON.stringify((0,core_text/* quote */.hD)(text, 60))} ${reason}`;
/** One server log being read: server sessions (a server_start each), calls started and decided, decisions. */
class ServerLog {
    run;
    sink;
    limits;
    session = newSession();
    /** Whether a server_start line was seen (a capture of the server's stderr from its start has one). */
    started = false;
    /** Whether any tracing event other than server_start, or any JSON-RPC answer, was seen (a server that did start works). */
    worked = false;
    /** Whether a tools/call was seen on a JSON-RPC line (a call was made: the log is judged on it, never "never started"). */
    called = false;
    /** Whether a call's event came before any server_start (said once). */
    late = false;
    /** The session's initialized event: one per server process, so a second in one session is a second process. */
    initialized = null;
    /** The server's own word that it failed to start (a startup_failure line), or the first plain-text line after server_start. */
    failure = null;
    firstText = null;
    constructor(run, sink, limits) {
        this.run = run;
        this.sink = sink;
        this.limits = limits;
    }
    /** A tracing line (classified as one), its location and the raw text it came from. */
    event(line, loc, text, start, end) {
        const fields = line['fields'];
        const event = fields['event'];
        const rid = typeof fields['rid'] === 'string' ? fields['rid'] : null;
        // Whatever its event, a line that carries a decision is read as one or is an error: a server_start
        // or tool_call_start line holding a fields.decision is never skipped as what its event says.
        if (event !== 'tool_decision' && carriesDecision(line)) {
            const what = (0,core_json/* hasOwn */.$3)(fields, 'decision')
                ? `a fields.decision member with fields.event ${JSON.stringify(typeof event === 'string' ? (0,core_text/* quote */.hD)(event, 60) : (event ?? null))}`
                : `fields.event ${JSON.stringify((0,core_text/* quote */.hD)(String(event), 60))}`;
            this.sink.error(loc, `${what}: a decision that is not exactly a tool_decision event is never skipped`);
            return;
        }
        if (event === 'server_start') {
            this.started = true;
            // A new server process: its decisions (and the surface lines after it) are of a session of their
            // own, and a read there confirms no write of another (§5: the log cannot show that two processes
            // served one agent run; Monday's and Wednesday's stderr appended with 2>>, a red team).
            this.run.session++;
            // Its time bounds when the session's calls began (a decision with no tool_call_start before it began no earlier).
            const stamp = stampOf(line);
            if (!stamp.time.ok)
                this.sink.error(loc, badStamp('server_start', stamp.text, stamp.time.reason));
            this.endSession(stamp.time.ok ? stamp.time.value : null);
            this.sink.skip(loc, 'tracing event server_start');
            return;
        }
        this.worked = true;
        // A call's event (any event naming a rid) before any server_start: the capture began after the server
        // did (stderr redirected late, or the head of the file cut off), so calls before it may be missing
        // (docs/assay-server-logs.md). Start-up chatter without a rid (a warning) may come first.
        if (!this.started && !this.late && (rid !== null || event === 'tool_call_start' || event === 'tool_decision')) {
            this.late = true;
            const what = typeof event === 'string' ? `a ${(0,core_text/* quote */.hD)(event, 60)} event` : 'an event';
            this.sink.error(loc, `${what}${rid === null ? '' : ` of rid ${JSON.stringify((0,core_text/* quote */.hD)(rid, 40))}`} before any server_start line: this capture began after the server started (stderr redirected late, or the file's head cut off), so calls before it may be missing; capture the server's stderr from its start`);
        }
        if (event === 'tool_call_start') {
            if (rid === null)
                this.sink.error(loc, 'a tool_call_start event without a string fields.rid (its call cannot be paired with a decision)');
            else if (this.session.started.has(rid))
                // Two calls started under one rid (before or after its decision): one decision can answer only one of them.
                this.sink.incomplete(loc, `a second tool_call_start for ${JSON.stringify((0,core_text/* quote */.hD)(rid, 60))} in one server session: one decision answers only one of the two calls (a side effect may have gone unrecorded)`);
            else {
                // When the call's request began (§5: a read begun before a write was decided confirms nothing of it).
                const stamp = stampOf(line);
                if (!stamp.time.ok)
                    this.sink.error(loc, badStamp(`tool_call_start ${rid}`, stamp.text, stamp.time.reason));
                this.session.started.set(rid, { loc, begun: stamp.time.ok ? stamp.time.value : null });
            }
            this.sink.skip(loc, 'tracing event tool_call_start');
            return;
        }
        if (event === 'initialized') {
            // Two processes writing one log at once (2>> from both): their lines interleave after their two
            // server_start lines, and a read of one would confirm a write of the other (a red team). Which
            // line is whose cannot be told: an error, never a guess.
            if (this.initialized !== null)
                this.sink.error(loc, `a second initialized event in one server session (the first at line ${this.initialized.line}): two server processes wrote this log at once, and their lines cannot be told apart; commit each server process's stderr as its own .log`);
            else
                this.initialized = loc;
        }
        if (event !== 'tool_decision') {
            this.sink.skip(loc, typeof event === 'string' ? `tracing event ${(0,core_text/* quote */.hD)(event, 60)}` : 'tracing message');
            return;
        }
        const at = { file: loc.file, line: loc.line, column: decisionColumn(text, start, end) };
        const result = this.decision(rid, fields['decision']);
        if (!result.ok) {
            this.sink.error(at, result.reason);
            return;
        }
        if (!this.run.admit(1, () => at, (l, message) => this.sink.error(l, message)))
            return;
        const index = this.run.seen++;
        // The tracing line's timestamp is when the decision was made (docs/coverage.md §2).
        const stamp = stampOf(line);
        const time = stamp.time;
        if (!time.ok) {
            this.sink.error(at, badStamp(`tool_decision ${rid}`, stamp.text, time.reason));
            return;
        }
        // When its request began: its tool_call_start line; without one before it, its session's start (the earliest it can have).
        const call = rid === null ? undefined : this.session.started.get(rid);
        const begun = call ? call.begun : this.session.opened;
        const shape = checkDecision(result.value);
        // A subject number JSON.parse rounded could bind another target's record (at the decision's value: it is text inside the line).
        const unsafe = shape.ok ? unsafeSubjectNumber(result.value) : null;
        if (!shape.ok)
            this.sink.error(at, `decision ${index} (tool_decision ${rid}): ${shape.reason}`);
        else if (unsafe !== null)
            this.sink.error(at, `decision ${index} (tool_decision ${rid}): ${unsafe.reason}`);
        else
            this.run.decisions.push(prepareDecision(at, index, result.value, time.value, begun, this.run.session));
    }
    /** The decision a tool_decision event carries, or why it carries none (each an error, never a skip). */
    decision(rid, raw) {
        if (rid === null)
            return { ok: false, reason: 'a tool_decision event without a string fields.rid' };
        if (this.session.decided.has(rid))
            return {
                ok: false,
                reason: `a second tool_decision for rid ${JSON.stringify((0,core_text/* quote */.hD)(rid, 40))} in one server session: one call, one decision`,
            };
        this.session.decided.add(rid);
        if (typeof raw !== 'string')
            return { ok: false, reason: `tool_decision ${rid}: fields.decision is ${raw === undefined ? 'missing' : 'not a string'}` };
        if (raw.trim() === '')
            return { ok: false, reason: `tool_decision ${rid}: fields.decision is empty` };
        const parsed = (0,strict/* parseStrict */.z3)(raw, { maxDepth: this.limits.maxDepth, maxKeys: this.limits.maxKeys });
        if (!parsed.ok)
            return {
                ok: false,
                reason: `tool_decision ${rid}: fields.decision is not strict JSON (at character ${parsed.reason.offset + 1} of it): ${parsed.reason.message}`,
            };
        const json = parsed.value.json;
        if (!(0,core_json/* isObject */.Gv)(json))
            return { ok: false, reason: `tool_decision ${rid}: fields.decision is not a JSON object` };
        return { ok: true, value: json };
    }
    /** A text line (not JSON; the whole line): skipped, unless it is a near miss of a decision or a lost event. */
    text(line, loc) {
        if (line.startsWith('Unable to format the following event')) {
            this.sink.incomplete(loc, 'tracing could not format an event here: it may have been a tool_decision, so the log may not hold every decision of the run');
        }
        else if (HIDDEN_JSON.test(line)) {
            const hidden = /[^ \t]/.exec(line)?.[0] ?? '';
            this.sink.error(loc, `a JSON line behind U+${(hidden.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} (a byte-order mark or a control character the server never writes): it may hold a server event or a JSON-RPC message, and is never skipped; save the log without it`);
        }
        else if (mentionsDecision(line)) {
            this.sink.error(loc, 'a text line that mentions tool_decision (a decision that is not a tracing JSON line is never skipped)');
        }
        else {
            if (this.started && this.firstText === null && line.trim() !== '' && line.charCodeAt(0) !== 0x1b)
                this.firstText = { loc, text: line };
            this.sink.skip(loc, line.charCodeAt(0) === 0x1b ? 'text line (ANSI banner)' : 'text line');
        }
    }
    /** An element of a JSON-RPC batch line that is no object (never a message): skipped, unless it mentions tool_decision, as a text line would be. */
    element(raw, loc) {
        if (mentionsDecision(raw))
            this.sink.error(loc, 'an element of a JSON-RPC batch line that mentions tool_decision (a decision that is not a tracing JSON line is never skipped)');
        else
            this.sink.skip(loc, 'JSON-RPC batch element that is not an object');
    }
    /** A JSON object on a log line that is not a tracing event (stdout mixed in, a startup_failure line). */
    other(loc, name, value = null) {
        if (value !== null && typeof value['jsonrpc'] === 'string')
            this.rpc(value, loc);
        if (value !== null && value['event'] === 'startup_failure' && this.failure === null) {
            const code = typeof value['reason_code'] === 'string' ? (0,core_text/* quote */.hD)(value['reason_code'], 80) : null;
            const next = typeof value['next_step'] === 'string' ? (0,core_text/* quote */.hD)(value['next_step'], 300) : null;
            const text = `${code ? `reason_code ${code}` : 'no reason_code'}${next ? `; next step: ${next}` : ''}`;
            this.failure = { loc, text, line: true };
            return;
        }
        this.sink.skip(loc, name);
    }
    /**
     * A JSON-RPC message (stdout mixed in with 2>&1, or stdin's requests beside it): an answer shows the
     * server started and works (text after it is never "a server that never started": a red team's
     * false green); a tools/call request or answer is a call, which a tool_decision must record.
     */
    rpc(value, loc) {
        const key = rpcKey(value['id']);
        const shown = (0,core_text/* quote */.hD)(JSON.stringify(value['id'] ?? null) ?? 'null', 60);
        const request = typeof value['method'] === 'string';
        if (!request && ((0,core_json/* hasOwn */.$3)(value, 'result') || (0,core_json/* hasOwn */.$3)(value, 'error')))
            this.worked = true;
        let line = null;
        if (request && value['method'] === 'tools/call') {
            line = 'request';
            if (key !== null)
                this.session.requests.add(key);
        }
        else if (!request && (callResult(value) || (key !== null && this.session.requests.has(key))))
            line = 'answer';
        if (line === null)
            return;
        this.called = true;
        // A message without an id pairs with nothing: it is a call of its own.
        const id = key ?? `#${this.session.calls.size}`;
        if (!this.session.calls.has(id))
            this.session.calls.set(id, { loc, id: shown, line });
    }
    /**
     * Why the server never started (docs/assay-server-logs.md "A server that never started"): its
     * startup_failure line, or a plain-text line after a server_start that no other event follows (an
     * invalid --policy-root); null when it started and worked (any event but server_start, any
     * JSON-RPC answer), when a tools/call was made (the log is judged on its calls), or when this is no
     * capture of it at all.
     */
    notStarted() {
        if (this.worked || this.called)
            return null;
        if (this.failure)
            return this.failure;
        if (this.started && !this.worked && this.firstText)
            return { loc: this.firstText.loc, text: (0,core_text/* quote */.hD)(this.firstText.text.trim(), 300) };
        return null;
    }
    endSession(opened = null) {
        this.initialized = null;
        for (const [rid, { loc }] of this.session.started) {
            if (this.session.decided.has(rid))
                continue;
            this.sink.incomplete(loc, `rid ${JSON.stringify((0,core_text/* quote */.hD)(rid, 40))} started a tool call with no tool_decision in its session (the process was killed mid-call, or decisions were filtered out, e.g. ASSAY_LOG=warn): a side effect may have happened that no decision records`);
        }
        // The JSON-RPC lines' calls against the calls tracing knows of (started or decided): a JSON-RPC id is
        // no key to a decision's rid (its rpc_id is Rust's Debug text), so they are counted. The calls past
        // the count are those without a decision; a start without one is said above.
        const known = new Set([...this.session.started.keys(), ...this.session.decided]).size;
        const calls = [...this.session.calls.values()];
        for (const call of calls.slice(known)) {
            this.sink.incomplete(call.loc, `a tools/call ${call.line} on a JSON-RPC line (id ${call.id}) with no tool_decision in its server session: ${calls.length} tools/call on its JSON-RPC lines, ${known} call(s) in its tracing events (decisions filtered out, e.g. ASSAY_LOG=warn, or the process killed): a call happened that no decision records, so a side effect may have gone unrecorded`);
        }
        this.session = newSession(opened);
    }
    /** The end of the file: calls still without a decision are incomplete. */
    close() {
        this.endSession();
        // A server that started and worked is judged on its calls, whatever else the capture holds (a
        // failed restart appended to the same file): its startup_failure line is counted, never the
        // reason to drop the calls.
        if (this.worked && this.failure?.line)
            this.sink.skip(this.failure.loc, 'startup_failure line (the server also started and worked)');
    }
}

// EXTERNAL MODULE: ./src/read/base64.ts
var base64 = __nccwpck_require__(7753);
;// CONCATENATED MODULE: ./src/read/signature.ts
/**
 * Signed audit records (docs/records-provenance.md): the `signature` member's shape, byte for byte,
 * read as a pure reader (no keys here). The signed payload P is the UTF-8 of JCS(the record without
 * its `signature` member), so every other member is covered; the Ed25519 signature is over the DSSE
 * v1 pre-authentication encoding PAE(payload_type, P). Checking a signature is the trust edge's
 * (src/trust/); making one is the tools' (src/tools/signing.ts).
 */




const PAYLOAD_TYPE = 'application/vnd.assay.provider-audit-record+json;v=0';
/** A coverage statement's (docs/coverage.md §5): signed with the same key and envelope, under its own type. */
const COVERAGE_PAYLOAD_TYPE = 'application/vnd.receipt-gate.audit-coverage+json;v=1';
const signature_MEMBERS = ['version', 'algorithm', 'payload_type', 'signed_payload_digest', 'key_id', 'signature', 'signed_at'];
/** Whether a `signed_at` value is an RFC 3339 UTC time (…T…Z, at most nanoseconds). */
const isSignedAt = (v) => /^[^tz]*T[^z]*Z$/.test(v) && !/\.\d{10,}/.test(v) && (0,core_time/* parseRfc3339 */.TM)(v, { utc: true }).ok;
/** The `signature` member's shape: the seven members with their types and values, nothing else; `type` the payload type of the entry it signs. */
function readSignatureMember(value, type = PAYLOAD_TYPE) {
    if (!(0,core_json/* isObject */.Gv)(value))
        return { ok: false, reason: 'signature is not an object' };
    for (const k of Object.keys(value))
        if (!signature_MEMBERS.includes(k))
            return { ok: false, reason: `signature has an unknown member ${JSON.stringify(k.slice(0, 60))}` };
    for (const k of signature_MEMBERS)
        if (!(0,core_json/* hasOwn */.$3)(value, k))
            return { ok: false, reason: `signature.${k} is missing` };
    if (value['version'] !== 1)
        return { ok: false, reason: 'signature.version must be 1' };
    if (value['algorithm'] !== 'ed25519')
        return { ok: false, reason: 'signature.algorithm must be "ed25519"' };
    if (value['payload_type'] !== type)
        return { ok: false, reason: `signature.payload_type must be "${type}"` };
    for (const k of ['signed_payload_digest', 'key_id']) {
        const given = value[k];
        if (typeof given !== 'string' || !binding/* DIGEST_PATTERN */.WA.test(given))
            return { ok: false, reason: `signature.${k} must be sha256:<64 lowercase hex>` };
    }
    const sig = value['signature'];
    if (typeof sig !== 'string' || sig.length !== 88 || (0,base64/* strictBase64 */.P)(sig)?.length !== 64) {
        return { ok: false, reason: 'signature.signature must be the base64 of a 64-byte Ed25519 signature' };
    }
    const at = value['signed_at'];
    if (typeof at !== 'string' || !isSignedAt(at))
        return { ok: false, reason: 'signature.signed_at must be an RFC 3339 UTC time (…Z)' };
    const member = {
        version: 1,
        algorithm: 'ed25519',
        payload_type: type,
        signed_payload_digest: value['signed_payload_digest'],
        key_id: value['key_id'],
        signature: sig,
        signed_at: at,
    };
    return { ok: true, value: member };
}
/**
 * P: the canonical text of the record without its `signature` member (`subject`: its subject's JCS
 * text when already made, for its binding). Members are read as entries (never assigned or spread),
 * so a `__proto__` member stays an ordinary member.
 */
const payloadOf = (record, subject) => (0,binding/* jcsWithout */.X9)(record, 'signature', subject === undefined ? undefined : { key: 'subject', text: subject });
/** PAE(type, P) for a payload held as text (a record's P, as its reader made it): one string, encoded once. */
const paeText = (type, body) => Buffer.from(`DSSEv1 ${Buffer.byteLength(type, 'utf8')} ${type} ${Buffer.byteLength(body, 'utf8')} ${body}`, 'utf8');
/** DSSE v1: "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in bytes. */
function pae(type, body) {
    const bytes = Buffer.from(type, 'utf8');
    return Buffer.concat([Buffer.from(`DSSEv1 ${bytes.length} `, 'utf8'), bytes, Buffer.from(` ${body.length} `, 'utf8'), body]);
}

;// CONCATENATED MODULE: ./src/read/surface.ts
/**
 * The decisions of one decision surface, for every reader that meets one (a .json file, an NDJSON
 * line, an evidence event in a log or a bundle): the array check, the event-data schema rule, and
 * each decision's shape, location and index. Problems go to `fail`; valid decisions are prepared
 * (reduced to what verification reads) as they are read.
 */





/** A run's decisions as they are read: the valid ones, and how many were seen (valid or not). */
class RunDecisions {
    max;
    decisions = [];
    seen = 0;
    /** Past the limit: the run is rejected (one error said), and no further decision is read. */
    full = false;
    /**
     * The server session decisions are read in now (DecisionInput.session): a server log's reader
     * numbers its server_start lines here, so a surface line between them is of the session it sits
     * in; 0 for a run without sessions.
     */
    session = 0;
    /** @param max the most decisions one run may hold (ReadLimits.maxDecisions) */
    constructor(max) {
        this.max = max;
    }
    /** Room for `count` more decisions; past the limit, once, the located error that rejects the run. */
    admit(count, at, fail) {
        if (this.full)
            return false;
        if (this.seen + count <= this.max)
            return true;
        // One located error, and nothing more is prepared: memory stays bounded by the limit.
        this.full = true;
        fail(at(), `the run holds more than ${this.max} decisions (the limit per run); it is not read`);
        return false;
    }
}
/**
 * @param payload  the surface object (the document itself, or an event's `data`)
 * @param via      how the surface was named: its own `schema`, or an evidence event's `type`
 * @param locate   the location of decision j of this surface (null: the surface's own location), or
 *                 of the member at `path` in it where the reader can tell (else the decision's)
 * @param run      the run's decisions so far: valid ones are appended; every decision, valid or
 *                 not, takes the next index
 * @param time     the event's time, for a surface an evidence event carries (its decisions' time); null otherwise
 * @returns false when the surface itself is unusable (then nothing was appended)
 */
function readSurface(payload, via, locate, run, fail, time = null) {
    // Inside a surface event, data.schema must be exactly the surface's (semantics §1): absent is not it either.
    if (via === 'event' && payload['schema'] !== SURFACE_SCHEMA) {
        const found = JSON.stringify(typeof payload['schema'] === 'string' ? (0,core_text/* quote */.hD)(payload['schema'], 120) : payload['schema']);
        const version = typeof payload['schema'] === 'string' && payload['schema'].trim().toLowerCase().startsWith('assay.tool_decision_surface');
        fail(locate(null), payload['schema'] === undefined
            ? `event data has no schema: a surface event's data.schema must be ${SURFACE_SCHEMA}`
            : version
                ? `event data has schema ${found}: unsupported version (this gate reads ${SURFACE_SCHEMA})`
                : `event data has schema ${found}, expected ${SURFACE_SCHEMA}`);
        return false;
    }
    const list = payload['observed_tool_decisions'];
    if (!Array.isArray(list)) {
        fail(locate(null), via === 'event' ? `${SURFACE_SCHEMA} event data has no observed_tool_decisions array` : 'observed_tool_decisions is not an array');
        return false;
    }
    if (!run.admit(list.length, () => locate(Math.max(0, run.max - run.seen)), fail))
        return false;
    list.forEach((decision, j) => {
        const loc = locate(j);
        const index = run.seen++;
        const shape = checkDecision(decision);
        // A decision that breaks its shape rejects the run; the rest are still checked and reported.
        if (!shape.ok) {
            fail(loc, `decision ${index}: ${shape.reason}`);
            return;
        }
        // A subject number JSON.parse rounded could bind another target's record: the decision is refused at the number.
        const unsafe = unsafeSubjectNumber(decision);
        if (unsafe !== null)
            fail(locate(j, unsafe.path), `decision ${index}: ${unsafe.reason}`);
        else
            run.decisions.push(prepareDecision(loc, index, decision, time, null, run.session));
    });
    return true;
}

;// CONCATENATED MODULE: ./src/read/artifacts.ts
/**
 * Bytes of one run artifact or audit export → located decisions and records, plus findings.
 * Every document is strict JSON (see read/json/strict.ts); every decision and record keeps its line and
 * column. A run with any error contributes no calls (its sequence is what observed_confirmed reads,
 * so half a run is not a run); an audit export loses only the records that are broken.
 */

















const SURFACE_PATHS = [['observed_tool_decisions'], ['data', 'observed_tool_decisions']];
const SURFACE_KEY = { schema: (0,scanner/* pathKey */.Pn)(SURFACE_PATHS[0]), event: (0,scanner/* pathKey */.Pn)(SURFACE_PATHS[1]) };
const ROOT_KEY = (0,scanner/* pathKey */.Pn)([]);
/** Collects findings for one file, capped, and turns offsets into locations. */
class FileReport extends documents/* LocatingSink */.Bz {
    limits;
    errors = 0;
    suppressed = 0;
    skipped = new Map();
    firstSkip = null;
    constructor(file, limits) {
        super(file);
        this.limits = limits;
    }
    /** A server log shows a call with no decision, or a lost event (the run still counts, and fails). */
    incomplete(loc, message) {
        this.listed((0,core_findings/* finding */.gk)('run_incomplete', loc, message));
    }
    get skippedAny() {
        return this.firstSkip !== null;
    }
    notice(code, message) {
        this.findings.push((0,core_findings/* finding */.gk)(code, { file: this.file, line: 1, column: 1 }, message));
    }
    /** A capture of a server that never started (its startup_failure line, or its error after server_start). */
    notStarted(loc, message) {
        this.findings.push((0,core_findings/* finding */.gk)('run_not_started', loc, message));
    }
    get failed() {
        return this.errors > 0;
    }
    report(loc, message) {
        this.errors++;
        this.listed((0,core_findings/* finding */.gk)('invalid_artifact', loc, message));
    }
    /** Every finding of the file counts toward the per-file limit of listed findings; the rest are counted. */
    listed(finding) {
        if (this.findings.length >= this.limits.maxFindingsPerFile)
            this.suppressed++;
        else
            this.findings.push(finding);
    }
    skip(loc, name) {
        this.firstSkip ??= loc;
        this.skipped.set(name, (this.skipped.get(name) ?? 0) + 1);
    }
    /** Objects of the other role's kind (an audit record among the runs, a run among the exports): skipped, and counted. */
    strays = 0;
    stray(loc, name) {
        this.strays++;
        this.skip(loc, name);
    }
    close() {
        if (this.suppressed > 0) {
            this.findings.push((0,core_findings/* finding */.gk)(this.errors > 0 ? 'invalid_artifact' : 'run_incomplete', { file: this.file, line: 1, column: 1 }, `${this.suppressed} more problem(s) in this file not listed`));
        }
        if (this.firstSkip)
            this.findings.push(skippedFinding(this.firstSkip, this.skipped));
        return this.findings;
    }
}
/** A file decoded through the one pipeline (its text when first asked), its problems into `fr`. */
function fileSource(bytes, fr, limits) {
    const source = (0,documents/* decodeSource */.E4)(bytes, limits, fr);
    if (source)
        fr.lines = source.lines;
    return source;
}
/** An audit export's documents; only a .json file's root array offsets are wanted (its records). */
function* auditDocuments(bytes, format, fr, limits) {
    const source = fileSource(bytes, fr, limits);
    if (source === null)
        return;
    yield* (0,documents/* documents */.DB)(source, format, { limits, collect: format === 'json' ? [[]] : [] }, fr);
}
/** A signed entry's signature member and payload P (kept when signed, or when asked); null after an error reported at `loc`. */
function signedParts(payload, what, type, loc, fr, options, subject) {
    const signed = (0,core_json/* hasOwn */.$3)(payload, 'signature');
    const signature = signed ? readSignatureMember(payload['signature'], type) : null;
    // A malformed signature is garbage, never ignored: the entry is invalid, keys or not.
    if (signature && !signature.ok) {
        fr.error(loc, `${what}: ${signature.reason}`);
        return null;
    }
    if (!signed && !options.payloads)
        return { signature: null, payload: undefined };
    const canonical = payloadOf(payload, subject);
    if (!canonical.ok) {
        fr.error(loc, `${what}: cannot be canonicalized (${canonical.reason})`);
        return null;
    }
    return { signature: signature?.ok ? signature.value : null, payload: canonical.text };
}
/** A coverage statement among the records (docs/coverage.md): its shape, then its signature like a record's. */
function readStatement(kind, loc, fr, out, options) {
    const shape = checkStatement(kind.payload);
    if (!shape.ok) {
        fr.error(loc, shape.reason);
        return;
    }
    const parts = signedParts(kind.payload, 'coverage statement', COVERAGE_PAYLOAD_TYPE, loc, fr, options);
    if (!parts)
        return;
    const { signature, payload } = parts;
    out.push(signature
        ? { kind: 'statement', loc, statement: shape.value, signer: signature.key_id, signature, payload }
        : { kind: 'statement', loc, statement: shape.value, signer: null, payload });
}
function readRecord(kind, loc, fr, out, options) {
    const shape = checkRecord(kind.payload);
    if (!shape.ok) {
        fr.error(loc, `audit record: ${shape.reason}`);
        return;
    }
    // Keep only what verification reads (never a spread of the parsed object).
    // The shape check above makes every member below what AuditRecord says it is.
    const parsed = kind.payload;
    const record = {
        schema: RECORD_SCHEMA,
        provider: parsed['provider'],
        record_id: parsed['record_id'],
        subject: parsed['subject'],
        binding_digest: parsed['binding_digest'],
    };
    // The binding is recomputed here, on the reading thread, from the subject as committed (the core
    // compares it); the subject's canonical text is made once, for the binding and the signed payload.
    const subject = (0,binding/* subjectCanonical */.fC)(record.subject);
    const recomputed = subject.ok ? { ok: true, digest: (0,binding/* sha256Digest */.sI)(subject.text) } : subject;
    const parts = signedParts(kind.payload, 'audit record', PAYLOAD_TYPE, loc, fr, options, subject.ok ? subject.text : undefined);
    if (!parts)
        return;
    const { signature, payload } = parts;
    const input = signature
        ? { kind: 'record', loc, record, recomputed, signer: signature.key_id, signature, payload }
        : { kind: 'record', loc, record, recomputed, signer: null, payload };
    out.push(input);
}
/** The end of the line that starts at `start` (its "\n", or the end of the text). */
const lineEnd = (text, start) => {
    const n = text.indexOf('\n', start);
    return n < 0 ? text.length : n;
};
/**
 * The run an evidence event's CloudEvents `id` names: `<run>:<n>`, a run id with no `:` and a
 * sequence number, as a bundle's events must be written (evidence-bundle.md: `run_id + ":" +
 * assayseq`, the run id holding no `:`) and as import-run and upstream's proxy write them
 * (`run_onboarding:0`). Any other id (`1`, a uuid, a urn) names no run.
 */
const RUN_IN_ID = /^([^:]+):(?:0|[1-9][0-9]*)$/;
/** The run an event names by its id, with the id; null for an object that is no evidence event (`type` and `data`) or an id of another shape. */
function runInId(value) {
    const id = value['id'];
    if (typeof id !== 'string' || typeof value['type'] !== 'string' || !(0,core_json/* hasOwn */.$3)(value, 'data'))
        return null;
    const run = RUN_IN_ID.exec(id)?.[1];
    return run === undefined ? null : { run, id };
}
/** A run's name as a message says it, and how the event named it. */
const runText = (run) => `run ${JSON.stringify((0,core_text/* quote */.hD)(run.id, 80))} (${run.by === null ? 'assayrunid' : `its id ${JSON.stringify((0,core_text/* quote */.hD)(run.by, 80))}`})`;
/**
 * The run every event of a run file names: one. An event names its run by `assayrunid` (as
 * evidence-bundle.md writes it) or, without one, by its id's `<run>:` (`runInId`). Two runs
 * concatenated into one file would be read as one run, and a read of one would confirm a write of
 * the other (§5: the same run); a red team's Monday and Wednesday runs, named only by their ids
 * (`run_monday:0`, `run_wednesday:0`), were so. The first event naming another run is an error, as is
 * an event whose assayrunid and id name two runs (once per file).
 */
class RunIds {
    /** The first run named, `by` the id that named it (null: its assayrunid). */
    first = null;
    said = false;
    event(value, loc, fr) {
        if (this.said || !(0,core_json/* isObject */.Gv)(value))
            return;
        const inId = runInId(value);
        let named = inId && { id: inId.run, by: inId.id };
        if ((0,core_json/* hasOwn */.$3)(value, 'assayrunid')) {
            const id = value['assayrunid'];
            if (typeof id !== 'string') {
                this.said = true;
                fr.error(loc, `the event's assayrunid is ${id === null ? 'null' : typeof id}, not a string: a run file's events name their run by one string`);
                return;
            }
            if (inId && inId.run !== id) {
                this.said = true;
                fr.error(loc, `this event's assayrunid names run ${JSON.stringify((0,core_text/* quote */.hD)(id, 80))} and its id ${JSON.stringify((0,core_text/* quote */.hD)(inId.id, 80))} run ${JSON.stringify((0,core_text/* quote */.hD)(inId.run, 80))}: an event names one run (its id is <assayrunid>:<sequence number>); commit each run as a file of its own, its events naming it alike`);
                return;
            }
            named = { id, by: null };
        }
        if (named === null)
            return;
        if (this.first === null)
            this.first = { ...named, loc };
        else if (named.id !== this.first.id) {
            this.said = true;
            fr.error(loc, `this event names ${runText(named)}, the file's first event (line ${this.first.loc.line}) ${runText(this.first)}: a run file holds one run (of two runs in one file, a read of one would confirm a write of the other); commit each run as a file of its own`);
        }
    }
}
/**
 * A run artifact: a .json surface; .ndjson/.jsonl of surfaces, surface events or server tracing
 * lines; or a server log (.log). One run per file, decisions in line order.
 */
function readRunFile(file, bytes, format, limits = read_limits/* DEFAULT_LIMITS */.dR) {
    const fr = new FileReport(file, limits);
    const run = new RunDecisions(limits.maxDecisions);
    const log = new ServerLog(run, fr, limits);
    let surfaces = 0;
    let tracing = 0;
    let notStarted = null;
    const source = fileSource(bytes, fr, limits);
    // The whole text, where one is needed (a log, a problem to locate inside a decision): never for a good .json run.
    const text = () => source.text();
    const runIds = new RunIds();
    const surface = (doc, k) => {
        surfaces++;
        const offsets = doc.elements.get(SURFACE_KEY[k.via]) ?? [];
        // An evidence event's decisions were made at its `time` (docs/coverage.md §2): present, it must be RFC 3339.
        let time = null;
        const given = k.via === 'event' && (0,core_json/* isObject */.Gv)(doc.value) && (0,core_json/* hasOwn */.$3)(doc.value, 'time') ? doc.value['time'] : undefined;
        if (given !== undefined) {
            const parsed = typeof given === 'string' ? (0,core_time/* parseRfc3339 */.TM)(given) : null;
            if (!parsed?.ok) {
                const why = parsed ? parsed.reason : 'is not a string';
                fr.error(fr.at(doc.start), `the evidence event's time ${JSON.stringify(typeof given === 'string' ? (0,core_text/* quote */.hD)(given, 60) : given)} ${why}`);
                return;
            }
            time = parsed.value;
        }
        // A decision's member (a subject's number) is found in the text only when a problem is to be located there.
        const locate = (j, path) => {
            const at = j === null ? doc.start : (offsets[j] ?? doc.start);
            return fr.at(path === undefined || source === null ? at : ((0,scanner/* offsetAt */.HA)(text(), at, path, { maxDepth: limits.maxDepth }) ?? at));
        };
        readSurface(k.payload, k.via, locate, run, (at, message) => fr.error(at, message), time);
    };
    const json = (doc, inLog, end) => {
        const loc = fr.at(doc.start);
        runIds.event(doc.value, loc, fr);
        const kind = classify(doc.value);
        if (kind.kind === 'tracing') {
            // A .json run file must be a surface: one tracing line there is not a run (semantics §1).
            if (format === 'json')
                fr.error(loc, 'a server tracing line in a .json file: a .json run file must be a decision surface (a captured log is a .log)');
            else {
                tracing++;
                log.event(kind.line, loc, text(), doc.start, end ?? lineEnd(text(), doc.start));
            }
        }
        else if ((0,core_json/* isObject */.Gv)(doc.value) && carriesDecision(doc.value)) {
            // A decision is never skipped: a line that carries one but is not a tracing line is an error.
            fr.error(loc, kind.kind === 'error' && kind.named
                ? kind.reason
                : 'a line that carries a tool decision (a decision member, or an event tool_decision, in fields or at the top) but is not a tracing line');
        }
        else if (kind.kind === 'error' && inLog && !kind.named) {
            // In a server log, JSON that names no kind (stdout's JSON-RPC, a startup_failure line) is skipped.
            log.other(loc, (0,core_json/* isObject */.Gv)(doc.value) && typeof doc.value['jsonrpc'] === 'string'
                ? 'JSON-RPC message (stdout mixed in)'
                : 'JSON that is not a tracing event', (0,core_json/* isObject */.Gv)(doc.value) ? doc.value : null);
        }
        else if (kind.kind === 'error')
            fr.error(loc, kind.reason);
        else if (kind.kind === 'other')
            fr.skip(loc, kind.name);
        else if (kind.kind === 'record')
            fr.stray(loc, 'assay.provider_audit_record.v0 (an audit record among the runs)');
        else if (kind.kind === 'coverage')
            fr.stray(loc, `${COVERAGE_SCHEMA} (a coverage statement among the runs)`);
        else if (format === 'json' && kind.via === 'event')
            fr.error(loc, 'an evidence event in a .json file: a .json run file must be a decision surface (events go in .ndjson)');
        else
            surface(doc, kind);
    };
    if (source !== null) {
        const collect = format === 'json' ? [[], ...SURFACE_PATHS] : SURFACE_PATHS;
        if (format === 'log') {
            for (const l of (0,documents/* logLines */.OG)(text(), { limits, collect }, fr)) {
                if (l.kind === 'json')
                    json(l.doc, true);
                else if (l.kind === 'text')
                    log.text(text().slice(l.start, l.end), fr.at(l.start));
                // A JSON-RPC batch: each object read as a line holding it alone would be (a red team: a batched tools/call passed undecided).
                else
                    for (const e of l.elements) {
                        if ((0,core_json/* isObject */.Gv)(e.doc.value))
                            json(e.doc, true, e.end);
                        else
                            log.element(text().slice(e.doc.start, e.end), fr.at(e.doc.start));
                    }
            }
        }
        else {
            for (const doc of (0,documents/* documents */.DB)(source, format, { limits, collect }, fr))
                json(doc, false);
        }
        log.close();
        // The server's own output when it never started: no calls, one notice saying why (never "another program's log").
        // Never when the capture holds decisions (surfaces between its lines): they are judged (a red team).
        notStarted = format === 'log' && !fr.failed && surfaces === 0 && run.decisions.length === 0 ? log.notStarted() : null;
        if (notStarted)
            fr.notStarted(notStarted.loc, `the agent's server never started (${notStarted.text}): this run contributes no calls`);
        // A .log is assay-mcp-server's stderr, captured from its start: without a server_start line it
        // is another program's log, or a capture that began late (decisions before it are lost).
        else if (format === 'log' && !log.started && !fr.failed)
            fr.error(fr.at(0), "no server_start line: this is not a capture of assay-mcp-server's stderr from its start (the server writes server_start when it starts; was stderr redirected late, or is this another program's log?)");
    }
    const firstError = fr.findings.findIndex((f) => f.code === 'invalid_artifact');
    const first = fr.findings[firstError];
    if (fr.failed && first) {
        fr.findings[firstError] = { ...first, message: `${first.message} (the run is rejected and contributes no calls)` };
    }
    const isRun = (surfaces > 0 || tracing > 0) && notStarted === null;
    // Nothing is dropped silently: a readable file with nothing to verify says so.
    if (!fr.failed && !isRun && !fr.skippedAny && notStarted === null)
        fr.notice('no_decisions', 'no decision surface in this file: it contributes no calls');
    if (!fr.failed && tracing > 0 && run.decisions.length === 0 && surfaces === 0 && notStarted === null) {
        fr.notice('no_decisions', 'the server log holds no tool_decision event: it contributes no calls');
    }
    const findings = fr.close();
    // A rejected run contributes no calls; its classes are kept to say where a rule's class went.
    const rejectedClasses = fr.failed ? [...new Set(run.decisions.flatMap((d) => (d.actionClass === null ? [] : [d.actionClass])))] : [];
    return {
        run: !fr.failed && isRun ? { artifact: file, decisions: run.decisions } : null,
        entries: [],
        findings,
        strays: fr.strays,
        ...(rejectedClasses.length > 0 ? { rejectedClasses } : {}),
    };
}
/**
 * A .json audit file that is pages written one after another (`gh api --paginate` without --slurp:
 * `[…][…]`), read as the import reads such pages (the pipeline's `values` mode, only as far as the
 * second page): where the second page starts, and the kind of provider export its first entry looks
 * like; null when the file is one value (or not JSON: the strict reader has said why).
 */
function pagedExport(text, limits) {
    const pages = (0,documents/* documents */.DB)(text, 'values', { limits, collect: [] }, new documents/* LocatingSink */.Bz(''));
    const first = pages.next();
    const second = pages.next();
    if (first.done || second.done || !Array.isArray(first.value.value))
        return null;
    return { offset: second.value.start, kind: exportKindOf(first.value.value[0]) };
}
/** What to say of a raw provider export among the audit files (one finding per file, docs/coverage.md §6). */
function rawExportText(kind, paged) {
    const what = kind ? EXPORT_KINDS[kind] : 'a provider export';
    const how = `receipt-gate import ${kind ?? Object.keys(EXPORT_KINDS).join('|')}`;
    return `this is ${what}${paged ? ' written page after page ([…][…], gh api --paginate)' : ''}, not audit records: turn the export into records with ${how} (docs/importers.md)`;
}
/** An audit export (.json record or array of records, or .ndjson/.jsonl of records). */
function readAuditFile(file, bytes, format, limits = read_limits/* DEFAULT_LIMITS */.dR, options = {}) {
    const fr = new FileReport(file, limits);
    const entries = [];
    let raw = null;
    for (const doc of auditDocuments(bytes, format, fr, limits)) {
        const offsets = doc.elements.get(ROOT_KEY) ?? [];
        const items = Array.isArray(doc.value) && format === 'json'
            ? doc.value.map((v, j) => [v, offsets[j] ?? doc.start])
            : [[doc.value, doc.start]];
        for (const [value, offset] of items) {
            const loc = fr.at(offset);
            const kind = classify(value);
            // A raw provider export is one finding for the file, never one per entry (docs/coverage.md §6).
            const rawKind = kind.kind === 'error' && !kind.named ? exportKindOf(value) : null;
            if (raw !== null && rawKind === raw)
                continue;
            raw = rawKind;
            if (raw)
                fr.error(loc, rawExportText(raw, false));
            else if (kind.kind === 'error')
                fr.error(loc, kind.reason);
            else if (kind.kind === 'other')
                fr.skip(loc, kind.name);
            else if (kind.kind === 'tracing')
                fr.stray(loc, 'a server tracing line (a run among the audit exports)');
            else if (kind.kind === 'surface')
                fr.stray(loc, 'assay.tool_decision_surface.v0 (a run among the audit exports)');
            else if (kind.kind === 'coverage')
                readStatement(kind, loc, fr, entries, options);
            else
                readRecord(kind, loc, fr, entries, options);
        }
    }
    if (!fr.failed && entries.length === 0 && !fr.skippedAny)
        fr.notice('no_records', 'no audit record in this file');
    // A .json file the strict reader refused may be pages of a provider export written one after
    // another: then that is the one thing to say (asked only after a failure: no cost on a good file).
    const paged = fr.failed && format === 'json' && fr.lines !== null ? pagedExport(Buffer.from(bytes).toString('utf8'), limits) : null;
    if (paged !== null) {
        const once = new FileReport(file, limits);
        once.lines = fr.lines;
        once.error(once.at(paged.offset), rawExportText(paged.kind, true));
        return { run: null, entries: [], findings: once.close(), strays: once.strays };
    }
    return { run: null, entries, findings: fr.close(), strays: fr.strays };
}

;// CONCATENATED MODULE: external "node:stream"
const external_node_stream_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");
// EXTERNAL MODULE: ./src/read/builtins.ts + 1 modules
var builtins = __nccwpck_require__(5168);
;// CONCATENATED MODULE: ./src/read/formats.ts
/**
 * The artifact file types the gate reads, by name: the one list of extensions. A directory input
 * means every file with one of these beneath it (a server log only under the run inputs); a file
 * ending `.intoto.jsonl` (DSSE) or `.sigstore.json` (a Sigstore bundle) is an attestation, found
 * beside its artifact and never read as a run or an export.
 */

const EXTENSIONS = [
    // First: a DSSE sidecar also ends in .jsonl, a Sigstore bundle in .json.
    { ext: '.intoto.jsonl', format: 'attestation' },
    { ext: '.sigstore.json', format: 'attestation' },
    { ext: '.json', format: 'json' },
    { ext: '.jsonl', format: 'ndjson' },
    { ext: '.ndjson', format: 'ndjson' },
    { ext: '.log', format: 'log' },
    { ext: '.tar.gz', format: 'bundle' },
];
/** ".json, .jsonl, .ndjson, .log or .tar.gz" (what a run input may hold). */
const formats_EXTENSION_LIST = '.json, .jsonl, .ndjson, .log or .tar.gz';
/** The format of a file by its name (case-insensitive), or null when the gate does not read it. */
function formats_formatOf(file) {
    const lower = file.toLowerCase();
    for (const { ext, format } of EXTENSIONS)
        if (lower.endsWith(ext))
            return format;
    return null;
}
/** The ends of a checksum, signature, certificate or licence file beside evidence (`x.json.sha256`, `x.json.sigstore`). */
const SIDECAR = /\.(sha1|sha224|sha256|sha384|sha512|md5|b2|(sha1|sha256|sha384|sha512|md5|b2)sums?|sig|asc|gpg|p7s|minisig|pem|crt|cert|cer|der|bundle|sigstore|sigstore\.json|license|licence)$/i;
/**
 * A file among the inputs that looks like evidence but is not read by this role: a run or export
 * compressed on its own (`.log.gz` from log rotation, `.ndjson.gz`), an archive under another name
 * than `.tar.gz` (`.tgz`, `.zip`), a rotated or renamed copy (`.log.1`, `.json.bak`), a server log
 * among audit exports. Never read and never skipped in
 * silence (the same file under its name could fail the gate). Null when it is not one.
 */
function formats_unreadText(file, role = 'runs', exists = () => true) {
    const match = /\.(json|jsonl|ndjson|log)\.gz$/i.exec(file);
    if (match)
        return `a gzip-compressed .${(match[1] ?? '').toLowerCase()} file: receipt-gate reads runs and exports as text (and evidence bundles as .tar.gz); decompress it (gunzip) and commit the text, or move it out of the input`;
    const archive = /\.(tgz|tar|zip|gz|bz2|xz|zst|7z)$/i.exec(file);
    if (archive && formats_formatOf(file) === null)
        return `a .${(archive[1] ?? '').toLowerCase()} file: receipt-gate reads evidence bundles as .tar.gz only (and runs and exports as text); rename a bundle to .tar.gz, or move the file out of the input`;
    // A sidecar beside evidence (a checksum, a signature, a certificate, a licence) is not a copy of it;
    // one whose file is not beside it, named for evidence (`agent.log.sig`, `x.log.bak.sig`), may be that evidence renamed.
    if (formats_sidecarNamed(file)) {
        const of = formats_sidecarOfWhat(file);
        if (exists(of) || (formats_formatOf(of) === null && formats_unreadText(of, role, exists) === null))
            return null;
        return `named like a checksum, signature or certificate of ${baseName(of)}, which is not beside it: receipt-gate reads a file by its extension, so the evidence it names is not read; keep a sidecar beside its file, give evidence its own name, or move the file out of the input`;
    }
    // A rotated, backed-up or renamed copy (`agent.log.1`, `x.json.bak`, `x.ndjson.txt`, `x.json~`).
    const renamed = /\.(json|jsonl|ndjson|log|tar\.gz)([.~_-][^/\\]*)$/i.exec(file);
    if (renamed && formats_formatOf(file) === null)
        return `a .${(renamed[1] ?? '').toLowerCase()} file under another name (…${renamed[2] ?? ''}): receipt-gate reads a file by its extension; rename it to end in .${(renamed[1] ?? '').toLowerCase()}, or move it out of the input`;
    if (role === 'audit' && formats_formatOf(file) === 'log')
        return 'a .log file among the audit exports: exports are read as .json, .jsonl or .ndjson (a server log is a run: give it with the runs); rename it, or move it out of the input';
    return null;
}
/** The most of a file named like a sidecar that is read to tell it from evidence renamed (64 MiB: far past any checksum list, signature, certificate, licence or attestation). */
const formats_SIDECAR_MAX_BYTES = 64 * 1024 * 1024;
/** Whether a file is named like a checksum, signature, certificate or licence of another file (`x.json.sha256`). */
const formats_sidecarNamed = (file) => SIDECAR.test(file) && formats_formatOf(file) === null;
/** The file a sidecar-named file names (`x.json` for `x.json.sha256`). */
const formats_sidecarOfWhat = (file) => file.slice(0, SIDECAR.exec(file)?.index ?? file.length);
/**
 * What a file the gate does not read by its name holds that a reader would take (`size`: its whole
 * size; `capped`, for a sidecar's name: past SIDECAR_MAX_BYTES it is evidence, as no sidecar is so large; otherwise only its first
 * SIDECAR_MAX_BYTES are looked at, as for a recording beside the runs). A run,
 * an export or a bundle renamed `x.json.sha256` beside `x.json` is not read, and a failing run so
 * renamed passed in silence. A checksum, a signature, a certificate, a licence, a Sigstore or cosign
 * bundle or a DSSE envelope holds none of it; a clear-signed copy of the file beside it holds only its
 * lines (the caller compares them).
 */
function formats_evidenceIn(bytes, size, capped = true) {
    if (capped && size > formats_SIDECAR_MAX_BYTES)
        return { kind: 'evidence', why: `${size} bytes, more than any checksum, signature, certificate or licence (${formats_SIDECAR_MAX_BYTES})` };
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b)
        return { kind: 'evidence', why: 'gzip bytes (an evidence bundle?)' };
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    const whole = /^\s*[{[]/.test(text) ? jsonValue(text) : undefined;
    if (isEvidence(whole) || (Array.isArray(whole) && whole.some(isEvidence)))
        return { kind: 'document', text };
    const lines = [];
    text.split('\n').forEach((line, i) => {
        if (evidenceLine(line))
            lines.push({ line: i + 1, text: line.trim() });
    });
    return lines.length > 0 ? { kind: 'lines', lines } : { kind: 'nothing' };
}
/** A path's last part, whichever separator it uses. */
const baseName = (file) => file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
/** Whether a directory or glob input of this role picks the file up. */
function formats_discoverable(file, role) {
    const format = formats_formatOf(file);
    return format !== null && format !== 'attestation' && (format !== 'log' || role === 'runs');
}
/** The sidecar of a bundle: `<bundle file name>.intoto.jsonl` beside it. */
const sidecarOf = (bundle) => `${bundle}.intoto.jsonl`;
/** The Sigstore bundle file of an artifact: `<artifact file name>.sigstore.json` beside it. */
const sigstoreOf = (artifact) => `${artifact}.sigstore.json`;
/** The artifact an attestation file is about: its name without `.intoto.jsonl` / `.sigstore.json` (null: not an attestation). */
function attestedBy(attestation) {
    const match = /\.(intoto\.jsonl|sigstore\.json)$/i.exec(attestation);
    return match ? attestation.slice(0, match.index) : null;
}

;// CONCATENATED MODULE: ./src/read/read-error.ts
class ReadError extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}
/** Why a file system call failed, in the words every "cannot read" message uses: the errno code (ENOENT, EACCES …), else the message. */
const IO_WORDS = new Map([
    ['ENOENT', 'no such file or directory'],
    ['EACCES', 'permission denied'],
    ['EPERM', 'operation not permitted'],
    ['EISDIR', 'is a directory'],
    ['ENOTDIR', 'a path component is not a directory'],
    ['ELOOP', 'too many symbolic links'],
]);
/** Why a file cannot be read or written, in words with the system's code (`no such file or directory (ENOENT)`). */
const read_error_ioReason = (thrown) => {
    const code = thrown instanceof Error && 'code' in thrown && typeof thrown.code === 'string' ? thrown.code : null;
    if (code === null)
        return thrown instanceof Error ? thrown.message : String(thrown);
    const words = IO_WORDS.get(code);
    return words ? `${words} (${code})` : code;
};

// EXTERNAL MODULE: ./src/read/lines.ts
var lines = __nccwpck_require__(771);
// EXTERNAL MODULE: ./src/read/utf8.ts
var utf8 = __nccwpck_require__(8145);
;// CONCATENATED MODULE: ./src/read/bundle/events.ts
/**
 * The third job of the bundle reader: events.ndjson, every event's envelope, sequence and content
 * hash, the run root; the decisions of its surface events through the same classifier as plain files.
 */













const STRINGS = ['type', 'datacontenttype', 'assayproducer', 'assayproducerversion', 'assaygit'];
const fail = (message) => {
    throw new ReadError('events', message);
};
/** One event's CloudEvents envelope and Assay extensions (§ "Events"): its time and content hash, or a ReadError. */
function checkEnvelope(entry, where, manifest, seq, source) {
    if (entry['specversion'] !== '1.0')
        fail(`${where}: specversion must be "1.0"`);
    for (const k of STRINGS)
        if (typeof entry[k] !== 'string')
            fail(`${where}: ${k} must be a string`);
    const src = entry['source'];
    if (typeof src !== 'string' || !src.includes(':') || src.startsWith(':'))
        fail(`${where}: source must be a string containing ':' and not starting with it`);
    if (source !== undefined && src !== source)
        fail(`${where}: source differs from the first event's`);
    if (entry['assayrunid'] !== manifest.runId)
        fail(`${where}: assayrunid does not equal the manifest run_id`);
    if (entry['assayseq'] !== seq)
        fail(`${where}: assayseq must be ${seq} (sequence starts at 0 and increases by 1)`);
    if (entry['id'] !== `${manifest.runId}:${seq}`)
        fail(`${where}: id must be "${manifest.runId}:${seq}"`);
    const t = entry['time'];
    if (typeof t !== 'string')
        return fail(`${where}: time is not an RFC 3339 timestamp (not a string)`);
    const time = (0,core_time/* parseRfc3339 */.TM)(t);
    if (!time.ok)
        return fail(`${where}: time is not an RFC 3339 timestamp: ${JSON.stringify((0,core_text/* quote */.hD)(t, 40))} ${time.reason}`);
    if (typeof entry['assaypii'] !== 'boolean' || typeof entry['assaysecrets'] !== 'boolean')
        fail(`${where}: assaypii and assaysecrets must be booleans`);
    const subject = entry['subject'];
    if (subject !== undefined && subject !== null && typeof subject !== 'string')
        fail(`${where}: subject must be a string`);
    const covered = {
        specversion: entry['specversion'],
        type: entry['type'],
        datacontenttype: entry['datacontenttype'],
        data: entry['data'],
    };
    if (typeof subject === 'string')
        covered['subject'] = subject;
    const canonical = (0,binding/* jcs */.vI)(covered);
    if (!canonical.ok)
        return fail(`${where}: event cannot be canonicalized (${canonical.reason})`);
    const contentHash = (0,binding/* sha256Digest */.sI)(canonical.text);
    if (entry['assaycontenthash'] !== contentHash)
        fail(`${where}: assaycontenthash does not match the event content (recomputed ${contentHash})`);
    return { time: time.value, contentHash };
}
function readEvents(bytes, manifest, file, limits) {
    if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
        fail('events.ndjson starts with a byte-order mark');
    const decoded = (0,utf8/* decodeUtf8 */._)(bytes);
    if (!decoded.ok)
        return fail(`events.ndjson is not valid UTF-8 (byte ${decoded.reason})`);
    const text = decoded.value;
    const root = (0,external_node_crypto_.createHash)('sha256');
    const run = new RunDecisions(limits.maxDecisions);
    const skipped = new Map();
    let seq = 0;
    let source;
    let earliest = null;
    let latest = null;
    const surfacePath = (0,scanner/* pathKey */.Pn)(['data', 'observed_tool_decisions']);
    const opts = { maxDepth: limits.maxDepth, collect: [['data', 'observed_tool_decisions']] };
    for (const { line, start, end } of (0,lines/* lines */.Mn)(text)) {
        const where = `events.ndjson line ${line}`;
        if (end === start)
            fail(`${where} is blank`);
        if ((0,lines/* overBytes */.Q_)(text, start, end, limits.maxLineBytes))
            fail(`${where} is over the ${limits.maxLineBytes}-byte line limit`);
        if (seq >= limits.maxEvents)
            fail(`more than ${limits.maxEvents} events`);
        const parsed = (0,strict/* parseStrict */.z3)(text, opts, start, end);
        if (!parsed.ok)
            return fail(`${where} is not strict JSON: ${parsed.reason.message}`);
        const thrown = parsed.value.json;
        if (!(0,core_json/* isObject */.Gv)(thrown))
            return fail(`${where} is not a JSON object`);
        const { time, contentHash } = checkEnvelope(thrown, where, manifest, seq, source);
        source = thrown['source'];
        if (!earliest || (0,core_time/* compareInstants */.QI)(time, earliest) < 0)
            earliest = time;
        if (!latest || (0,core_time/* compareInstants */.QI)(latest, time) < 0)
            latest = time;
        root.update(`${contentHash}\n`);
        // The same classifier as plain files and NDJSON logs: they cannot disagree about an event.
        const kind = classify(thrown);
        if (kind.kind === 'error')
            fail(`${where}: ${kind.reason}`);
        else if (kind.kind === 'surface') {
            const offsets = parsed.value.elements.get(surfacePath) ?? [];
            const locate = (j) => ({
                file,
                line,
                column: (j === null ? start : (offsets[j] ?? start)) - start + 1,
                member: 'events.ndjson',
            });
            readSurface(kind.payload, 'event', locate, run, (_at, message) => fail(`${where}: ${message}`), time);
        }
        else if (kind.kind === 'record' || kind.kind === 'coverage') {
            // A bundle is a run: no audit input reads it, so a record or statement in it would be judged by no
            // one (a red team: an attested bundle carried a failing record past the gate with a notice).
            fail(`${where}: ${kind.kind === 'record' ? `an audit record (${RECORD_SCHEMA})` : `a coverage statement (${COVERAGE_SCHEMA})`} in a bundle, where no audit input reads it: a bundle holds a run; commit the provider's records and statements as an audit export (receipt-gate import)`);
        }
        else {
            const name = kind.kind === 'other' ? kind.name : 'a server tracing line';
            skipped.set(name, (skipped.get(name) ?? 0) + 1);
        }
        seq++;
    }
    if (seq === 0)
        fail('events.ndjson holds no events (a bundle needs at least one)');
    if (seq !== manifest.eventCount)
        fail(`manifest event_count is ${manifest.eventCount} but events.ndjson holds ${seq} events`);
    const runRoot = `sha256:${root.digest('hex')}`;
    if (runRoot !== manifest.runRoot)
        fail(`run root recomputes to ${runRoot} but the manifest run_root says ${manifest.runRoot}`);
    if (manifest.bundleId !== manifest.runRoot)
        fail('manifest bundle_id does not equal the run root');
    return { decisions: run.decisions, skipped, window: earliest && latest ? { start: (0,core_time/* autoSi */.Qs)(earliest), end: (0,core_time/* autoSi */.Qs)(latest) } : null };
}

;// CONCATENATED MODULE: ./src/read/bundle/manifest.ts
/** The second job of the bundle reader: manifest.json, or the other kind of archive it announces. */







/** A manifest `schema` of another kind is a skip (its kind's name); a near miss of ours is an error, never a skip. */
function announcedKind(schema) {
    const kind = classify({ schema });
    if (kind.kind === 'other')
        return kind.name;
    throw new ReadError('manifest', kind.kind === 'error'
        ? `the archive's manifest names ${JSON.stringify((0,core_text/* quote */.hD)(schema, 120))}: ${kind.reason}`
        : `the archive's manifest names ${schema}, which is not an archive`);
}
/** A first member that is JSON with a `schema` names the archive's kind (null: it names none, so it is not a bundle). */
function otherArchive(bytes, limits) {
    const decoded = (0,utf8/* decodeUtf8 */._)(bytes);
    if (!decoded.ok)
        return null;
    const parsed = (0,strict/* parseStrict */.z3)(decoded.value, { maxDepth: limits.maxDepth });
    const value = parsed.ok ? parsed.value.json : null;
    return (0,core_json/* isObject */.Gv)(value) && typeof value['schema'] === 'string' ? announcedKind(value['schema']) : null;
}
/** The manifest, or the name of the other kind of archive it announces. */
function readManifest(bytes, limits) {
    const decoded = (0,utf8/* decodeUtf8 */._)(bytes);
    if (!decoded.ok)
        throw new ReadError('manifest', `manifest.json is not valid UTF-8 (byte ${decoded.reason})`);
    const parsed = (0,strict/* parseStrict */.z3)(decoded.value, { maxDepth: limits.maxDepth });
    if (!parsed.ok)
        throw new ReadError('manifest', `manifest.json is not strict JSON: ${parsed.reason.message} (offset ${parsed.reason.offset})`);
    const m = parsed.value.json;
    if (!(0,core_json/* isObject */.Gv)(m))
        throw new ReadError('manifest', 'manifest.json is not a JSON object');
    if (typeof m['schema'] === 'string' && !('schema_version' in m))
        return { other: announcedKind(m['schema']) };
    if (m['schema_version'] !== 1)
        throw new ReadError('manifest', `manifest schema_version must be 1, found ${JSON.stringify(m['schema_version'])}`);
    const runId = m['run_id'];
    const eventCount = m['event_count'];
    const runRoot = m['run_root'];
    const bundleId = m['bundle_id'];
    if (typeof runId !== 'string')
        throw new ReadError('manifest', 'manifest run_id is not a string');
    if (runId.includes(':'))
        throw new ReadError('manifest', 'manifest run_id contains ":" (event ids are run_id:seq)');
    if (typeof eventCount !== 'number' || !Number.isSafeInteger(eventCount) || eventCount < 0)
        throw new ReadError('manifest', 'manifest event_count is not a non-negative integer');
    if (typeof runRoot !== 'string' || !binding/* DIGEST_PATTERN */.WA.test(runRoot))
        throw new ReadError('manifest', 'manifest run_root is not a sha256:<hex> digest');
    if (typeof bundleId !== 'string' || !binding/* DIGEST_PATTERN */.WA.test(bundleId))
        throw new ReadError('manifest', 'manifest bundle_id is not a sha256:<hex> digest');
    const files = m['files'];
    const ev = (0,core_json/* isObject */.Gv)(files) ? files['events.ndjson'] : undefined;
    if (!(0,core_json/* isObject */.Gv)(ev))
        throw new ReadError('manifest', 'manifest files["events.ndjson"] is missing or not an object');
    const sha = ev['sha256'];
    const size = ev['bytes'];
    if (typeof ev['path'] !== 'string')
        throw new ReadError('manifest', 'manifest files["events.ndjson"].path is not a string');
    if (typeof sha !== 'string')
        throw new ReadError('manifest', 'manifest files["events.ndjson"].sha256 is not a string');
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
        throw new ReadError('manifest', 'manifest files["events.ndjson"].bytes is not a non-negative integer');
    const eventsSha256 = (sha.startsWith('sha256:') ? sha : `sha256:${sha}`).toLowerCase();
    const parsed2 = (0,core_json/* isObject */.Gv)(m['producer']) ? m['producer'] : {};
    const text = (k) => (typeof parsed2[k] === 'string' ? parsed2[k] : null);
    return {
        producer: { name: text('name'), version: text('version'), git: text('git') },
        runId,
        eventCount,
        runRoot,
        bundleId,
        eventsSha256,
        eventsBytes: size,
    };
}

;// CONCATENATED MODULE: ./src/read/bundle/source.ts
/**
 * The first job of the bundle reader: the archive's bytes through gunzip, pulled by the tar reader,
 * with the decompression limits (size, ratio) enforced while streaming.
 */


const MiB = 1024 * 1024;
/** A pull source over the gunzip stream that enforces the decompression limits. */
class GunzipSource {
    compressed;
    limits;
    chunks = [];
    buffered = 0;
    /** Decompressed bytes so far. */
    total = 0;
    done = false;
    /** Whether the whole gzip stream has been read (its every member). */
    get ended() {
        return this.done;
    }
    it;
    /** CRC-32 of every decompressed byte so far (what a one-member archive's trailer says). */
    crc = 0;
    constructor(stream, compressed, limits) {
        this.compressed = compressed;
        this.limits = limits;
        this.it = stream[Symbol.asyncIterator]();
    }
    async fill() {
        if (this.done)
            return false;
        const r = await this.it.next();
        if (r.done) {
            this.done = true;
            return false;
        }
        this.total += r.value.length;
        if (this.total > this.limits.maxDecompressedBytes) {
            throw new ReadError('limit', `decompressed size exceeds the ${this.limits.maxDecompressedBytes}-byte limit (decompression bomb?)`);
        }
        if (this.total > MiB && this.total > this.compressed * this.limits.maxRatio) {
            throw new ReadError('limit', `decompression ratio exceeds ${this.limits.maxRatio}:1 (${this.compressed} compressed bytes expanded past ${this.total}; decompression bomb?)`);
        }
        this.crc = (0,builtins/* crc32 */.QR)(r.value, this.crc);
        this.chunks.push(r.value);
        this.buffered += r.value.length;
        return true;
    }
    async read(n) {
        while (this.buffered < n && (await this.fill()))
            ;
        const take = Math.min(n, this.buffered);
        const [only] = this.chunks;
        const all = this.chunks.length === 1 && only ? only : Buffer.concat(this.chunks);
        const out = all.subarray(0, take);
        const rest = all.subarray(take);
        this.chunks = rest.length > 0 ? [rest] : [];
        this.buffered = rest.length;
        return out;
    }
    /** Read to the end of the gzip stream (so its CRC32 and size trailer are checked); true when only zeros followed. */
    async drain() {
        let zeros = true;
        const check = (bytes) => {
            if (zeros)
                for (let i = 0; i < bytes.length; i++)
                    if (bytes[i] !== 0) {
                        zeros = false;
                        break;
                    }
        };
        for (const c of this.chunks)
            check(c);
        this.chunks = [];
        this.buffered = 0;
        while (await this.fill()) {
            for (const c of this.chunks)
                check(c);
            this.chunks = [];
            this.buffered = 0;
        }
        return zeros;
    }
}
/**
 * The compressed archive's end, for the one-member rule: the last bytes before its trailing zeros,
 * and how many zeros follow. Fed every chunk of the compressed input as it streams.
 */
class ArchiveTail {
    tail = Buffer.alloc(0);
    zeros = 0;
    push(chunk) {
        let last = chunk.length - 1;
        while (last >= 0 && chunk[last] === 0)
            last--;
        if (last < 0) {
            this.zeros += chunk.length;
            return;
        }
        // Only the last 16 bytes are kept: no chunk is copied whole (this runs on every compressed chunk).
        const start = Math.max(0, last + 1 - 16);
        const gap = start > 0 ? 0 : Math.min(this.zeros, 16);
        this.tail = Buffer.concat([start > 0 ? Buffer.alloc(0) : this.tail, Buffer.alloc(gap), chunk.subarray(start, last + 1)]).subarray(-16);
        this.zeros = chunk.length - last - 1;
    }
    /**
     * Whether the gzip trailer at the end (CRC-32 and size of the member) is that of all the data: one
     * member, then only NUL padding. A second member would carry its own data's CRC and size. The
     * trailer's last bytes may be zeros themselves (all eight for an empty member), so every split of
     * the trailing zeros is tried. Blind spot: a first member with no data (its CRC-32 and size are
     * zero) followed by a second has the second's trailer, which is then that of all the data; the
     * tar inside must still be a whole bundle, so such an archive is one a first-member reader refuses.
     */
    oneMember(crc, size) {
        for (let j = 0; j <= Math.min(8, this.zeros); j++) {
            const t = Buffer.concat([this.tail, Buffer.alloc(j)]).subarray(-8);
            if (t.length === 8 && t.readUInt32LE(0) === crc >>> 0 && t.readUInt32LE(4) === size % 2 ** 32)
                return true;
        }
        return false;
    }
}
function gzipReason(error) {
    const m = error.message ?? '';
    if (error.code === 'Z_BUF_ERROR' || /unexpected end/i.test(m))
        return 'gzip stream is truncated (it ends before its trailer)';
    if (/incorrect header check|unknown compression/i.test(m))
        return 'not a gzip stream (bad gzip header)';
    if (/incorrect data check/i.test(m))
        return 'gzip CRC32 trailer does not match the data';
    if (/incorrect length check/i.test(m))
        return 'gzip size trailer does not match the data';
    return `gzip stream is corrupt (${m})`;
}

;// CONCATENATED MODULE: ./src/read/bundle/tar.ts
/**
 * A minimal, strict ustar reader over a pull source. It yields members one at a time, consuming
 * local PAX and GNU long-name headers, and refuses everything an evidence bundle never contains:
 * links, devices, directories, global PAX headers, oversized metadata. Failures are ReadError('tar')
 * (or 'limit') whose message names the rule.
 */


const BLOCK = 512;
const isZero = (bytes) => {
    for (let i = 0; i < bytes.length; i++)
        if (bytes[i] !== 0)
            return false;
    return true;
};
const cstring = (bytes, start, len) => {
    const end = bytes.indexOf(0, start);
    return bytes.toString('utf8', start, end === -1 || end > start + len ? start + len : end);
};
function octal(bytes, start, len, what) {
    if (((bytes[start] ?? 0) & 0x80) !== 0) {
        // GNU base-256: only sizes that fit in a double are meaningful here.
        let v = 0;
        for (let i = start + 1; i < start + len; i++)
            v = v * 256 + (bytes[i] ?? 0);
        if (((bytes[start] ?? 0) & 0x7f) !== 0 || !Number.isSafeInteger(v))
            throw new ReadError('tar', `tar header ${what} field is out of range`);
        return v;
    }
    const text = bytes
        .toString('latin1', start, start + len)
        .replace(/[\0 ]+$/, '')
        .replace(/^ +/, '');
    if (text === '')
        return 0;
    if (!/^[0-7]+$/.test(text))
        throw new ReadError('tar', `tar header ${what} field is not octal`);
    return parseInt(text, 8);
}
function checksumOk(bytes) {
    const declared = octal(bytes, 148, 8, 'checksum');
    let sum = 0;
    for (let i = 0; i < BLOCK; i++)
        sum += i >= 148 && i < 156 ? 32 : (bytes[i] ?? 0);
    return sum === declared;
}
const padding = (size) => (BLOCK - (size % BLOCK)) % BLOCK;
/** Parse PAX records "len key=value\n" and return the `path` record if any. */
function paxPath(data) {
    let i = 0;
    let path;
    while (i < data.length) {
        const sp = data.indexOf(0x20, i);
        if (sp === -1)
            throw new ReadError('tar', 'malformed PAX header record');
        const len = Number(data.toString('latin1', i, sp));
        if (!Number.isSafeInteger(len) || len <= 0 || i + len > data.length)
            throw new ReadError('tar', 'malformed PAX header record length');
        const rec = data.toString('utf8', sp + 1, i + len - 1);
        const eq = rec.indexOf('=');
        if (eq === -1)
            throw new ReadError('tar', 'malformed PAX header record');
        const key = rec.slice(0, eq);
        if (key === 'path') {
            // Two path records: tar readers disagree which one names the member (the first, the last).
            if (path !== undefined)
                throw new ReadError('tar', 'a PAX header with two path records: the member has two names');
            path = rec.slice(eq + 1);
        }
        if (key === 'linkpath')
            throw new ReadError('tar', 'PAX linkpath record: links are not allowed in a bundle');
        if (key === 'size')
            throw new ReadError('tar', 'PAX size record is not supported in a bundle');
        i += len;
    }
    return path;
}
/** How many NUL bytes end a buffer. */
function trailingNuls(b) {
    let n = 0;
    while (n < b.length && b[b.length - 1 - n] === 0)
        n++;
    return n;
}
async function* members(src, limits) {
    let longName;
    /** An extended header was read and applies to the next member. */
    let extended = false;
    let consumed = true;
    for (;;) {
        if (!consumed)
            throw new ReadError('tar', 'internal: member data not consumed');
        const bytes = await src.read(BLOCK);
        if (bytes.length === 0) {
            if (longName !== undefined)
                throw new ReadError('tar', 'tar archive ends after an extended header (truncated)');
            return; // EOF at a header boundary: tolerated like the end marker
        }
        if (bytes.length < BLOCK)
            throw new ReadError('tar', 'tar archive is truncated inside a header');
        if (isZero(bytes)) {
            if (longName !== undefined)
                throw new ReadError('tar', 'tar archive ends after an extended header');
            return;
        }
        if (!checksumOk(bytes))
            throw new ReadError('tar', 'tar header checksum does not match (corrupt or not a tar archive)');
        const type = String.fromCharCode(bytes[156] ?? 0);
        const size = octal(bytes, 124, 12, 'size');
        const magic = bytes.toString('latin1', 257, 263);
        const ustar = magic === 'ustar\0' || magic === 'ustar ';
        let name = cstring(bytes, 0, 100);
        const prefix = ustar && magic === 'ustar\0' ? cstring(bytes, 345, 155) : '';
        if (prefix)
            name = `${prefix}/${name}`;
        if (type === 'x' || type === 'L') {
            if (size > limits.maxMetaBytes) {
                throw new ReadError('tar', `${type === 'x' ? 'PAX' : 'GNU long-name'} header of ${size} bytes is past the ${limits.maxMetaBytes}-byte decode ceiling`);
            }
            const data = await src.read(size + padding(size));
            if (data.length < size + padding(size))
                throw new ReadError('tar', 'tar archive is truncated inside an extended header');
            const body = data.subarray(0, size);
            // Two extended headers before one member (a GNU long name and a PAX path, two of one kind, or a
            // second without a path): tar readers disagree which applies (GNU tar drops the first), so
            // another reader (upstream's) could read another member than this one.
            if (extended)
                throw new ReadError('tar', 'two extended headers before one member (GNU long name or PAX): its name is ambiguous');
            extended = true;
            // A GNU long name with a NUL inside is one name to a C reader and another to one that reads it whole.
            const text = type === 'L' ? body.subarray(0, body.length - trailingNuls(body)) : body;
            if (type === 'L' && text.includes(0))
                throw new ReadError('tar', 'a GNU long name with a NUL inside: its name is ambiguous');
            longName = type === 'x' ? paxPath(body) : cstring(text, 0, text.length);
            continue;
        }
        if (type === 'g')
            throw new ReadError('tar', 'global PAX header member is not allowed in a bundle');
        if (type === '1' || type === '2' || type === 'K')
            throw new ReadError('tar', `link member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type === '3' || type === '4' || type === '6')
            throw new ReadError('tar', `device or FIFO member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type === '5')
            throw new ReadError('tar', `directory member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type !== '0' && type !== '\0' && type !== '7')
            throw new ReadError('tar', `tar member "${(0,core_text/* quote */.hD)(name)}" has unsupported type '${type}'`);
        const path = longName ?? name;
        longName = undefined;
        extended = false;
        if (Buffer.byteLength(path) > limits.maxPathBytes)
            throw new ReadError('tar', `tar member path is longer than ${limits.maxPathBytes} bytes`);
        if (path.startsWith('/'))
            throw new ReadError('tar', `tar member path "${path}" is absolute`);
        if (path.split('/').includes('..'))
            throw new ReadError('tar', `tar member path "${path}" contains ".."`);
        consumed = false;
        yield {
            path,
            size,
            data: async (maxBytes, what) => {
                if (size > maxBytes)
                    throw new ReadError('limit', `${what} is ${size} bytes, over the ${maxBytes}-byte limit`);
                const buf = await src.read(size + padding(size));
                if (buf.length < size + padding(size))
                    throw new ReadError('tar', `tar archive is truncated inside ${what}`);
                consumed = true;
                return buf.subarray(0, size);
            },
        };
    }
}

;// CONCATENATED MODULE: ./src/read/bundle/archive.ts
/**
 * Assay evidence bundles (`docs/evidence-bundle.md`): gzip → tar (manifest.json, events.ndjson) →
 * manifest, envelope, sequence, content hashes, run root, bundle_id — every limit enforced while
 * streaming, so a decompression bomb stops at the limit. The bundle is one run; its decisions come
 * from `assay.tool_decision_surface.v0` events in sequence order. A bundle that fails any rule is
 * one `invalid_artifact` finding naming the rule, and contributes nothing.
 */
















/** Verify a bundle: what the archive is, or the rule it broke (the reader's errors end here). */
async function verifyBundle(source, file, limits = read_limits/* DEFAULT_BUNDLE_LIMITS */.k$) {
    try {
        return { ok: true, value: await walk(source, file, limits) };
    }
    catch (error) {
        if (error instanceof ReadError)
            return { ok: false, reason: error };
        throw error;
    }
}
/** The archive's bytes as a stream, and its size (over the compressed limit: refused before reading). */
function archive_open(source, limits) {
    try {
        const size = 'path' in source ? (0,external_node_fs_namespaceObject.statSync)(source.path).size : source.bytes.length;
        if (size > limits.maxCompressedBytes)
            throw new ReadError('limit', `bundle is ${size} bytes, over the ${limits.maxCompressedBytes}-byte compressed limit (max-file-size, at most ${read_limits/* DEFAULT_BUNDLE_LIMITS */.k$.maxCompressedBytes})`);
        return { size, input: 'path' in source ? (0,external_node_fs_namespaceObject.createReadStream)(source.path) : external_node_stream_namespaceObject.Readable.from([Buffer.from(source.bytes)]) };
    }
    catch (error) {
        if (error instanceof ReadError)
            throw error;
        throw new ReadError('io', `cannot read file: ${read_error_ioReason(error)}`);
    }
}
const unexpected = (path) => `unexpected member "${path}" (a bundle holds manifest.json then events.ndjson)`;
/** How deep archives inside an archive of another kind are opened to check their members. */
const MAX_NESTED = 3;
/** Gzip's magic bytes. */
const gzipped = (bytes) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
/**
 * What a member of an archive of another kind holds that the gate would read, in words, or null:
 * every member is read, never skipped by its name. A `.log` is a server log (a run, which an archive
 * of another kind cannot be read as); a nested `.tar.gz`/`.tgz` (or any gzip bytes) is opened and its
 * members checked the same way (`nested`); any other member, by what it holds (`evidenceIn`).
 */
async function heldBy(m, path, limits, depth, used) {
    const bytes = await m.data(limits.maxEventsBytes, m.path);
    if (/\.log$/i.test(m.path))
        return { path, what: 'is a server log (a .log is a run: the stderr of assay-mcp-server, read only as a file of its own)' };
    if (/\.(tar\.gz|tgz)$/i.test(m.path) || gzipped(bytes))
        return nested(bytes, path, limits, depth + 1, used);
    const held = formats_evidenceIn(bytes, bytes.length, false);
    if (held.kind === 'nothing')
        return null;
    const what = held.kind === 'evidence'
        ? `holds ${held.why}`
        : `holds evidence the gate reads (decision surfaces, records, statements or tracing lines${held.kind === 'lines' ? `, from its line ${held.lines[0]?.line ?? 1}` : ''})`;
    return { path, what };
}
/**
 * An archive inside an archive of another kind: each of its members checked as `heldBy` checks them,
 * within what is left of the decompression limit (`used`: what the archives around it inflated). One
 * that cannot be opened (not a tar this reader reads, too deep, past a limit) is held against it by
 * name: its members cannot be checked, so it is never skipped.
 */
async function nested(bytes, path, limits, depth, used) {
    if (depth > MAX_NESTED)
        return { path, what: `is an archive nested more than ${MAX_NESTED} deep, whose members are not opened` };
    const left = { ...limits, maxDecompressedBytes: Math.max(0, limits.maxDecompressedBytes - used) };
    const input = external_node_stream_namespaceObject.Readable.from([bytes]);
    const gunzip = (0,builtins/* zlib */.w5)().createGunzip({ chunkSize: GUNZIP_CHUNK });
    input.on('error', (e) => gunzip.destroy(e));
    input.pipe(gunzip);
    try {
        const src = new GunzipSource(gunzip, bytes.length, left);
        for await (const m of members(src, left)) {
            const held = await heldBy(m, `${path}!${m.path}`, left, depth, used + src.total);
            if (held)
                return held;
        }
        if (!(await src.drain()))
            return { path, what: 'is an archive with data after the end of its tar archive, which cannot be checked' };
        return null;
    }
    catch (error) {
        const err = error;
        const why = error instanceof ReadError ? error.message : typeof err.code === 'string' && err.code.startsWith('Z_') ? gzipReason(err) : null;
        if (why === null)
            throw error;
        return { path, what: `is an archive this reader cannot open to check its members (${why})` };
    }
    finally {
        input.destroy();
        gunzip.destroy();
    }
}
/** The members in order: manifest.json, then events.ndjson, nothing else; or another kind of archive. */
async function contents(src, file, limits) {
    let manifest;
    let events;
    let other = null;
    for await (const m of members(src, limits)) {
        if (other !== null) {
            // Another kind of archive is skipped, unless a member holds evidence the gate reads (a red team: a
            // failing run's events under a runner archive's manifest were skipped with a notice), is a server
            // log, or is an archive that does or cannot be opened (a red team: `.log` and nested `.tgz`
            // members were skipped by their names). Every member is read.
            const held = await heldBy(m, m.path, limits, 0, src.total);
            if (held)
                throw new ReadError('bundle', `an archive of another kind (${other}) whose member ${JSON.stringify((0,core_text/* quote */.hD)(held.path, 200))} ${held.what}: evidence in an archive is read from an evidence bundle only, and never skipped; extract the member and commit it under the runs (a server log as .log, events as .ndjson, a bundle as its own .tar.gz)`);
        }
        else if (!manifest) {
            if (m.path !== 'manifest.json' && m.path.endsWith('.json')) {
                // Another kind of Assay archive (a runner archive…) announces itself in its first JSON member.
                other = otherArchive(await m.data(limits.maxManifestBytes, m.path), limits);
                if (other !== null)
                    continue;
            }
            if (m.path !== 'manifest.json')
                throw new ReadError('bundle', m.path === 'events.ndjson' ? 'member order: events.ndjson comes before manifest.json' : unexpected(m.path));
            const read = readManifest(await m.data(limits.maxManifestBytes, 'manifest.json'), limits);
            if ('other' in read)
                other = read.other;
            else
                manifest = read;
        }
        else if (!events) {
            if (m.path !== 'events.ndjson')
                throw new ReadError('bundle', m.path === 'manifest.json' ? 'duplicate member "manifest.json"' : unexpected(m.path));
            if (m.size !== manifest.eventsBytes)
                throw new ReadError('bundle', `events.ndjson is ${m.size} bytes but the manifest says ${manifest.eventsBytes}`);
            const bytes = await m.data(limits.maxEventsBytes, 'events.ndjson');
            if ((0,binding/* sha256Digest */.sI)(bytes) !== manifest.eventsSha256)
                throw new ReadError('bundle', 'events.ndjson sha256 does not match the manifest');
            events = readEvents(bytes, manifest, file, limits);
        }
        else {
            throw new ReadError('bundle', m.path === 'events.ndjson' || m.path === 'manifest.json' ? `duplicate member "${m.path}"` : unexpected(m.path));
        }
    }
    if (other !== null)
        return { other };
    if (!(await src.drain()))
        throw new ReadError('bundle', 'data after the end of the tar archive');
    if (!manifest)
        throw new ReadError('bundle', 'missing member manifest.json');
    if (!events)
        throw new ReadError('bundle', 'missing member events.ndjson');
    return { manifest, events };
}
/**
 * Bytes gunzip hands over at a time. Each chunk is a turn of the event loop while zlib inflates on
 * the thread pool: 16 KiB (the default) is ~5 000 turns for a 100 000-event bundle, 256 KiB ~300
 * (2.28 → 2.06 s for it; 1 MiB was no faster). The limits are checked per chunk, so a bomb is
 * stopped at most one chunk past them.
 */
const GUNZIP_CHUNK = 256 * 1024;
const MORE_THAN_ONE_MEMBER = 'the archive is more than one gzip member (or has bytes after its trailer): an evidence bundle is exactly one';
/** The three jobs in order (source → manifest → events); throws ReadError naming the broken rule. */
async function walk(source, file, limits) {
    const { size, input } = archive_open(source, limits);
    const gunzip = (0,builtins/* zlib */.w5)().createGunzip({ chunkSize: GUNZIP_CHUNK });
    const archiveHash = (0,external_node_crypto_.createHash)('sha256');
    const tail = new ArchiveTail();
    input.on('data', (chunk) => {
        archiveHash.update(chunk);
        tail.push(chunk);
    });
    input.on('error', (e) => gunzip.destroy(e));
    input.pipe(gunzip);
    try {
        const source = new GunzipSource(gunzip, size, limits);
        // One gzip member, then only NUL padding: a reader that stops at the first member (upstream's)
        // must see the same archive as this one, which decompresses every member. Checked once the whole
        // stream is read; a second member's bytes after the tar's end are this rule's too.
        const oneMember = () => {
            if (source.ended && !tail.oneMember(source.crc, source.total))
                throw new ReadError('gzip', MORE_THAN_ONE_MEMBER);
        };
        let read;
        try {
            read = await contents(source, file, limits);
        }
        catch (error) {
            if (error instanceof ReadError)
                oneMember();
            throw error;
        }
        if ('other' in read)
            return { kind: 'other', name: read.other };
        oneMember();
        const { manifest, events } = read;
        // Every byte has been read (drain checked the end): the hash is of the whole archive.
        const facts = {
            archiveSha256: archiveHash.digest('hex'),
            bundleId: manifest.bundleId,
            runId: manifest.runId,
            eventCount: manifest.eventCount,
            runRoot: manifest.runRoot,
            producer: manifest.producer,
            window: events.window,
        };
        return { kind: 'bundle', events, facts };
    }
    catch (error) {
        if (error instanceof ReadError)
            throw error;
        const err = error;
        if (typeof err.code === 'string' && err.code.startsWith('Z_'))
            throw new ReadError('gzip', gzipReason(err));
        if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code))
            throw new ReadError('io', `cannot read file: ${err.code}`);
        throw error;
    }
    finally {
        input.destroy();
        gunzip.destroy();
    }
}
async function archive_readBundle(source, file, limits = read_limits/* DEFAULT_BUNDLE_LIMITS */.k$) {
    const at = { file, line: 1, column: 1 };
    const verified = await verifyBundle(source, file, limits);
    if (!verified.ok)
        return { run: null, entries: [], findings: [(0,core_findings/* finding */.gk)('invalid_artifact', at, `evidence bundle rejected: ${verified.reason.message}`)] };
    const archive = verified.value;
    if (archive.kind === 'other') {
        const problem = (0,core_findings/* finding */.gk)('skipped_object', at, `skipped an archive of another kind: ${archive.name} (not an evidence bundle; it contributes no calls)`);
        return { run: null, entries: [], findings: [problem] };
    }
    const { decisions, skipped } = archive.events;
    const findings = [];
    if (skipped.size > 0)
        findings.push(skippedFinding({ ...at, member: 'events.ndjson' }, skipped));
    if (decisions.length === 0)
        findings.push((0,core_findings/* finding */.gk)('no_decisions', at, `evidence bundle verified; it holds no ${SURFACE_SCHEMA} events, so it contributes no calls`));
    return { run: { artifact: file, decisions }, entries: [], findings, bundle: archive.facts };
}

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./src/read/discover.ts
/**
 * Inputs (paths, directories, globs) → the artifact files they name, inside the workspace, sorted.
 * Nothing outside the workspace is read: a path or glob that escapes it, and a symbolic link that
 * resolves outside it, are errors; links to directories are not descended (no cycles).
 */







/**
 * Directories a walk from the workspace (or the working directory) never enters unless named
 * explicitly: a repository's own git folder and its dependencies. Under a folder the input names (an
 * evidence folder), only `.git` is passed over: a failing run committed as
 * `.assay/runs/node_modules/x.json` passed in silence (a red team).
 */
const PRUNED = new Set(['.git', 'node_modules']);
const ALWAYS_PRUNED = new Set(['.git']);
const toPosix = (p) => p.split(path.sep).join('/');
/** What kind of special file a path is, for messages. */
function special(path) {
    try {
        const st = statSync(path);
        if (st.isFIFO())
            return 'a FIFO';
        if (st.isSocket())
            return 'a socket';
        if (st.isCharacterDevice() || st.isBlockDevice())
            return 'a device';
    }
    catch {
        return 'unreadable';
    }
    return 'a special file';
}
/**
 * Whether `where` is `root` or below it, by their text (resolve links first to compare where they
 * lead). A name that only begins with two dots (`..cache`) is below it: only a `..` segment leads up
 * (a red team's `--cache ..cache` in the checkout passed as outside it).
 */
const discover_inside = (root, where) => {
    const rel = external_node_path_default().relative(root, where);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${(external_node_path_default()).sep}`) && !external_node_path_default().isAbsolute(rel));
};
const relOf = (w, abs) => toPosix(path.relative(w.cwd, abs));
/** An input as a finding names it: its role and the value as given (`runs: .assay/run`). */
const discover_named = (w, input) => `${w.role}: ${input}`;
const where = (rel) => ({ file: rel, line: 1, column: 1 });
/** Whether a walk starts at the workspace itself (or the working directory): it passes over dependencies and what is not read by name. */
const fromTheTop = (state, dir) => {
    const from = path.resolve(dir);
    return from === path.resolve(state.workspace) || from === path.resolve(state.cwd);
};
/**
 * Every regular file under `dir` (and in-workspace links to one), into `take`; problems into
 * `findings`. `inScope` says whether an entry is named by the input at all (a glob's match): one it
 * does not name is never taken and never reported, whatever it is.
 */
function discover_walk(state, dir, input, take, findings, inScope = () => true) {
    const stack = [dir];
    const pruned = fromTheTop(state, dir) ? PRUNED : ALWAYS_PRUNED;
    while (stack.length > 0) {
        const digest = stack.pop();
        let list;
        try {
            list = readdirSync(digest, { withFileTypes: true });
        }
        catch (error) {
            findings.push(finding('invalid_artifact', where(relOf(state, digest) || '.'), `cannot read directory: ${messageOf(error)}`));
            continue;
        }
        for (const ent of list) {
            if (++state.entries > MAX_WALK_ENTRIES) {
                findings.push(inputFinding('invalid_artifact', discover_named(state, input), `more than ${MAX_WALK_ENTRIES} entries under the inputs; narrow the paths`));
                return;
            }
            const abs = path.join(digest, ent.name);
            // A name that is not UTF-8 decodes with U+FFFD: two such names can decode alike, and one then hides
            // the other (a red team: a failing run behind a decoy of the same decoded name). Never read by name.
            if (ent.name.includes('\uFFFD') && (ent.isDirectory() || inScope(abs))) {
                findings.push(finding('invalid_artifact', where(relOf(state, abs)), `a ${ent.isDirectory() ? 'folder' : 'file'} whose name is not UTF-8 (it reads as U+FFFD): names that are not UTF-8 can read alike and hide one another; rename it`));
                continue;
            }
            if (ent.isDirectory()) {
                if (!pruned.has(ent.name))
                    stack.push(abs);
            }
            else if (!inScope(abs)) {
                // Not named by the input: neither read nor reported.
            }
            else if (ent.isFile()) {
                take(abs);
            }
            else if (ent.isSymbolicLink()) {
                discover_link(state, abs, take, findings);
            }
            else if (formatOf(ent.name) === 'attestation') {
                take(abs); // refused once, beside its artifact (gate/evidence.ts), or an orphan
            }
            else if (formatOf(ent.name) !== null) {
                // A FIFO, socket or device with an artifact's name is never read, and never dropped silently.
                findings.push(finding('invalid_artifact', where(relOf(state, abs)), `not a regular file (${special(abs)}); not read`));
            }
        }
    }
}
/**
 * A symbolic link met in a walk: followed to a regular file inside the workspace, never out of it,
 * never into a directory. An attestation's name is taken whatever it leads to: it is read beside
 * its artifact, which refuses it once (gate/evidence.ts), or it is an orphan.
 */
function discover_link(walk, abs, take, findings) {
    const rel = relOf(walk, abs);
    if (formatOf(abs) === 'attestation') {
        take(abs);
        return;
    }
    let real;
    try {
        real = realpathSync(abs);
    }
    catch {
        // A broken link with an artifact's name is never dropped silently; one with another name would not be read if it resolved.
        if (formatOf(abs) !== null)
            findings.push(finding('invalid_artifact', where(rel), 'broken symbolic link'));
        return;
    }
    if (!discover_inside(walk.realWorkspace, real)) {
        findings.push(finding('invalid_artifact', where(rel), 'symbolic link points outside the workspace; not followed'));
        return;
    }
    let st;
    try {
        st = statSync(real);
    }
    catch {
        return;
    }
    if (st.isFile())
        take(abs);
    else if (st.isDirectory())
        // Never silent: a linked folder of bundles would otherwise drop out of the gate with a notice.
        findings.push(finding('no_match', where(rel), 'symbolic link to a directory; not descended (name the folder it leads to as an input)', 'warning'));
    else if (formatOf(abs) !== null)
        findings.push(finding('invalid_artifact', where(rel), `symbolic link to something that is not a regular file (${special(real)}); not read`));
}
/** Whether a regular file is at `p` (a folder of the same name is none: a red team hid a renamed run behind one). */
const isFile = (p) => {
    try {
        return statSync(p).isFile();
    }
    catch {
        return false;
    }
};
/** A file's bytes, up to `max` (and its whole size). */
function head(abs, max) {
    const fd = openSync(abs, 'r');
    try {
        const size = fstatSync(fd).size;
        const bytes = Buffer.alloc(Math.min(size, max));
        let got = 0;
        while (got < bytes.length) {
            const n = readSync(fd, bytes, got, bytes.length - got, got);
            if (n === 0)
                break;
            got += n;
        }
        return { bytes: bytes.subarray(0, got), size };
    }
    finally {
        closeSync(fd);
    }
}
/** Which of `wanted` (trimmed lines) are not lines of the file at `abs`, read a chunk at a time. */
function linesMissing(abs, wanted) {
    const missing = new Set(wanted);
    const fd = openSync(abs, 'r');
    try {
        const chunk = Buffer.alloc(1 << 20);
        let carry = '';
        let position = 0;
        for (;;) {
            const n = readSync(fd, chunk, 0, chunk.length, position);
            position += n;
            const text = carry + (n > 0 ? chunk.toString('utf8', 0, n) : '\n');
            const lines = text.split('\n');
            carry = n > 0 ? (lines.pop() ?? '') : '';
            for (const line of lines)
                missing.delete(line.trim());
            if (n === 0 || missing.size === 0)
                return missing;
        }
    }
    finally {
        closeSync(fd);
    }
}
/**
 * Why a file the gate does not read by its name (a sidecar's, an attestation's, any other) holds
 * evidence (formats.ts `evidenceIn`), located, or null. What is only a copy of the file beside it
 * (`of`: its path, or null; a clear-signed log's lines, a document of the same text) holds nothing
 * unread. A file that cannot be read is said: what it holds is unknown.
 */
function evidenceHeldBy(abs, of, capped = true) {
    try {
        const { bytes, size } = head(abs, SIDECAR_MAX_BYTES);
        const held = evidenceIn(bytes, size, capped);
        const beside = of !== null && isFile(of);
        switch (held.kind) {
            case 'nothing':
                return null;
            case 'evidence':
                return { line: 1, why: held.why };
            case 'document': {
                // A copy is the same text (a document JSON.parse reads alike could hold a key twice, which the reader refuses: a red team).
                const copy = beside && of !== null && readFileSync(of, 'utf8').trim() === held.text.trim();
                return copy ? null : { line: 1, why: 'a JSON document the gate reads as evidence (a run or an export?)' };
            }
            case 'lines': {
                const missing = beside && of !== null ? linesMissing(of, new Set(held.lines.map((l) => l.text))) : null;
                const first = held.lines.find((l) => missing === null || missing.has(l.text));
                return first
                    ? {
                        line: first.line,
                        why: `a line the gate reads as evidence${beside ? ' that the file beside it does not hold' : ''} (an evidence event, an export entry or a server tracing line?)`,
                    }
                    : null;
            }
        }
    }
    catch (e) {
        return { line: 1, why: `it cannot be read (${messageOf(e)}), so what it holds is unknown` };
    }
}
/** One input (a path, a directory or a glob) → the files it names and what went wrong. */
function expand(state, input, noMatch) {
    const findings = [];
    const files = [];
    const attestations = [];
    const add = (abs) => {
        files.push({ path: abs, rel: relOf(state, abs) });
    };
    /**
     * A file that is not an artifact of this role but is not ignored either: an attestation (read
     * beside its artifact) or evidence this role does not read (compressed on its own, an archive not
     * named .tar.gz, a server log among exports: refused by name). False: neither.
     */
    /**
     * @param sniff the file is under a folder the input names (not the workspace itself): a file there the
     *   gate does not read by its name is read to see whether it holds evidence (a red team: a failing run
     *   as `incident.json ` with a trailing space, `incident.json#1`, `incident.txt` passed in silence)
     */
    const besideArtifacts = (abs, sniff = false) => {
        if (formatOf(abs) === 'attestation') {
            attestations.push({ path: abs, rel: relOf(state, abs) });
            return true;
        }
        const unread = unreadText(abs, state.role, isFile);
        if (unread !== null) {
            // A .log among the exports may be the export job's own log: said (a warning), never dropped; one that
            // holds evidence (a coverage statement, records, an agent's server log saved there) is an error: that
            // evidence is not read (a red team: an import's output saved as .log, and a failing run, passed).
            const exportLog = state.role === 'audit' && formatOf(abs) === 'log';
            const held = exportLog && isFile(abs) ? evidenceHeldBy(abs, null, false) : null;
            const at = { file: relOf(state, abs), line: held?.line ?? 1, column: 1 };
            if (held)
                findings.push(finding('invalid_artifact', at, `${unread}; it holds ${held.why}: this evidence is not read`));
            else
                findings.push(finding('invalid_artifact', at, unread, exportLog ? 'warning' : undefined));
            return true;
        }
        if (!sidecarNamed(abs)) {
            const held = sniff && isFile(abs) ? evidenceHeldBy(abs, null, false) : null;
            if (held)
                findings.push(finding('invalid_artifact', { file: relOf(state, abs), line: held.line, column: 1 }, `a file the gate does not read by its name (it reads ${EXTENSION_LIST}), but it holds ${held.why}: this evidence is not read; give it its name, or move it out of the input`));
            return held !== null;
        }
        // Named like a sidecar of the file beside it: one that holds evidence is that evidence renamed, not read.
        const of = sidecarOfWhat(abs);
        const held = isFile(abs) ? evidenceHeldBy(abs, of) : null;
        if (held)
            findings.push(finding('invalid_artifact', { file: relOf(state, abs), line: held.line, column: 1 }, `named like a checksum, signature, certificate or licence${isFile(of) ? ' of the file beside it' : ''}, but it holds ${held.why}: receipt-gate reads a file by its extension, so this evidence is not read; give it its own name, or move it out of the input`));
        return held !== null;
    };
    const { base, glob } = inputRoot(state.cwd, input);
    if (!discover_inside(state.workspace, base)) {
        findings.push(inputFinding('invalid_artifact', discover_named(state, input), `"${input}" is outside the workspace (${state.workspace}); not read`));
        return { files, findings, attestations };
    }
    let st;
    try {
        st = lstatSync(base);
    }
    catch {
        // A default that is absent is no input (a missing .assay/audit means no exports): only an input given explicitly says so.
        const why = glob ? 'no such directory' : 'no such file or directory';
        if (noMatch === 'error')
            findings.push(inputFinding('no_match', discover_named(state, input), `"${input}" matched no file (${why})`, noMatch));
        return { files, findings, attestations };
    }
    // Lexically inside is not enough: the input, or any directory above it, may be a link out.
    let real = '';
    try {
        real = realpathSync(base);
    }
    catch {
        /* a broken link: reported below */
    }
    if (!real || !discover_inside(state.realWorkspace, real)) {
        findings.push(inputFinding('invalid_artifact', discover_named(state, input), `"${input}" resolves (through a symbolic link) to outside the workspace; not followed`));
        return { files, findings, attestations };
    }
    if (st.isSymbolicLink())
        st = statSync(real);
    // A walk from the workspace itself (or the working directory) passes over what is not read by name.
    const sniff = !fromTheTop(state, base);
    if (glob) {
        const match = picomatch(relOf(state, path.resolve(state.cwd, input)), { dot: true });
        let ignored = 0;
        discover_walk(state, base, input, (abs) => {
            const rel = relOf(state, abs);
            if (discoverable(rel, state.role))
                add(abs);
            else if (!besideArtifacts(abs, sniff))
                ignored++;
        }, findings, (abs) => match(relOf(state, abs)));
        if (ignored > 0)
            findings.push(inputFinding('no_match', discover_named(state, input), `"${input}" matched ${ignored} file(s) that are not ${EXTENSION_LIST}; not read`));
    }
    else if (st.isDirectory()) {
        discover_walk(state, base, input, (abs) => (discoverable(abs, state.role) ? add(abs) : besideArtifacts(abs, sniff)), findings);
    }
    else if (st.isFile()) {
        if (!besideArtifacts(base))
            add(base);
    }
    else {
        findings.push(inputFinding('invalid_artifact', discover_named(state, input), `"${input}" is not a regular file or directory`));
        return { files, findings, attestations };
    }
    if (files.length === 0)
        findings.push(inputFinding('no_match', discover_named(state, input), `"${input}" matched no artifact file`, noMatch));
    return { files, findings, attestations };
}
/**
 * @param all       paths, directories or globs, relative to `cwd`; one that starts with `!` is a
 *                  glob that excludes what it matches from the others' files
 * @param cwd       the working directory (names in reports are relative to it)
 * @param workspace nothing outside this directory is read
 * @param explicit  the inputs were given explicitly: one that matches nothing is an error, not a notice
 */
/** Where an input starts: its file or folder, or a glob's fixed folder (absolute), and whether it is a glob. */
function inputRoot(cwd, input) {
    const scan = picomatch.scan(input);
    return { base: path.resolve(cwd, scan.isGlob ? scan.base || '.' : input), glob: scan.isGlob };
}
function discover(all, cwd, workspace, explicit = false, role = 'runs') {
    const trimmed = all.map((i) => i.trim());
    const excludes = trimmed
        .filter((i) => i.startsWith('!'))
        .map((i) => picomatch(toPosix(path.relative(cwd, path.resolve(cwd, i.slice(1)))), { dot: true }));
    let realWorkspace;
    try {
        realWorkspace = realpathSync(workspace);
    }
    catch {
        realWorkspace = path.resolve(workspace);
    }
    const walk = { cwd, workspace, realWorkspace, role, entries: 0 };
    const findings = [];
    const found = new Map();
    const attestations = new Map();
    for (const input of trimmed) {
        if (input === '' || input.startsWith('!'))
            continue;
        const discovery = expand(walk, input, explicit ? 'error' : 'notice');
        for (const f of discovery.findings)
            findings.push(f);
        for (const f of discovery.files)
            if (!found.has(f.rel))
                found.set(f.rel, f);
        for (const f of discovery.attestations)
            attestations.set(f.rel, f);
    }
    const kept = (m) => [...m.values()].filter((f) => !excludes.some((x) => x(f.rel))).sort((a, b) => cmp(a.rel, b.rel));
    return { files: kept(found), findings, attestations: kept(attestations) };
}

;// CONCATENATED MODULE: ./src/read/files.ts
/**
 * One artifact file → what it contributes (a run, records, findings), by its name and role. The
 * file is read once and nothing of it is kept but the prepared decisions and records.
 */










/** A file that contributes nothing but one invalid_artifact about itself (at 1:1). */
const failure = (rel, message) => ({
    run: null,
    entries: [],
    findings: [(0,core_findings/* finding */.gk)('invalid_artifact', { file: rel, line: 1, column: 1 }, message)],
});
const isBundle = (rel) => formats_formatOf(rel) === 'bundle';
/** One artifact's bytes (already in memory) → what it contributes. Used by fuzzing and by readOne. */
async function readArtifact(rel, role, bytes, limits) {
    if (isBundle(rel))
        return role === 'audit' ? failure(rel, BUNDLE_IN_AUDIT) : readBundle({ bytes }, rel, bundleLimits(limits));
    return readTextArtifact(rel, role, bytes, limits);
}
/**
 * Any artifact but an evidence bundle → what it contributes. Synchronous, and nothing it returns
 * refers to `bytes` (the text is decoded into strings), so `bytes` may be reused once it returns.
 */
function readTextArtifact(rel, role, bytes, limits) {
    const format = formats_formatOf(rel);
    if (!format || format === 'bundle')
        return failure(rel, UNSUPPORTED);
    if (format === 'attestation')
        return failure(rel, ATTESTATION);
    if (role === 'runs')
        return readRunFile(rel, bytes, format, limits);
    if (format === 'log')
        return failure(rel, LOG_IN_AUDIT);
    return readAuditFile(rel, bytes, format, limits);
}
const ATTESTATION = 'an attestation sidecar (.intoto.jsonl) is read beside its bundle, never as a run or an audit export';
const LOG_IN_AUDIT = 'server logs are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const BUNDLE_IN_AUDIT = 'evidence bundles are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const UNSUPPORTED = `unsupported file type: expected ${formats_EXTENSION_LIST}`;
/**
 * The buffer this thread reads its inputs into, grown to the largest file read so far up to
 * SCRATCH_MAX (a larger file gets a buffer of its own). A fresh buffer per file is fresh memory
 * for the kernel to fault in, and reading large inputs spent most of `read` there (the profile and
 * the gain: bench/HISTORY.md, "Results (2026-12-01, reading on every core: issue 23)").
 */
let scratch = null;
const SCRATCH_MAX = 64 * 1024 * 1024;
const GREW = (limits) => `file grew past the ${limits.maxFileBytes}-byte limit while it was read (max-file-size)`;
/**
 * A file's bytes within max-file-size, or why not, in this thread's read buffer: the one way an
 * input or a file beside it is read. The view is valid until the next call, so the caller consumes
 * it before it yields or copies it. Read to its end, not to the size stat gave: a file that grows
 * past the limit while it is read is refused all the same.
 */
function readTransient(path, limits) {
    let fd;
    try {
        fd = (0,external_node_fs_namespaceObject.openSync)(path, 'r');
        const size = (0,external_node_fs_namespaceObject.fstatSync)(fd).size;
        if (size > limits.maxFileBytes)
            return { ok: false, reason: (0,read_limits/* fileTooLarge */.ME)(size, limits) };
        // One byte more than the limit allows, to see a file that grew past it.
        const want = Math.min(size, limits.maxFileBytes) + 1;
        let buf;
        if (want > SCRATCH_MAX)
            buf = Buffer.allocUnsafeSlow(want);
        else {
            if (!scratch || scratch.length < want)
                scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_MAX, Math.max(want, 2 * (scratch?.length ?? 32768))));
            buf = scratch;
        }
        let got = 0;
        for (;;) {
            if (got === buf.length) {
                if (got > limits.maxFileBytes)
                    return { ok: false, reason: GREW(limits) };
                const bigger = Buffer.allocUnsafeSlow(Math.min(limits.maxFileBytes + 1, 2 * buf.length));
                buf.copy(bigger, 0, 0, got);
                buf = bigger;
            }
            const n = (0,external_node_fs_namespaceObject.readSync)(fd, buf, got, buf.length - got, null);
            if (n === 0)
                break;
            got += n;
        }
        if (got > limits.maxFileBytes)
            return { ok: false, reason: GREW(limits) };
        return { ok: true, value: buf.subarray(0, got) };
    }
    catch (error) {
        return { ok: false, reason: `cannot read file: ${read_error_ioReason(error)}` };
    }
    finally {
        if (fd !== undefined)
            (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
/** The bytes of a file beside an input, their digest made on first use and kept. */
function besideRead(bytes) {
    let hex = null;
    return { kind: 'read', bytes, sha256: () => (hex ??= (0,binding/* sha256Hex */.fg)(bytes)) };
}
/**
 * The file beside an input (`what` names it in reasons, e.g. "the attestation sidecar"): a link to a
 * file inside the workspace is followed like every input, one that leaves it or is broken is
 * refused, and so is anything but a regular file.
 */
function readBeside(file, what, workspace, limits) {
    const refuse = (reason) => ({ kind: 'refused', reason });
    let st;
    try {
        st = (0,external_node_fs_namespaceObject.lstatSync)(file);
    }
    catch {
        return { kind: 'none' };
    }
    if (st.isSymbolicLink()) {
        let real;
        try {
            real = (0,external_node_fs_namespaceObject.realpathSync)(file);
        }
        catch {
            return refuse(`${what} is a broken symbolic link`);
        }
        if (!discover_inside((0,external_node_fs_namespaceObject.realpathSync)(workspace), real))
            return refuse(`${what} is a symbolic link that points outside the workspace; not followed`);
        st = (0,external_node_fs_namespaceObject.statSync)(real);
    }
    if (!st.isFile())
        return refuse(`${what} is not a regular file; not read`);
    const got = readTransient(file, limits);
    // A copy: the file beside is kept (its envelopes are checked later), the read buffer is not.
    return got.ok ? besideRead(Buffer.from(got.value)) : refuse(got.reason);
}
/**
 * A file a flag or an input names (a key, a trusted root, an export to import), read whole within
 * the file limit. Only a regular file is read (a link to one is followed: the user named it): a
 * FIFO would block and a device never end (`--trusted-root /dev/zero`). The reason when not.
 */
function readNamedFile(file, limits) {
    let st;
    try {
        st = statSync(file);
    }
    catch (error) {
        return { ok: false, reason: `cannot read (${ioReason(error)})` };
    }
    if (!st.isFile())
        return { ok: false, reason: 'not a regular file; not read' };
    const got = readTransient(file, limits);
    // A copy: the read buffer is reused by the next read.
    return got.ok ? { ok: true, value: Buffer.from(got.value) } : got;
}
/** Whether a file's size (as stat says) is within `max` bytes; false when it cannot be stat'ed (its reader says why). */
function sizeWithin(path, max) {
    try {
        return (0,external_node_fs_namespaceObject.statSync)(path).size <= max;
    }
    catch {
        return false;
    }
}
/** Hex sha256 of a file's bytes, streamed (a bundle is never held whole for it). */
async function fileSha256(path) {
    try {
        const hash = (0,external_node_crypto_.createHash)('sha256');
        for await (const chunk of (0,external_node_fs_namespaceObject.createReadStream)(path))
            hash.update(chunk);
        return hash.digest('hex');
    }
    catch {
        return undefined; // the reader reports why the file cannot be read
    }
}
/** @param digest also return the sha256 of the file's bytes (one more hash per input, nothing else) */
async function readOne(file, role, limits, digest = false) {
    const got = await readOneUnless(file, role, limits, digest, null);
    return got.kind === 'found' ? got.value : got.read;
}
/**
 * readOne, asking `lookUp` first with the sha256 of the file's bytes (a content-addressed cache,
 * gate/cache.ts): the file is read once and hashed, and those very bytes are read only when the
 * look-up has nothing (a bundle is streamed: hashed, then read, and its own digest compared).
 * `lookUp` runs synchronously while this thread's read buffer holds the file: it must not read
 * through readTransient. Without one (null), a text file is hashed only when `digest` asks.
 */
async function readOneUnless(file, role, limits, digest, lookUp) {
    const fail = (message) => ({
        kind: 'read',
        read: failure(file.rel, message),
        sha256: null,
        unkeyed: 'a file that cannot be read is tried again each run',
    });
    if (isBundle(file.rel)) {
        if (role === 'audit')
            return fail(BUNDLE_IN_AUDIT);
        // A bundle its reader refuses for its size is never hashed first (its refusal is cheap, its hash is not).
        const hashable = lookUp !== null && sizeWithin(file.path, (0,read_limits/* bundleLimits */.x0)(limits).maxCompressedBytes);
        const first = hashable ? await fileSha256(file.path) : undefined;
        const found = first === undefined || lookUp === null ? null : lookUp(first);
        if (found !== null)
            return { kind: 'found', value: found };
        // Streamed from disk: a bundle is never held whole beyond its events.
        const readResult = await archive_readBundle({ path: file.path }, file.rel, (0,read_limits/* bundleLimits */.x0)(limits));
        const own = readResult.bundle?.archiveSha256;
        const sha256 = digest ? (own ?? first ?? (await fileSha256(file.path))) : undefined;
        return {
            kind: 'read',
            read: sha256 === undefined ? readResult : { ...readResult, sha256 },
            ...(own !== undefined && own === first
                ? { sha256: own }
                : {
                    sha256: null,
                    unkeyed: own === undefined ? 'a bundle its reader refused is read again each run' : 'the bundle changed while it was read',
                }),
        };
    }
    if (!formats_formatOf(file.rel))
        return fail(UNSUPPORTED);
    const got = readTransient(file.path, limits);
    if (!got.ok)
        return fail(got.reason);
    const bytes = got.value;
    // All before anything yields: the buffer is this thread's, and the next file is read into it.
    const sha256 = lookUp !== null || digest ? (0,binding/* sha256Hex */.fg)(bytes) : null;
    const found = sha256 === null || lookUp === null ? null : lookUp(sha256);
    if (found !== null)
        return { kind: 'found', value: found };
    const fileRead = readTextArtifact(file.rel, role, bytes, limits);
    if (sha256 === null)
        return { kind: 'read', read: fileRead, sha256: null, unkeyed: 'no cache' };
    return { kind: 'read', read: digest ? { ...fileRead, sha256 } : fileRead, sha256 };
}

;// CONCATENATED MODULE: ./src/trust/check.ts
/**
 * The trust check of a signed record (§8, docs/records-provenance.md): with trusted keys, a record
 * is trusted only when its well-formed signature member names a trusted key, its signed payload
 * digest is sha256(P), and the Ed25519 signature over PAE(payload_type, P) verifies. Each refusal
 * has its code and its words. Where the Ed25519 verifications run is the reading set-up's
 * (`SignatureChecks`): on the reading thread itself when every core already has one, or on libuv's
 * thread pool when some core has none, at most WINDOW at once per thread (memory stays bounded and file
 * reads on the same pool are not starved), while the thread goes on reading the next file.
 */




/** Where `threads` reading threads on `cores` cores check signatures: on themselves when every core has one (one thread on one core too), else on the pool (it uses the spare cores). */
const check_signatureChecksFor = (threads, cores) => (threads >= cores ? 'inline' : 'pool');
/** An Ed25519 verification on this thread; false for a signature that cannot be one. */
function verifyHere(data, key, signature) {
    try {
        return (0,external_node_crypto_.verify)(null, data, key, signature);
    }
    catch {
        return false;
    }
}
/** Most Ed25519 verifications queued on libuv's pool at once, per thread. */
const WINDOW = 4096;
let running = 0;
const waiting = [];
/** An Ed25519 verification on libuv's thread pool, when the window has room; false for a signature that cannot be one. */
async function verifyOnPool(data, key, signature) {
    if (running >= WINDOW)
        await new Promise((resolve) => waiting.push(resolve));
    running++;
    try {
        return await new Promise((resolve) => {
            try {
                (0,external_node_crypto_.verify)(null, data, key, signature, (err, ok) => resolve(!err && ok));
            }
            catch {
                resolve(false);
            }
        });
    }
    finally {
        running--;
        waiting.shift()?.();
    }
}
/** A signed entry's trust check (§8; a record or a coverage statement): its signer among the trusted keys, its payload digest, then its Ed25519 signature over PAE(its payload type, P). */
async function checkRecordSignature(member, payload, keys, checks) {
    if (!member || payload === undefined)
        return (0,core_trust/* refused */.J5)('unsigned', 'unsigned');
    const key = keys.get(member.key_id);
    if (!key)
        return (0,core_trust/* refused */.J5)('unknown_signer', `unknown signer ${member.key_id}`);
    // P's UTF-8 bytes are hashed and framed straight from its text (never a buffer of P of its own).
    if ((0,binding/* sha256Digest */.sI)(payload) !== member.signed_payload_digest)
        return (0,core_trust/* refused */.J5)('payload_digest_differs', 'payload digest differs');
    const data = paeText(member.payload_type, payload);
    const signature = Buffer.from(member.signature, 'base64');
    const ok = checks === 'inline' ? verifyHere(data, key, signature) : await verifyOnPool(data, key, signature);
    return ok ? { kind: 'trusted', by: { kind: 'key', keyId: member.key_id } } : (0,core_trust/* refused */.J5)('signature_invalid', 'signature does not verify');
}

;// CONCATENATED MODULE: ./src/read/attestation.ts
/**
 * Producer attestations (docs/attestations.md §1): the Statement upstream's `assay evidence
 * attest` signs for a bundle, made from what the verified bundle says (one home: the tool that
 * makes it and the check that reads it both use `bundleStatement`), and the checks of a signed
 * payload against a bundle in upstream's order, each with its own reason. Pure: no keys here.
 */


const EVIDENCE_BUNDLE_V1 = 'https://docs.getassay.dev/attestation/evidence-bundle/v1';
const EVIDENCE_BUNDLE_V0 = 'https://assay.dev/attestation/evidence-bundle/v0';
/** The Statement for a bundle, or why this bundle cannot be attested (upstream refuses to parse its manifest). */
function bundleStatement(facts) {
    if (facts.producer.name === null || facts.producer.version === null) {
        return { ok: false, reason: 'the bundle cannot be attested: its manifest has no producer.name or producer.version' };
    }
    if (facts.window === null)
        return { ok: false, reason: 'the bundle cannot be attested: its events have no time window' };
    return {
        ok: true,
        value: {
            _type: read_envelope/* STATEMENT_TYPE */.zG,
            subject: [{ name: facts.bundleId, digest: { sha256: facts.archiveSha256 } }],
            predicateType: EVIDENCE_BUNDLE_V1,
            predicate: {
                schema_version: 1,
                semantic_equivalence: { algorithm: 'assay-run-root-v1', value: facts.runRoot },
                run: {
                    run_id: facts.runId,
                    event_count: facts.eventCount,
                    producer: { name: facts.producer.name, version: facts.producer.version, git: facts.producer.git ?? '' },
                    time_window: { start: facts.window.start, end: facts.window.end },
                },
            },
        },
    };
}
/** A member's name in a message: dotted when plain, quoted when it holds a dot (never confused with nesting). */
const member = (at, key) => {
    const name = /^[A-Za-z0-9_]+$/.test(key) ? key : JSON.stringify(key.slice(0, 80));
    return at ? `${at}.${name}` : name;
};
/** The first difference between the predicate upstream writes and the one given, compared as nested structures (never flattened names). */
function difference(want, got, at) {
    if (!(0,core_json/* isObject */.Gv)(want))
        return got === want ? null : `predicate field ${at} disagrees with the bundle`;
    if (!(0,core_json/* isObject */.Gv)(got))
        return `predicate field ${at} disagrees with the bundle`;
    for (const k of Object.keys(want)) {
        if (!(0,core_json/* hasOwn */.$3)(got, k))
            return `predicate field ${member(at, k)} disagrees with the bundle`;
        const digest = difference(want[k], got[k], member(at, k));
        if (digest)
            return digest;
    }
    for (const k of Object.keys(got))
        if (!(0,core_json/* hasOwn */.$3)(want, k))
            return `predicate field ${member(at, k)} is not one upstream writes`;
    return null;
}
/**
 * The checks after the signature, in upstream's order: Statement type, predicate type, exactly one
 * subject with exactly one digest (sha256), schema_version, the bundle verified (the caller has
 * facts only for a verified bundle), subject digest against the archive bytes, subject name against
 * the manifest's bundle_id, then every predicate field against what the bundle gives.
 */
function checkBundleStatement(value, facts) {
    if (!(0,core_json/* isObject */.Gv)(value) || value['_type'] !== read_envelope/* STATEMENT_TYPE */.zG)
        return { ok: false, reason: `_type is not ${read_envelope/* STATEMENT_TYPE */.zG}` };
    const type = value['predicateType'];
    if (type === EVIDENCE_BUNDLE_V0)
        return {
            ok: false,
            reason: `predicate type ${EVIDENCE_BUNDLE_V0} names a run root, not an archive: the attestation must be reissued as evidence-bundle/v1`,
        };
    if (type !== EVIDENCE_BUNDLE_V1)
        return {
            ok: false,
            reason: `predicate type is ${JSON.stringify(typeof type === 'string' ? type.slice(0, 120) : type)}, not ${EVIDENCE_BUNDLE_V1}`,
        };
    const subject = (0,read_envelope/* onlySubject */.Lh)(value);
    if (!subject.ok)
        return subject;
    const pred = value['predicate'];
    if (!(0,core_json/* isObject */.Gv)(pred) || pred['schema_version'] !== 1)
        return { ok: false, reason: 'predicate.schema_version is not 1' };
    if (!facts)
        return { ok: false, reason: 'the bundle does not verify' };
    if (subject.value.sha256 !== facts.archiveSha256)
        return { ok: false, reason: 'subject digest differs from the archive' };
    if (subject.value.name !== facts.bundleId)
        return { ok: false, reason: "subject name differs from the manifest's bundle_id" };
    return checkBundlePredicate(pred, facts);
}
/** Every predicate field against what the verified bundle gives (also for a keyless attestation of a bundle, docs/keyless.md). */
function checkBundlePredicate(pred, facts) {
    const expected = bundleStatement(facts);
    if (!expected.ok)
        return expected;
    const digest = difference(expected.value['predicate'], pred, '');
    return digest === null ? { ok: true } : { ok: false, reason: digest };
}

;// CONCATENATED MODULE: ./src/trust/checkers/identities.ts
/**
 * Signer and producer identities (docs/keyless.md): the `<file>.sigstore.json` beside an audit export
 * or a run, checked against the trust set's workflow identities with the Sigstore layer
 * (trust/sigstore.ts), which is loaded only when an identity is configured: the gate's cold start
 * does not pay for it. The trusted roots are parsed once per thread from the same bytes the gate read.
 */




/** The predicate types of keyless attestations (docs/predicates/). */
const RECORDS_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/records-v1.md';
const RUN_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/run-v1.md';
const isObjectPredicate = (p) => ((0,core_json/* isObject */.Gv)(p) ? { ok: true } : { ok: false, reason: 'the predicate is not an object' });
/** The roots of a set-up, parsed once per thread (the gate parses them first, so a root that cannot be used stops it before any file). */
const loaded = new WeakMap();
let publicGood = null;
function rootsOf(source, limits) {
    const load = async () => {
        const { rootsFrom } = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(434)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2434));
        return rootsFrom(source, limits);
    };
    if (source === null)
        return (publicGood ??= load());
    let made = loaded.get(source);
    if (!made)
        loaded.set(source, (made = load()));
    return made;
}
/** What a file's Statement must name as its predicate type (and check of its predicate), by what the file is. */
function predicateFor(file) {
    if (file.role === 'audit')
        return { type: RECORDS_V1, check: isObjectPredicate };
    if (formats_formatOf(file.rel) !== 'bundle')
        return { type: RUN_V1, check: isObjectPredicate };
    const facts = file.read.bundle;
    if (!facts)
        return (0,core_trust/* refused */.J5)('statement_mismatch', 'the bundle does not verify');
    return { type: EVIDENCE_BUNDLE_V1, check: (p) => checkBundlePredicate(p, facts) };
}
async function decide(file, policy, source, limits) {
    const beside = file.sigstore;
    const name = sigstoreOf(file.rel);
    if (beside.kind === 'none')
        return (0,core_trust/* refused */.J5)('no_attestation', `no attestation (no ${sigstoreOf(file.rel.split('/').pop() ?? file.rel)} beside it)`);
    if (beside.kind === 'refused')
        return (0,core_trust/* refused */.J5)('attestation_malformed', `${name}: ${beside.reason}`);
    const predicate = predicateFor(file);
    if ('kind' in predicate)
        return predicate;
    const roots = await rootsOf(source, limits);
    // The gate loaded these same bytes before anything was read: if they fail here, so does the file.
    if (!roots.ok)
        return (0,core_trust/* refused */.J5)('attestation_malformed', `the trusted root cannot be used: ${roots.reason}`);
    const { checkBundles } = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(434)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2434));
    const sha256 = file.read.sha256 ?? '';
    const checked = checkBundles(beside.file, { subject: { name: file.rel, sha256 }, policy, roots: roots.value, predicate }, limits);
    if (!checked.ok)
        return (0,core_trust/* refused */.J5)(checked.reason.code, checked.reason.detail);
    return { kind: 'trusted', by: { kind: 'identity', signer: checked.value } };
}
/** The identity checkers a set-up configures: the signers' (audit exports) and the producers' (runs). */
function identityCheckers(setup, limits) {
    const checker = (role, policy) => ({
        role,
        async check(file) {
            const decision = await decide(file, policy, setup.roots, limits);
            return role === 'audit' ? { kind: 'file', decision } : { kind: 'run', decision };
        },
    });
    return [...(setup.signers ? [checker('audit', setup.signers)] : []), ...(setup.producers ? [checker('runs', setup.producers)] : [])];
}

// EXTERNAL MODULE: ./src/trust/refusal.ts
var refusal = __nccwpck_require__(2510);
;// CONCATENATED MODULE: ./src/trust/envelope.ts
/**
 * Checking a DSSE envelope against trusted keys, in the order docs/attestations.md gives: the
 * payload type first (a key that signed the same bytes under another type must not pass), then the
 * signatures: every signature against every trusted key, trusted when one pair verifies (keyid is
 * never relied on). Reasons: `payload type …`, `unknown … sha256:…` (no signature's keyid names a
 * trusted key), `signature does not verify`.
 */




/** The key_id of the trusted key that verified the envelope, or why none did; each Ed25519 verification on libuv's thread pool (the path record signatures take). */
async function checkEnvelopeAsync(envelope, payloadType, keys, who) {
    if (envelope.payloadType !== payloadType)
        return (0,refusal/* refuse */.T)('payload_type', `payload type is ${JSON.stringify(envelope.payloadType.slice(0, 100))}, not ${payloadType}`);
    const data = pae(payloadType, envelope.payload);
    const tries = [];
    for (const s of envelope.signatures) {
        for (const [keyId, key] of keys) {
            tries.push(verifyOnPool(data, key, s.sig).then((ok) => (ok ? keyId : null)));
        }
    }
    const verified = (await Promise.all(tries)).find((k) => k !== null);
    if (verified)
        return { ok: true, value: verified };
    if (!envelope.signatures.some((s) => keys.has(s.keyid)))
        return (0,refusal/* refuse */.T)('unknown_signer', `unknown ${who} ${(0,core_text/* quote */.hD)(envelope.signatures[0]?.keyid || '(no keyid)')}`);
    return (0,refusal/* refuse */.T)('signature_invalid', 'signature does not verify');
}

;// CONCATENATED MODULE: ./src/trust/checkers/producer-keys.ts
/**
 * Producer keys (semantics §10, docs/attestations.md §1): with trusted producers, a run is attested
 * only when it is an evidence bundle whose `<bundle>.intoto.jsonl` holds an envelope that passes
 * every check with a trusted key, in upstream's order: payload type, signature, strict payload, then
 * the Statement against the verified bundle. Each refusal has its code.
 */





async function checkOne(envelope, facts, keys, limits) {
    const signed = await checkEnvelopeAsync(envelope, read_envelope/* IN_TOTO_PAYLOAD_TYPE */.T4, keys, 'producer');
    if (!signed.ok)
        return (0,core_trust/* refused */.J5)(signed.reason.code, signed.reason.detail);
    const payload = (0,read_envelope/* strictPayload */.iv)(envelope.payload, limits);
    if (!payload.ok)
        return (0,core_trust/* refused */.J5)('statement_mismatch', payload.reason);
    const statement = checkBundleStatement(payload.value, facts);
    if (!statement.ok)
        return (0,core_trust/* refused */.J5)('statement_mismatch', statement.reason);
    return { kind: 'trusted', by: { kind: 'key', keyId: signed.value } };
}
const producerKeys = (keys, limits) => ({
    role: 'runs',
    async check(file) {
        const decision = async () => {
            if (formats_formatOf(file.rel) !== 'bundle')
                return (0,core_trust/* refused */.J5)('not_a_bundle', 'not an evidence bundle: JSON surfaces and server logs cannot be attested by a producer key');
            const sidecar = file.dsse;
            if (sidecar.kind === 'none')
                return (0,core_trust/* refused */.J5)('no_attestation', 'no attestation (no <bundle>.intoto.jsonl sidecar beside it)');
            if (sidecar.kind === 'empty')
                return (0,core_trust/* refused */.J5)('attestation_empty', 'no attestation: the sidecar holds no envelope');
            if (sidecar.kind === 'malformed')
                return (0,core_trust/* refused */.J5)('attestation_malformed', 'the attestation sidecar is malformed (see its invalid_artifact finding)');
            const envelopes = sidecar.envelopes;
            let first = null;
            for (const e of envelopes) {
                const decision = await checkOne(e, file.read.bundle ?? null, keys, limits);
                if (decision.kind === 'trusted')
                    return decision;
                if (decision.kind === 'untrusted')
                    first ??=
                        envelopes.length > 1
                            ? (0,core_trust/* refused */.J5)(decision.code, `${decision.detail} (envelope at line ${e.loc.line}; none of ${envelopes.length} passes)`)
                            : decision;
            }
            return first ?? (0,core_trust/* refused */.J5)('attestation_empty', 'no attestation: the sidecar holds no envelope');
        };
        return { kind: 'run', decision: await decision() };
    },
});

;// CONCATENATED MODULE: ./src/trust/checkers/record-keys.ts
/**
 * Record keys (§8, docs/records-provenance.md): every record of an audit export, and every coverage
 * statement among them, is trusted only when a trusted key signed it. One decision per record; the Ed25519 checks run where the reading set-up says (check.ts, `SignatureChecks`).
 */

const recordKeys = (keys, checks) => ({
    role: 'audit',
    async check(file) {
        const decisions = await Promise.all(file.read.entries.map((r) => checkRecordSignature(r.signature ?? null, r.payload, keys, checks)));
        return { kind: 'records', decisions };
    },
});

;// CONCATENATED MODULE: ./src/trust/checkers/shape-only.ts
/**
 * Shape only: when no producer key is configured, a well-formed `<bundle>.intoto.jsonl` is reported
 * with the signer it names, not checked (the report's producer, `checked: false`). Its shape was
 * checked when it was read (gate/evidence.ts): garbage is never ignored.
 */

const shapeOnly = {
    role: 'runs',
    async check(file) {
        const first = file.dsse.kind === 'envelopes' ? file.dsse.envelopes[0]?.signatures[0] : undefined;
        return { kind: 'run', decision: first ? { kind: 'unchecked', keyId: first.keyid } : core_trust/* NONE */.x3 };
    },
};

;// CONCATENATED MODULE: external "node:url"
const external_node_url_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");
;// CONCATENATED MODULE: ./src/report/output.ts
/**
 * Where an output file is written (the JSON report, SARIF, the verdict, a tool's output): never
 * through a symbolic link, since a link at an output path can be committed to the repository the gate
 * checks out, and a write through it would land on a file of the runner's (or a device). A link to a
 * file is replaced by the output; a FIFO or a character device named as such, and a link to the
 * process's own standard output or error (`/dev/stdout`), are written in place; anything else is
 * refused with its reason.
 */



/** A link to this process's own standard output or error (`/dev/stdout` → `/proc/self/fd/1`, `/dev/fd/2`). */
const OWN_OUTPUT = /^\/(?:proc\/self|dev)\/fd\/[12]$/;
/**
 * How an output reaches `file`: `replace` (nothing there, a file, or a directory, which fails when
 * written), `replace link` (a link to a file or to nothing: replaced, never written through) or
 * `in place` (a FIFO, a character device, the process's own output). Throws for what is refused.
 */
function outputPlace(file) {
    let st;
    try {
        st = lstatSync(file);
    }
    catch {
        return 'replace'; // nothing there yet
    }
    if (st.isFIFO() || st.isCharacterDevice())
        return 'in place';
    if (st.isFile() || st.isDirectory())
        return 'replace';
    if (st.isSymbolicLink()) {
        if (OWN_OUTPUT.test(readlinkSync(file)))
            return 'in place';
        let to = null;
        try {
            to = statSync(file);
        }
        catch {
            // a broken link: replaced by the output
        }
        if (to === null || to.isFile())
            return 'replace link';
        throw new Error(`${file} is a symbolic link to something that is not a regular file; not written`);
    }
    throw new Error(`${file} is not a regular file, a FIFO or a character device; not written`);
}
/** An output that cannot be written, in the words the CLI (exit 2) and the action (`result=error`) both use. */
const cannotWriteText = (what, file, error) => `cannot write ${what} ${file}: ${error instanceof Error ? error.message : String(error)}`;
/**
 * `mkdir -p` one level at a time: the folders of an output made from the nearest one that exists;
 * returns the folders it made, outermost first (what a writer that fails removes again).
 * Node's own recursive mkdir never returns where the kernel answers ENOENT for a folder whose parent
 * exists (under /proc): here that is an error, as any other that stops it.
 */
function makeDirs(dir) {
    const missing = [];
    let at = external_node_path_default().resolve(dir);
    for (;;) {
        let st = null;
        try {
            st = (0,external_node_fs_namespaceObject.statSync)(at);
        }
        catch {
            st = null;
        }
        if (st) {
            if (!st.isDirectory())
                throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${external_node_path_default().resolve(dir)}'`), { code: 'ENOTDIR' });
            break;
        }
        const parent = external_node_path_default().dirname(at);
        if (parent === at)
            break;
        missing.push(at);
        at = parent;
    }
    const made = [];
    for (const d of missing.reverse()) {
        try {
            (0,external_node_fs_namespaceObject.mkdirSync)(d);
            made.push(d);
        }
        catch (error) {
            // Made meanwhile by another writer: as good as made here.
            if (error.code !== 'EEXIST' || !(0,external_node_fs_namespaceObject.statSync)(d).isDirectory())
                throw error;
        }
    }
    return made;
}
/** Folders a failed write made, removed again innermost first (only while empty: never what another writer put there). */
function removeDirs(made) {
    for (const d of [...made].reverse()) {
        try {
            rmdirSync(d);
        }
        catch {
            return; // not empty, or gone: what is left stays
        }
    }
}
/** A new temporary file's path beside `file`: a short name of its own (a legal name of 255 bytes has no room for a longer one). */
const tempBeside = (file) => path.join(path.dirname(file), `.receipt-gate-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
/**
 * Every byte of `text` at the file's position: a write may take fewer bytes than it is given without
 * an error (a disk that fills, a file-size limit), and the next one then says why; one that takes
 * none is an error itself. Never a file cut short that is then renamed into place.
 */
function writeFully(fd, text) {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    for (let off = 0; off < bytes.length;) {
        const n = writeSync(fd, bytes, off, bytes.length - off);
        if (n <= 0)
            throw new Error(`a write took none of ${bytes.length - off} bytes (is the disk full?)`);
        off += n;
    }
}

;// CONCATENATED MODULE: ./src/gate/cache.ts
/**
 * The evidence cache: what one input file contributes (gate/evidence.ts, trust decided) is a pure
 * function of its bytes, the bytes beside it (its attestation sidecars), its path, and the read
 * set-up (limits, hashing, every trust setting and root) of one build. An entry is stored under the
 * sha256 of all of these, so any changed byte, setting or build is another key: a miss.
 *
 * An entry is one file, `<key>.json`: a header line (`{"schema","key","sha256"}`: the key it was
 * stored under and the sha256 of the body) and the body, the reading thread's encoding
 * (read/wire.ts). It is used only when its header names the key asked for, the body's digest
 * matches, and the body passes its shape check (schemas/evidence-cache-entry.schema.json and the
 * vocabularies); otherwise it is ignored, said, and the file is read (and its entry written again).
 * Nothing here fails a gate: a cache that cannot be read or written only costs time.
 *
 * Who writes the directory is trusted like the code that runs the gate: the action fills it only
 * from archives the default branch saved, their entries checked against their key (action/cache.ts),
 * and a verdict (`--vsa`) never reads it. A folder that holds an input is a usage error (gate.ts).
 */









const CACHE_SCHEMA = 'receipt-gate.evidence-cache.v2';
/**
 * JSON of the set-up, with sets as sorted lists. Anything that is not plain data (a key object, a
 * class instance) throws: a setting JSON would write as `{}` must never make two set-ups one key.
 */
function plain(_key, value) {
    if (value instanceof Set)
        return [...value].map(String).sort();
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        return value;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
        throw new Error(`the read set-up holds a ${proto?.constructor?.name ?? 'value'} the cache key cannot name`);
    return value;
}
/**
 * The running build: its version and the digest of every input it was built from
 * (`build-inputs.sha256`, `sha256:<hex>`, written beside the bundles by scripts/build.mjs), so a
 * gate rebuilt from other sources under the same version never reads the entries of another
 * (`unbuilt` when run from the sources: tests). `key`: in full, for the entries' keys; `tag`: short,
 * for the action's archive keys.
 */
function buildOf(version) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    for (const dir of [here, path.dirname(here)]) {
        let text;
        try {
            text = readFileSync(path.join(dir, 'build-inputs.sha256'), 'utf8').trim();
        }
        catch {
            continue;
        }
        const digest = /^sha256:([0-9a-f]{64})$/.exec(text)?.[1];
        if (digest)
            return { key: `${version}+${digest}`, tag: `${version}-${digest.slice(0, 12)}` };
    }
    return { key: `${version}+unbuilt`, tag: `${version}-unbuilt` };
}
/** The part of every key that the whole run shares: the build (`buildOf`) and the read set-up (every member of it). */
const setupKey = (build, setup) => sha256Hex(JSON.stringify([CACHE_SCHEMA, build, setup], plain));
/** What a file beside an input adds to its key: absent, refused (with why), or its bytes' digest. */
function besideKey(beside) {
    if (beside.kind === 'none')
        return 'none';
    if (beside.kind === 'refused')
        return `refused:${beside.reason}`;
    return `sha256:${beside.sha256()}`;
}
/** One file's key: the set-up, its role and path (findings name it), its bytes' digest and what is beside it. */
const entryKey = (cache, role, rel, sha256, beside) => (0,binding/* sha256Hex */.fg)(JSON.stringify([cache.setupKey, role, rel, sha256, beside]));
/** An entry's file name: its key (64 hex digits) and `.json`; nothing else in the folder is one. */
const ENTRY_NAME = /^[0-9a-f]{64}\.json$/;
const entryPath = (cache, key) => external_node_path_default().join(cache.dir, `${key}.json`);
/** An entry larger than this is not read (nor written): it is no entry the gate wrote for one file within the limits. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;
/** A file of the cache's folder opened for reading, never blocking (a FIFO in its place would hang the gate), never through a link; null when absent, else its descriptor or why not. */
function openInCache(file) {
    try {
        return { ok: true, value: (0,external_node_fs_namespaceObject.openSync)(file, external_node_fs_namespaceObject.constants.O_RDONLY | (external_node_fs_namespaceObject.constants.O_NOFOLLOW ?? 0) | (external_node_fs_namespaceObject.constants.O_NONBLOCK ?? 0)) };
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT')
            return null;
        return { ok: false, reason: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code ?? 'error'})` };
    }
}
/** An entry's bytes, read with its own buffer (the file being looked up is in this thread's read buffer), or null when absent; a link is never followed. */
function readEntry(file) {
    const opened = openInCache(file);
    if (opened === null)
        return null;
    if (!opened.ok)
        return { refused: opened.reason };
    const fd = opened.value;
    try {
        const st = (0,external_node_fs_namespaceObject.fstatSync)(fd);
        if (!st.isFile())
            return { refused: 'it is not a regular file' };
        if (st.size > MAX_ENTRY_BYTES)
            return { refused: `it is larger than ${MAX_ENTRY_BYTES} bytes` };
        const buf = Buffer.allocUnsafe(st.size);
        let got = 0;
        while (got < st.size) {
            const n = (0,external_node_fs_namespaceObject.readSync)(fd, buf, got, st.size - got, null);
            if (n === 0)
                break;
            got += n;
        }
        return buf.subarray(0, got);
    }
    catch (error) {
        return { refused: `it cannot be read (${error.code ?? 'error'})` };
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
let shapeCheck = null;
/** The entries' shape check, loaded once per thread and only when a cache is read (its generated code weighs 100 KB). */
const entryShape = () => (shapeCheck ??= __nccwpck_require__.e(/* import() */ 971).then(__nccwpck_require__.bind(__nccwpck_require__, 1971)).then((m) => m.cacheEntry));
/** A verification snapshot's header check (gate/snapshot.ts), in the entries' module. */
const snapshotShape = () => __nccwpck_require__.e(/* import() */ 971).then(__nccwpck_require__.bind(__nccwpck_require__, 1971)).then((m) => m.snapshot);
/** The entry stored under `key`, checked, or why an entry there was ignored (null reason: there was none). */
function lookUp(cache, key, shape) {
    const got = readEntry(entryPath(cache, key));
    if (got === null)
        return { ok: false, reason: null };
    if ('refused' in got)
        return { ok: false, reason: got.refused };
    const newline = got.indexOf(10);
    if (newline < 0)
        return { ok: false, reason: 'it has no header line (truncated?)' };
    let header;
    try {
        header = JSON.parse(got.subarray(0, newline).toString('utf8'));
    }
    catch {
        return { ok: false, reason: 'its header line is not JSON' };
    }
    if ((0,core_json/* str */.gx)(header, 'schema') !== CACHE_SCHEMA)
        return { ok: false, reason: `its header is not ${CACHE_SCHEMA}` };
    if ((0,core_json/* str */.gx)(header, 'key') !== key)
        return { ok: false, reason: 'its header names another key' };
    const body = got.subarray(newline + 1);
    if ((0,core_json/* str */.gx)(header, 'sha256') !== (0,binding/* sha256Hex */.fg)(body))
        return { ok: false, reason: "its body's sha256 is not the one its header names (truncated or altered)" };
    const text = body.toString('utf8');
    const checked = checkWire(text, shape);
    return checked.ok
        ? { ok: true, value: { text, checked: checked.value } }
        : { ok: false, reason: `its body fails its check: ${checked.reason}` };
}
/** Store a file's encoded evidence (read/wire.ts) under `key`: written beside, then renamed into place (a reader never sees half an entry). Why not, or null. */
function store(cache, key, wire) {
    const body = Buffer.from(wire, 'utf8');
    if (body.length > MAX_ENTRY_BYTES)
        return `its entry would be larger than ${MAX_ENTRY_BYTES} bytes`;
    const sha256 = (0,binding/* sha256Hex */.fg)(body);
    const header = Buffer.from(`${JSON.stringify({ schema: CACHE_SCHEMA, key, sha256 })}\n`, 'utf8');
    const final = entryPath(cache, key);
    const temporary = `${final}.${process.pid}.${(0,external_node_crypto_.randomBytes)(6).toString('hex')}.tmp`;
    try {
        makeDirs(cache.dir);
        (0,external_node_fs_namespaceObject.writeFileSync)(temporary, Buffer.concat([header, body]), { flag: 'wx' });
        (0,external_node_fs_namespaceObject.renameSync)(temporary, final);
        return null;
    }
    catch (error) {
        try {
            (0,external_node_fs_namespaceObject.rmSync)(temporary, { force: true });
        }
        catch {
            // what is left is a .tmp file no look-up reads
        }
        return `the entry could not be written (${error.code ?? String(error)})`;
    }
}
function tally(notes) {
    const ignored = notes.filter(([, n]) => n.ignored !== undefined);
    const unstored = notes.filter(([, n]) => n.unstored !== undefined);
    const first = (list, why) => list[0] ? `${list[0][0]}: ${why(list[0][1])}` : null;
    return {
        files: notes.length,
        hits: notes.filter(([, n]) => n.hit).length,
        stored: notes.filter(([, n]) => !n.hit && n.unstored === undefined).length,
        ignored: ignored.length,
        firstIgnored: first(ignored, (n) => n.ignored),
        unstored: unstored.length,
        firstUnstored: first(unstored, (n) => n.unstored),
    };
}
/** The run's cache in one line (the CLI's stderr, the action's log). */
function cacheText(t, dir) {
    const parts = [`${t.hits} of ${t.files} file(s) from the cache`, `${t.stored} read and stored`];
    if (t.ignored > 0)
        parts.push(`${t.ignored} entr${t.ignored === 1 ? 'y' : 'ies'} ignored and the file read (the first: ${t.firstIgnored})`);
    if (t.unstored > 0)
        parts.push(`${t.unstored} not stored (the first: ${t.firstUnstored})`);
    // Files' names are the evidence's: shown, never interpreted (a red team: a name holding a line break and a workflow command).
    return visible(`receipt-gate: cache ${dir}: ${parts.join('; ')}`);
}

;// CONCATENATED MODULE: ./src/gate/evidence.ts
/**
 * One input file, with everything beside it, is the unit of work. `readEvidence` (the main thread)
 * or `readWire` (a worker, which sends text) runs on whichever thread reads the file
 * (gate/readers.ts): it reads and binds the file, finds its sidecars once (one look, one refusal
 * each: `<bundle>.intoto.jsonl`, `<file>.sigstore.json`, their shapes always checked), runs every
 * configured trust checker of its role (src/trust/checkers/), and returns core input with trust
 * decided. Signatures and payloads stay on this thread; what leaves is decisions.
 */














/** The set-up for `threads` reading threads on this machine: where they check record signatures (trust/check.ts, `signatureChecksFor`); the same object when that does not change. */
function evidence_setupForThreads(setup, threads) {
    const signatures = signatureChecksFor(threads, availableParallelism());
    return setup.signatures === signatures ? setup : { ...setup, signatures };
}
/** A file that contributes nothing but one invalid_artifact about itself (at 1:1). */
const evidence_failed = (rel, message) => ({
    run: null,
    records: [],
    statements: [],
    findings: [finding('invalid_artifact', { file: rel, line: 1, column: 1 }, message)],
    digests: [],
});
/** Key material of trusted keys (what crosses to a worker). */
const keyMaterial = (keys) => keys === null ? null : [...keys].map(([keyId, key]) => ({ keyId, spki: key.export({ type: 'spki', format: 'der' }).toString('base64') }));
const keysOf = (material) => new Map(material.map((m) => [m.keyId, (0,external_node_crypto_.createPublicKey)({ key: Buffer.from(m.spki, 'base64'), format: 'der', type: 'spki' })]));
/** The checkers of a set-up, in the order their refusals are told: keys, then identities; made once per thread. */
const made = new WeakMap();
function checkersOf(setup) {
    let list = made.get(setup);
    if (list)
        return list;
    const { trust, limits } = setup;
    list = [
        ...(trust.recordKeys ? [recordKeys(keysOf(trust.recordKeys), setup.signatures)] : []),
        ...(trust.producerKeys ? [producerKeys(keysOf(trust.producerKeys), limits)] : [shapeOnly]),
        ...(trust.identities ? identityCheckers(trust.identities, limits) : []),
    ];
    made.set(setup, list);
    return list;
}
/** Whether identities of this role are configured (then a file's sha256 is needed, and its bundle is checked, not only shaped). */
const identitiesFor = (setup, role) => setup.trust.identities !== null && (role === 'audit' ? setup.trust.identities.signers : setup.trust.identities.producers) !== null;
/** Whether a file has a DSSE sidecar to read: an evidence bundle among the runs. */
const hasDsse = (task) => task.role === 'runs' && formats_formatOf(task.file.rel) === 'bundle';
function readSidecars(task, setup) {
    return {
        dsse: hasDsse(task)
            ? readBeside(sidecarOf(task.file.path), 'the attestation sidecar', setup.workspace, setup.limits)
            : { kind: 'none' },
        sigstore: readBeside(sigstoreOf(task.file.path), 'the Sigstore bundle', setup.workspace, setup.limits),
    };
}
/** A bundle's `<bundle>.intoto.jsonl`, read once; its shape checked whatever is configured. */
function readDsse(task, got, setup, out) {
    if (!hasDsse(task))
        return { kind: 'none' };
    const rel = sidecarOf(task.file.rel);
    if (got.kind === 'none')
        return got;
    if (got.kind === 'refused') {
        out.findings.push((0,core_findings/* finding */.gk)('invalid_artifact', { file: rel, line: 1, column: 1 }, got.reason));
        return { kind: 'malformed' };
    }
    if (setup.digest)
        out.digests.push([rel, got.sha256()]);
    const read = (0,read_envelope/* readEnvelopeFile */.f_)(rel, got.bytes, setup.limits);
    for (const f of read.findings)
        out.findings.push(f);
    if (read.findings.length > 0)
        return { kind: 'malformed' };
    if (read.empty) {
        if (setup.trust.producerKeys === null)
            out.findings.push((0,core_findings/* finding */.gk)('skipped_object', { file: rel, line: 1, column: 1 }, 'the attestation sidecar holds no envelope: it attests nothing'));
        return { kind: 'empty' };
    }
    return { kind: 'envelopes', envelopes: read.envelopes };
}
/** A file's `<file>.sigstore.json`, read once; its shape checked always (garbage is never ignored), its bundles checked by identity when its role has identities. */
async function readSigstore(task, got, setup, out) {
    const rel = sigstoreOf(task.file.rel);
    const at = { file: rel, line: 1, column: 1 };
    if (got.kind === 'none')
        return got;
    if (got.kind === 'refused') {
        out.findings.push((0,core_findings/* finding */.gk)('invalid_artifact', at, got.reason));
        return { kind: 'refused', reason: got.reason };
    }
    if (setup.digest)
        out.digests.push([rel, got.sha256()]);
    // Named where it is imported, so the linter sees which exports are used.
    const { readSigstoreFile } = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(434)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2434));
    const file = readSigstoreFile(rel, got.bytes, setup.limits);
    for (const f of file.findings)
        out.findings.push(f);
    if (file.findings.length === 0 && !identitiesFor(setup, task.role)) {
        const flag = task.role === 'audit' ? '--trusted-signer-identity' : '--trusted-producer-identity';
        out.findings.push((0,core_findings/* finding */.gk)('skipped_object', at, `${file.bundles.length} Sigstore bundle(s), not checked: no trusted identities for this file (${flag})`));
    }
    return { kind: 'read', file };
}
/** A record's trust from the combined decision of its role's checkers (none configured: unchecked). */
function trustOf(decision) {
    if (decision.kind === 'trusted')
        return { kind: 'trusted', by: decision.by };
    if (decision.kind === 'untrusted')
        return { kind: 'untrusted', code: decision.code, reason: decision.detail };
    return { kind: 'unchecked' };
}
/** A run's attestation from the combined decision of its role's checkers. */
function attestationOf(decision, read) {
    const named = { name: read.bundle?.producer.name ?? null, version: read.bundle?.producer.version ?? null };
    if (decision.kind === 'trusted')
        return { kind: 'attested', by: decision.by, ...named };
    if (decision.kind === 'untrusted')
        return { kind: 'unattested', code: decision.code, reason: decision.detail };
    if (decision.kind === 'unchecked' && decision.keyId !== null)
        return { kind: 'unchecked', keyId: decision.keyId, ...named };
    return { kind: 'none' };
}
/** The decision a checker made for the i-th record (a file's decision holds for each). */
const forRecord = (c, i) => c.kind === 'records' ? (c.decisions[i] ?? { kind: 'none' }) : c.decision;
/** The evidence itself (the main thread): an entry is decoded. */
const AS_EVIDENCE = {
    found: (entry, rel) => decodeCheckedWire(entry.checked, rel),
    read: (evidence) => evidence,
};
/** Its encoded text (a worker): an entry's text is sent as it is (checked, never decoded here), a file's evidence encoded once. */
const AS_WIRE = {
    found: (entry) => entry.text,
    read: (evidence, wire, rel) => wire ?? encodeRead(evidence, rel),
};
/** What a look-up answers for a file its task keeps, unchanged (`ReadTask.kept`). */
const KEPT = Symbol('kept');
/** One file and everything beside it → what it contributes, trust decided (see `deliver`). */
const evidence_readEvidence = (task, setup) => deliver(task, setup, AS_EVIDENCE);
/** The same, encoded for the thread that asked (a worker's answer). */
const readWire = (task, setup) => deliver(task, setup, AS_WIRE);
/**
 * One file and everything beside it → what it contributes, trust decided, in `form`. With a cache,
 * the evidence stored for these very bytes (the file's and its sidecars') under this set-up, when
 * there is a sound entry; else the file is read and its evidence stored.
 */
async function deliver(task, setup, form) {
    const { file, role } = task;
    const cache = setup.cache;
    const shape = cache?.read ? await entryShape() : null;
    // Hashed once by this run to the key its task keeps: kept, never decoded (a second collection that reads a few kept files again).
    if (task.hashed !== undefined && task.hashed === task.kept)
        return { value: null, cache: { hit: true, kept: true, key: task.hashed } };
    // Hashed once by this run: the evidence of the bytes it hashed then (an entry refused now is looked up again below, and said).
    if (task.hashed !== undefined && cache !== null && shape !== null) {
        const entry = lookUp(cache, task.hashed, shape);
        if (entry.ok)
            return { value: form.found(entry.value, file.rel), cache: { hit: true, key: task.hashed } };
    }
    const sidecars = readSidecars(task, setup);
    let key = null;
    let ignored;
    const found = (sha256) => {
        if (cache === null)
            return null;
        key = entryKey(cache, role, file.rel, sha256, [besideKey(sidecars.dsse), besideKey(sidecars.sigstore)]);
        if (key === task.kept)
            return KEPT;
        if (shape === null)
            return null;
        const entry = lookUp(cache, key, shape);
        if (entry.ok)
            return entry.value;
        if (entry.reason !== null)
            ignored = entry.reason;
        return null;
    };
    const got = await readOneUnless(file, role, setup.limits, setup.digest || identitiesFor(setup, role), cache === null ? null : found);
    const keyed = (n) => (key === null ? n : { ...n, key });
    if (got.kind === 'found')
        return got.value === KEPT
            ? { value: null, cache: keyed({ hit: true, kept: true }) }
            : { value: form.found(got.value, file.rel), cache: keyed({ hit: true }) };
    const evidence = await judge(task, got.read, sidecars, setup);
    if (cache === null)
        return { value: form.read(evidence, null, file.rel), cache: null };
    // Only evidence of exactly the bytes hashed is stored (a bundle that changed while it was read is not).
    if (got.sha256 === null || key === null)
        return { value: form.read(evidence, null, file.rel), cache: note(ignored, got.unkeyed ?? 'it has no key') };
    // Encoded once: the entry's body is the text a reading thread sends.
    const wire = encodeRead(evidence, file.rel);
    return { value: form.read(evidence, wire, file.rel), cache: keyed(note(ignored, store(cache, key, wire))) };
}
/** What the cache did for a file that was read: an entry ignored, and why it was not stored (null: it was). */
function note(ignored, unstored) {
    return { hit: false, ...(ignored === undefined ? {} : { ignored }), ...(unstored === null ? {} : { unstored }) };
}
/** A file read, and its sidecars → what it contributes, every configured checker of its role run. */
async function judge(task, read, sidecars, setup) {
    const { file, role } = task;
    const out = { findings: [...read.findings], digests: [] };
    if (read.sha256 !== undefined)
        out.digests.push([file.rel, read.sha256]);
    const dsse = readDsse(task, sidecars.dsse, setup, out);
    const sigstore = await readSigstore(task, sidecars.sigstore, setup, out);
    const judged = role === 'runs' ? read.run !== null : read.entries.length > 0;
    const checkers = judged ? checkersOf(setup).filter((c) => c.role === role) : [];
    const under = { path: file.path, rel: file.rel, role, read, dsse, sigstore };
    const decisions = await Promise.all(checkers.map((c) => c.check(under)));
    // Records and coverage statements are trusted alike (docs/coverage.md §1); they leave as two lists.
    const records = [];
    const statements = [];
    read.entries.forEach((entry, i) => {
        const trust = trustOf((0,core_trust/* combine */.kg)(decisions.map((c) => forRecord(c, i))));
        if (entry.kind === 'record')
            records.push({ loc: entry.loc, record: entry.record, recomputed: entry.recomputed, signer: entry.signer, trust });
        else
            statements.push({ loc: entry.loc, statement: entry.statement, signer: entry.signer, trust });
    });
    const run = read.run
        ? {
            artifact: read.run.artifact,
            decisions: read.run.decisions,
            attestation: attestationOf((0,core_trust/* combine */.kg)(decisions.map((c) => forRecord(c, 0))), read),
            ...(read.sha256 === undefined ? {} : { sha256: read.sha256 }),
        }
        : null;
    return {
        run,
        records,
        statements,
        findings: out.findings,
        digests: out.digests,
        ...(read.strays ? { strays: read.strays } : {}),
        ...(read.rejectedClasses ? { rejectedClasses: read.rejectedClasses } : {}),
    };
}

;// CONCATENATED MODULE: ./src/gate/pool.ts



/**
 * Tasks given to one worker at once. The main thread hands out files only between its own reads (a
 * file read there is synchronous), so a worker must hold enough not to go idle meanwhile
 * (bench/HISTORY.md, "Results (2026-12-01, reading on every core: issue 23)").
 */
const DEPTH = 4;
function pending() {
    let done;
    const promise = new Promise((r) => {
        done = r;
    });
    const p = {
        settled: false,
        promise,
        resolve(evidence) {
            p.settled = true;
            done(evidence);
        },
    };
    return p;
}
/** A file whose reading thread failed: an error on the file, so it is never verified and never skipped. */
const stopped = (rel, why) => ({
    value: failed(rel, `the thread reading this file stopped (${why}); it is not verified`),
    cache: null,
});
/** A thread's answer that does not decode fails its file (never an unanswered read, never a crash); null: the file is kept. */
function decoded(text, rel, cache) {
    if (text === null)
        return { value: null, cache };
    try {
        return { value: decodeRead(text, rel), cache };
    }
    catch (error) {
        return stopped(rel, `its answer did not decode: ${error instanceof Error ? error.message : String(error)}`);
    }
}
class WorkerReaders {
    tasks;
    setup;
    start;
    results;
    /** Task indices largest file first: the order workers are given them. */
    order;
    next = 0;
    /** The smallest task not yet looked at from the far end (this thread reads from there while it waits). */
    last;
    /** Tasks held by a worker that died before reading them: given out again first. */
    retry = [];
    /** 1: given to a worker or read here. */
    taken;
    /** Each live worker → the task ids it holds, oldest (the one it is reading) first. */
    held = new Map();
    /** Workers whose reader loaded (one that ends before it did never read a file). */
    online = new Set();
    /** A worker could not be started: no more are, and this thread reads what is left. */
    broken = false;
    /** Wakes read() when tasks come back from a worker that never started. */
    wake = null;
    closing = false;
    /** The set-up this thread reads with once it reads alone. */
    aloneSetup = null;
    /** @param workers threads besides this one (which reads, in path order, the files no worker has been given yet) */
    constructor(tasks, sizes, setup, workers, 
    /** Starts one worker with the reading set-up. */
    start) {
        this.tasks = tasks;
        this.setup = setup;
        this.start = start;
        this.results = tasks.map(pending);
        this.taken = new Uint8Array(tasks.length);
        this.order = tasks.map((_, i) => i).sort((a, b) => item(sizes, b) - item(sizes, a) || a - b);
        this.last = this.order.length - 1;
        for (let k = 0; k < workers; k++)
            this.spawn();
    }
    /**
     * The i-th result. A file no worker has been given yet is read here; while a worker's file is
     * awaited, this thread reads the smallest files nobody has taken (their results wait for their
     * turn), yielding between files so the workers' results come in and they are given more.
     */
    async read(i) {
        // Let the workers' results in first (each gives its worker its next file).
        await new Promise((r) => setImmediate(r));
        if (this.taken[i] === 0) {
            this.taken[i] = 1;
            return this.readHere(i);
        }
        const wanted = item(this.results, i);
        while (!wanted.settled) {
            // Given back by a worker that never started: read it here.
            if (this.taken[i] === 0) {
                this.taken[i] = 1;
                return this.readHere(i);
            }
            const j = this.takeSmallest();
            if (j !== undefined) {
                item(this.results, j).resolve(await this.readHere(j));
                await new Promise((r) => setImmediate(r));
            }
            else
                await new Promise((r) => {
                    this.wake = r;
                    void wanted.promise.then(() => r());
                });
        }
        return wanted.promise;
    }
    readHere(i) {
        // Alone (no worker could start, none is left): signatures are checked as one reading thread checks them.
        const alone = this.broken && this.online.size === 0;
        return readEvidence(item(this.tasks, i), alone ? (this.aloneSetup ??= setupForThreads(this.setup, 1)) : this.setup);
    }
    /** The smallest task nobody has taken (the far end of the workers' order). */
    takeSmallest() {
        while (this.last >= this.next) {
            const id = item(this.order, this.last--);
            if (this.taken[id] === 0) {
                this.taken[id] = 1;
                return id;
            }
        }
        return undefined;
    }
    /** The next task for a worker, or undefined when every task is taken (or workers cannot start). */
    take() {
        if (this.broken)
            return undefined;
        for (;;) {
            const id = this.retry.length > 0 ? this.retry.shift() : this.order[this.next++];
            if (id === undefined)
                return undefined;
            if (this.taken[id] === 0) {
                this.taken[id] = 1;
                return id;
            }
        }
    }
    spawn() {
        let worker;
        try {
            worker = this.start(this.setup);
        }
        catch {
            this.broken = true; // this thread reads every file no worker holds
            return;
        }
        this.held.set(worker, []);
        worker.on('message', (m) => {
            if ('ready' in m)
                this.online.add(worker);
            else
                this.done(worker, m);
        });
        let why = 'it exited';
        worker.on('error', (e) => {
            why = e instanceof Error ? e.message : String(e);
        });
        worker.on('exit', (code) => this.exited(worker, code === 0 ? why : `${why}, code ${code}`));
        this.feed(worker);
    }
    feed(worker) {
        const held = stored(this.held, worker);
        while (held.length < DEPTH) {
            const id = this.take();
            if (id === undefined)
                return;
            const t = item(this.tasks, id);
            held.push(id);
            worker.postMessage({
                id,
                path: t.file.path,
                rel: t.file.rel,
                role: t.role,
                kept: t.kept ?? null,
                hashed: t.hashed ?? null,
            });
        }
    }
    done(worker, m) {
        const held = stored(this.held, worker);
        held.splice(held.indexOf(m.id), 1);
        this.feed(worker);
        const rel = item(this.tasks, m.id).file.rel;
        if ('text' in m)
            item(this.results, m.id).resolve(decoded(m.text, rel, m.cache));
        else
            item(this.results, m.id).resolve(stopped(rel, m.thrown));
    }
    /**
     * A worker ended. One that had started fails the file it was reading, and the ones queued behind
     * it go to a new worker; one that never started read nothing: its files come back to this thread,
     * and no more workers are started.
     */
    exited(worker, why) {
        const held = stored(this.held, worker);
        this.held.delete(worker);
        if (this.closing)
            return;
        if (!this.online.has(worker)) {
            this.broken = true;
            for (const id of held)
                this.taken[id] = 0;
            this.wake?.();
            return;
        }
        this.online.delete(worker);
        const [reading, ...rest] = held;
        if (reading !== undefined)
            item(this.results, reading).resolve(stopped(item(this.tasks, reading).file.rel, why));
        for (const id of rest)
            this.taken[id] = 0;
        this.retry.push(...rest);
        this.wake?.();
        if (!this.broken && (this.retry.length > 0 || this.next < this.order.length))
            this.spawn();
    }
    async close() {
        this.closing = true;
        await Promise.all([...this.held.keys()].map((w) => w.terminate()));
    }
}
/**
 * The worker side: read each task in turn (one file's bytes at a time in this thread's buffer), and
 * send back its encoded result once its checks are done; checks that run on libuv's pool (trust/check.ts)
 * finish while the next file is read.
 */
function serveReads(port, setup) {
    port.postMessage({ ready: true });
    let chain = Promise.resolve();
    const reply = (id, got) => {
        got.then((r) => port.postMessage({ id, text: r.value, cache: r.cache }), (e) => port.postMessage({ id, thrown: e instanceof Error ? e.message : String(e) }));
    };
    port.on('message', (t) => {
        chain = chain.then(() => {
            const task = {
                file: { path: t.path, rel: t.rel },
                role: t.role,
                ...(t.kept === null ? {} : { kept: t.kept }),
                ...(t.hashed === null ? {} : { hashed: t.hashed }),
            };
            reply(t.id, readWire(task, setup));
            return new Promise((resolve) => setImmediate(resolve));
        });
    });
}

;// CONCATENATED MODULE: ./src/gate/read-worker.ts
/** The reading thread's entry (dist/read-worker.js): files in, compact results out (gate/pool.ts). */


serveReads(external_node_worker_threads_namespaceObject.parentPort, external_node_worker_threads_namespaceObject.workerData);

