export const id = 282;
export const ids = [282];
export const modules = {

/***/ 3282:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  importCommand: () => (/* binding */ importCommand)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/core/findings.ts
var findings = __webpack_require__(4637);
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __webpack_require__(2020);
// EXTERNAL MODULE: ./src/core/time.ts
var core_time = __webpack_require__(2334);
// EXTERNAL MODULE: ./src/gate/settings/parsers.ts
var parsers = __webpack_require__(6913);
// EXTERNAL MODULE: ./src/gate/settings/paths.ts
var paths = __webpack_require__(1665);
// EXTERNAL MODULE: ./src/gate/settings/types.ts
var types = __webpack_require__(8324);
// EXTERNAL MODULE: ./src/read/discover.ts
var discover = __webpack_require__(5965);
// EXTERNAL MODULE: ./src/read/files.ts
var files = __webpack_require__(1119);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/core/binding.ts + 1 modules
var binding = __webpack_require__(3491);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __webpack_require__(6153);
// EXTERNAL MODULE: ./src/read/builtins.ts + 1 modules
var builtins = __webpack_require__(5168);
// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __webpack_require__(755);
// EXTERNAL MODULE: ./src/core/target-hash.ts
var target_hash = __webpack_require__(1811);
// EXTERNAL MODULE: ./src/core/model.ts
var model = __webpack_require__(4146);
;// CONCATENATED MODULE: ./src/tools/import/mapping.ts
/**
 * What every importer returns per export entry, and how a record is made from a subject: the one
 * record shape (assay.provider_audit_record.v0, binding recomputed here, non_claims naming the
 * export), whatever the provider.
 */




/** @param vouched what vouches for the entry beyond the export (CloudTrail's signed digest), as the record's non_claims say it */
function makeRecord(m, source, vouched = []) {
    const bound = (0,binding/* binding */.Ch)(m.subject);
    if (!bound.ok)
        throw new Error(`subject cannot be canonicalized: ${bound.reason}`); // subjects here are strings and nulls only
    return {
        schema: model/* RECORD_SCHEMA */.ep,
        provider: m.provider,
        record_id: m.recordId,
        subject: m.subject,
        binding_digest: bound.digest,
        non_claims: [
            `imported from ${source}; receipt-gate queried nothing`,
            'binds an audit entry to a call; does not prove the entry is authentic beyond its signature',
            ...vouched,
        ],
    };
}
/** An id as quoted in a message: ids are not secrets, but are clipped. */
const idText = (s) => JSON.stringify((0,core_text/* quote */.hD)(s, 80));
/**
 * One field an entry may give in several places (Kubernetes: the object reference, the created
 * object, the request's; CloudTrail: the request's parameters and the response): its one value,
 * null when none gives it, or why not (a place that gives it as something other than text, or two
 * places that disagree: which one is meant cannot be said, so it is never guessed).
 */
function oneText(e, field, places, 
/** The field names one thing whatever its ASCII case (an IAM user: its hash lower-cases it too). */
caseless = false) {
    let found = null;
    const same = (a, b) => (caseless ? (0,core_text/* asciiLower */.F)(a) === (0,core_text/* asciiLower */.F)(b) : a === b);
    for (const place of places) {
        const given = (0,json/* memberAt */.mz)(e, [...place, field]);
        if (given === undefined || given === null || given === '')
            continue;
        if (typeof given !== 'string')
            return { error: `${[...place, field].join('.')} is not text` };
        if (found !== null && !same(given, found))
            return { error: `two ${field}s (${idText(found)} and ${idText(given)}): which one is meant cannot be said` };
        found = given;
    }
    return { value: found };
}

;// CONCATENATED MODULE: ./src/tools/import/scope.ts


/** GitHub's places: an entry's organisation is its repository's owner. */
const ORGANISATION = {
    flag: '--owner',
    of: (s) => (s.repo === null ? null : s.repo.slice(0, s.repo.indexOf('/'))),
    missing: 'without a repository',
    other: 'in another organisation',
};
/** A log that is one tenant's (an AWS account, a cluster, an Okta org): the tenant the entry names, called `word`, given by `--flag`. */
const tenantPlace = (word, flag) => ({
    flag: `--${flag}`,
    of: (s) => s.tenant ?? null,
    missing: `without its ${word}`,
    other: `in another ${word}`,
});
/** The skip reason of an entry otherwise in scope that has no time while a window is set. */
const UNTIMED = 'without a time (a window is set)';
/** Why an entry is out of scope (the skip reason), or null when it is in scope; `met` hears what each filter the entry reached compared. */
function outOfScope(f, s, met = () => { }) {
    if (f.actors) {
        const had = s.actors.map((a) => (f.caseless ? (0,core_text/* asciiLower */.F)(a) : a)).find((a) => f.actors?.has(a));
        met('--actor', had ?? null, had === undefined ? (s.actors[0] ?? null) : null);
        if (had === undefined)
            return 'by another actor';
    }
    if (f.repos) {
        const had = s.repo !== null && f.repos.has((0,core_text/* asciiLower */.F)(s.repo));
        met('--repo', had ? (0,core_text/* asciiLower */.F)(s.repo ?? '') : null, had ? null : s.repo);
        if (!had)
            return s.repo === null ? 'without a repository' : 'in another repository';
    }
    if (f.owner !== null) {
        const place = f.place.of(s);
        const had = place !== null && (0,core_text/* asciiLower */.F)(place) === f.owner;
        met(f.place.flag, had ? f.owner : null, had ? null : place);
        if (place === null)
            return f.place.missing;
        if (!had)
            return f.place.other;
    }
    if (f.since !== null || f.until !== null) {
        if (s.time === null)
            return UNTIMED;
        if ((f.since !== null && (0,core_time/* compareInstants */.QI)(s.time, f.since) < 0) || (f.until !== null && (0,core_time/* compareInstants */.QI)(s.time, f.until) >= 0))
            return 'outside the window';
    }
    return null;
}
/**
 * Whether a given scope value is a near miss of one an entry named (both folded as compared): the
 * same but for GitHub's `[bot]` (`deploy-agent`), what one adds to the other after a separator
 * (`acme` for `acme-corp`), or two letters off (`payment-api` for `payments-api`).
 */
function nearMiss(given, named) {
    const [short, long] = given.length <= named.length ? [given, named] : [named, given];
    return long.startsWith(short) && /^[-_.[]/.test(long.slice(short.length)) ? short !== '' : (0,core_text/* editDistance */.YC)(given, named) <= 2;
}
/**
 * What the scope's filters met across an import's entries that map to records: for each flag, the
 * given values some entry had and the values it dropped (with counts). A given value no entry had
 * while entries named a near miss of it dropped them all, night after night, as if each night were
 * quiet (red teams: `--actor deploy-agent` for `deploy-agent[bot]`, `--owner acme` for
 * `acme-corp`, `--repo acme-corp/payment-api` for `payments-api`): a typo.
 */
class ScopeTally {
    f;
    had = new Map();
    dropped = new Map();
    constructor(f) {
        this.f = f;
    }
    /** outOfScope, tallying what each filter met. */
    judge(s) {
        return outOfScope(this.f, s, (flag, given, named) => {
            if (given !== null)
                this.had.set(flag, (this.had.get(flag) ?? new Set()).add(given));
            if (named === null)
                return;
            const counts = this.dropped.get(flag) ?? new Map();
            this.dropped.set(flag, counts.set(named, (counts.get(named) ?? 0) + 1));
        });
    }
    /**
     * The first typo (a given value no entry had, near one the dropped entries named), or, when
     * `nothingKept`, who or where the dropped entries were; null when there is nothing to say.
     */
    note(nothingKept) {
        const { f } = this;
        const flags = [
            ['--actor', f.actors ? [...f.actors] : [], 'by another actor', (x) => (f.caseless ? (0,core_text/* asciiLower */.F)(x) : x)],
            ['--repo', f.repos ? [...f.repos] : [], 'in another repository', core_text/* asciiLower */.F],
            [f.place.flag, f.owner === null ? [] : [f.owner], f.place.other, core_text/* asciiLower */.F],
        ];
        const said = [];
        for (const [flag, given, reason, fold] of flags) {
            const names = [...(this.dropped.get(flag) ?? new Map()).entries()].sort((a, b) => b[1] - a[1] || (0,core_text/* cmp */.r2)(a[0], b[0]));
            if (names.length === 0)
                continue;
            const listed = `${names
                .slice(0, 5)
                .map(([n, k]) => `${n} (${k})`)
                .join(', ')}${names.length > 5 ? ', …' : ''}`;
            const n = names.reduce((sum, [, k]) => sum + k, 0);
            for (const g of given) {
                if (this.had.get(flag)?.has(g))
                    continue;
                const near = names.find(([name]) => nearMiss(g, fold(name)));
                if (near)
                    return {
                        text: `${flag}: no entry that maps to a record has ${g}, and ${n} ${n === 1 ? 'was' : 'were'} ${reason}: ${listed}; did you mean ${flag} ${near[0]} (for ${g})?`,
                        typo: true,
                    };
            }
            said.push(`${n} ${reason}: ${listed}`);
        }
        return nothingKept && said.length > 0 ? { text: `no entry that maps to a record was kept: ${said.join('; ')}`, typo: false } : null;
    }
}
/** `--since` / `--until`: RFC 3339 (any offset, any precision, read exactly), or YYYY-MM-DD for midnight UTC. */
function parseWindowTime(text) {
    const day = (0,core_time/* parseDay */.Iq)(text);
    if (day)
        return day.ok ? day : { ok: false, reason: `"${text}" ${day.reason}` };
    const result = (0,core_time/* parseRfc3339 */.TM)(text);
    if (result.ok)
        return result;
    return { ok: false, reason: `"${text}" is not an RFC 3339 time or a YYYY-MM-DD date: it ${result.reason}` };
}
/**
 * An entry time: RFC 3339 text, or a count since the epoch in the unit its provider writes (`epoch`:
 * GitHub's audit log ms, Slack s); null otherwise. A number is read only where the caller names its
 * unit: a log that writes text (Kubernetes, Okta, CloudTrail) and holds a number says nothing of
 * which unit it counts, and read as ms an in-window entry fell in 1970, skipped as outside the window
 * beside a statement claiming it (a red team).
 */
function entryTime(value, epoch = null) {
    if (typeof value === 'number')
        return epoch === null ? null : (0,core_time/* fromEpochNumber */.n6)(value, epoch === 's' ? 0 : 3);
    if (typeof value === 'string') {
        const result = (0,core_time/* parseRfc3339 */.TM)(value);
        return result.ok ? result.value : null;
    }
    return null;
}
/**
 * The time of an entry whose log writes RFC 3339 text only (Kubernetes, Okta, CloudTrail): the
 * instant, null when the entry has none, or why the one it gives is no time. A time given and
 * unreadable (null or a number too) is an error, never passed over as untimed or as another time:
 * the entry may be inside the window.
 */
function textTime(value) {
    if (value === undefined)
        return { time: null };
    const time = entryTime(value);
    if (time !== null)
        return { time };
    const given = `its time ${JSON.stringify(value).slice(0, 60)} is not an RFC 3339 time`;
    return {
        error: typeof value === 'number'
            ? `${given} (this log writes its times as RFC 3339 text; a number is not read as seconds or milliseconds)`
            : given,
    };
}

// EXTERNAL MODULE: ./src/core/classes.ts
var core_classes = __webpack_require__(5727);
;// CONCATENATED MODULE: ./src/tools/import/tenant-subject.ts
/**
 * The subjects of providers whose log is one tenant's (an AWS account, a Kubernetes cluster, an Okta
 * org; the class table's aws_*, k8s_* and idp_* rows): bound on the tenant and the class's own
 * fields, as the agent's producer (its mapping file) binds them.
 */


/** A write in a tenant's log: the class's provider, the tenant as its first bound field, then these. */
function tenantWrite(recordId, actionClass, verb, tenant, fields, scope) {
    const row = (0,core_classes/* classRow */.FC)(actionClass);
    if (!row?.scope)
        throw new Error(`${actionClass} is not a tenant's class`); // the importers name their classes
    const target = { [row.scope.owner]: (0,target_hash/* label */.Pf)(tenant) };
    for (const [field, value] of fields)
        target[field] = value;
    return { kind: 'record', provider: row.provider, recordId, scope, subject: { action_class: actionClass, verb, target } };
}

;// CONCATENATED MODULE: ./src/tools/import/aws-cloudtrail.ts
/**
 * AWS CloudTrail → aws_iam_access_key/create and aws_iam_role_policy/attach records
 * (docs/importers.md): log files as CloudTrail writes them to S3 (`{"Records": […]}`, `.json` or
 * `.json.gz`) and `aws cloudtrail lookup-events` output (`{"Events": [{"CloudTrailEvent": "<json>"}]}`).
 * IAM's `CreateAccessKey` (the user's name hashed, domain aws_iam_user) and `AttachRolePolicy`; a
 * call that failed (`errorCode`) changed nothing and is skipped and counted. Record id
 * "aws-cloudtrail:" + eventID; the account is the recipient account; the actor is the caller's ARN,
 * and for an assumed role the role's (what a policy or --actor names).
 */






/**
 * The regions CloudTrail logs IAM's calls in: IAM is a global service, and its events are delivered
 * to the trails of US East (N. Virginia), or in the GovCloud and China partitions of us-gov-west-1
 * and cn-north-1 (an account is of one partition). Only digests of these regions can vouch that a
 * window held no IAM event of this importer's (docs/importers.md, CloudTrail's own signature).
 */
const IAM_EVENT_REGIONS = new Set(['us-east-1', 'us-gov-west-1', 'cn-north-1']);
/** A lookup-events entry's event (its CloudTrailEvent is JSON text), or the log file's record itself. */
function eventOf(entry) {
    const text = entry['CloudTrailEvent'];
    if (text === undefined)
        return { event: entry };
    if (typeof text !== 'string')
        return { error: 'a lookup-events entry whose CloudTrailEvent is not JSON text' };
    // Read strictly, as the export around it: a duplicate key would make two readers see two events.
    const parsed = (0,strict/* strictValue */.h)(text);
    if (!parsed.ok)
        return { error: `a lookup-events entry whose CloudTrailEvent is not JSON, read strictly (${parsed.reason})` };
    return (0,json/* isObject */.Gv)(parsed.value) ? { event: parsed.value } : { error: 'a lookup-events entry whose CloudTrailEvent is not a JSON object' };
}
/** Who called: the caller's ARN, and for an assumed role the role's ARN first (the identity an agent's role has). */
function actorsOf(event) {
    const identity = (0,json/* obj */.WL)(event, 'userIdentity');
    const arn = (0,json/* str */.gx)(identity, 'arn');
    const issuer = (0,json/* str */.gx)((0,json/* obj */.WL)((0,json/* obj */.WL)(identity, 'sessionContext'), 'sessionIssuer'), 'arn');
    return [...((0,json/* str */.gx)(identity, 'type') === 'AssumedRole' && issuer ? [issuer] : []), ...(arn ? [arn] : [])];
}
function awsCloudTrail(entry) {
    const read = eventOf(entry);
    if ('error' in read)
        return { kind: 'error', message: read.error };
    const e = read.event;
    if ((0,json/* str */.gx)(e, 'eventSource') !== 'iam.amazonaws.com')
        return { kind: 'skip', reason: 'not an IAM event' };
    const name = (0,json/* str */.gx)(e, 'eventName');
    if (name !== 'CreateAccessKey' && name !== 'AttachRolePolicy')
        return { kind: 'skip', reason: 'other IAM event' };
    const id = (0,json/* str */.gx)(e, 'eventID');
    // A call AWS refused carries errorCode, and errorMessage; either alone is a failure too.
    if ((e['errorCode'] ?? null) !== null || (e['errorMessage'] ?? null) !== null)
        return {
            kind: 'skip',
            reason: 'failed call (errorCode)',
            ...(id ? { event: { kind: 'refused', recordId: `aws-cloudtrail:${id}`, scope: null } } : {}),
        };
    if (!id)
        return {
            kind: 'error',
            message: `${name === 'AttachRolePolicy' ? 'an' : 'a'} ${name} event without an eventID (its record would have no identity)`,
        };
    // The account the call acted in: the recipient's, never guessed from the caller's (a role of another account may call).
    const account = oneText(e, 'recipientAccountId', [[]]);
    if ('error' in account)
        return { kind: 'error', message: `event ${idText(id)}: ${account.error}` };
    if (account.value === null)
        return { kind: 'error', message: `event ${idText(id)}: no recipientAccountId` };
    const time = textTime(e['eventTime']);
    if ('error' in time)
        return { kind: 'error', message: `event ${idText(id)}: ${time.error}` };
    const scope = { actors: actorsOf(e), repo: null, tenant: account.value, time: time.time };
    const params = (0,json/* obj */.WL)(e, 'requestParameters');
    if (name === 'CreateAccessKey') {
        // Without a userName the key is the caller's own; the response names the user either way. Two
        // different users (or one that is not text) are an error: which key was made cannot be said.
        // IAM user names are unique without regard to case: two places naming one in two cases name one user.
        const named = oneText(e, 'userName', [['requestParameters'], ['responseElements', 'accessKey']], true);
        if ('error' in named)
            return { kind: 'error', message: `event ${idText(id)}: ${named.error}` };
        const user = named.value;
        if (!user)
            return { kind: 'error', message: `event ${idText(id)}: a CreateAccessKey naming no user (requestParameters or responseElements)` };
        return tenantWrite(`aws-cloudtrail:${id}`, 'aws_iam_access_key', 'create', account.value, [['user_name_hash', (0,target_hash/* targetHash */.Gu)('aws_iam_user', user)]], scope);
    }
    const role = (0,json/* str */.gx)(params, 'roleName');
    const policy = (0,json/* str */.gx)(params, 'policyArn');
    if (!role || !policy)
        return { kind: 'error', message: `event ${idText(id)}: an AttachRolePolicy without roleName and policyArn` };
    return tenantWrite(`aws-cloudtrail:${id}`, 'aws_iam_role_policy', 'attach', account.value, [
        ['role_name', role],
        ['policy_arn', policy],
    ], scope);
}

;// CONCATENATED MODULE: ./src/tools/import/cloudtrail-digests.ts
/**
 * CloudTrail's own signature (docs/importers.md, "CloudTrail digests"): every hour CloudTrail writes a
 * digest file listing the SHA-256 of each log file it delivered in that hour, and signs it with an
 * AWS key (SHA256withRSA). The signature is not in the file: S3 keeps it in the digest object's
 * metadata (`x-amz-meta-signature`, hex), which the export job saves beside the digest as
 * `<digest file>.sig`. The public keys are `aws cloudtrail list-public-keys` output, committed by the
 * user. A log file is vouched for when a digest whose signature verifies lists its hash; a file no
 * such digest lists is refused before it is read. Nothing here queries AWS.
 *
 * The string AWS signs (AWS CloudTrail User Guide, "Validating CloudTrail log file integrity"): the
 * digest's `digestEndTime`, its S3 path (`digestS3Bucket/digestS3Object`), the hex SHA-256 of the
 * uncompressed digest file, and the previous digest's signature (`null` for a trail's first), one
 * per line. A log file's `hashValue` is the hex SHA-256 of its uncompressed content.
 */








const cloudtrail_digests_text = (bytes) => Buffer.from(bytes).toString('utf8');
/** A gzipped or plain file's bytes, uncompressed (the digests and the log files are gzipped in S3), at most `maxBytes` (the import's --max-file-size). */
function uncompressed(bytes, maxBytes) {
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b)
        return { ok: true, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    try {
        return { ok: true, value: (0,builtins/* zlib */.w5)().gunzipSync(bytes, { maxOutputLength: maxBytes }) };
    }
    catch (error) {
        return { ok: false, reason: `not a gzip file that decompresses within ${maxBytes} bytes (${error.message})` };
    }
}
/** Seconds after a window in which CloudTrail may still deliver its events: the digest of that hour must be given. */
const DELIVERY_HOUR = 3600;
/** A DER RSA public key, PKCS#1 or SubjectPublicKeyInfo (AWS signs digests SHA256withRSA); null for anything else (an EC or Ed25519 key too). */
function derKey(der) {
    for (const type of ['pkcs1', 'spki'])
        try {
            const key = (0,external_node_crypto_.createPublicKey)({ key: der, format: 'der', type });
            return key.asymmetricKeyType === 'rsa' ? key : null;
        }
        catch { }
    return null;
}
/** An RSA signature check that answers false, never throws, on bytes it cannot take. */
function verifies(data, key, signature) {
    try {
        return (0,external_node_crypto_.verify)('sha256', data, key, signature);
    }
    catch {
        return false;
    }
}
/** `list-public-keys` output → its keys by fingerprint (lower-case hex). */
function readPublicKeys(input) {
    const parsed = (0,strict/* strictValue */.h)(cloudtrail_digests_text(input.bytes));
    if (!parsed.ok)
        return {
            ok: false,
            reason: `not strict JSON (${parsed.reason}; aws cloudtrail list-public-keys --output json writes {"PublicKeyList": […]})`,
        };
    const value = parsed.value;
    const list = (0,json/* isObject */.Gv)(value) ? value['PublicKeyList'] : undefined;
    if (!Array.isArray(list) || list.length === 0)
        return { ok: false, reason: 'no PublicKeyList (the output of aws cloudtrail list-public-keys)' };
    const keys = new Map();
    for (const [i, entry] of list.entries()) {
        const fingerprint = (0,json/* str */.gx)(entry, 'Fingerprint')?.toLowerCase();
        const der = (0,json/* str */.gx)(entry, 'Value');
        if (!fingerprint || !der)
            return { ok: false, reason: `PublicKeyList[${i}] has no Fingerprint or Value` };
        // The DER encoding of the key, base64 in the CLI's JSON: PKCS#1 (RSAPublicKey) as AWS documents it, or SubjectPublicKeyInfo as one of its samples is.
        const bytes = Buffer.from(der, 'base64');
        // A fingerprint is the MD5 of the key's DER as listed (the AWS CLI's own sample holds so): a key under another key's fingerprint is refused.
        if ((0,external_node_crypto_.createHash)('md5').update(bytes).digest('hex') !== fingerprint)
            return {
                ok: false,
                reason: `PublicKeyList[${i}] (${(0,core_text/* quote */.hD)(fingerprint, 40)}): its Fingerprint is not the MD5 of its Value: not the key that fingerprint names`,
            };
        const key = derKey(bytes);
        if (!key)
            return {
                ok: false,
                reason: `PublicKeyList[${i}] (${(0,core_text/* quote */.hD)(fingerprint, 40)}): Value is not a DER RSA public key (PKCS#1 or SubjectPublicKeyInfo, base64)`,
            };
        // CLI v2 writes ISO 8601 with an offset, CLI v1 seconds since the epoch. A bound that is absent or
        // unreadable is refused: read as no bound, a key would sign for ever (a validity that fails open).
        const time = (k) => {
            const t = (0,json/* isObject */.Gv)(entry) ? entry[k] : undefined;
            if (typeof t === 'number')
                return (0,core_time/* fromEpochNumber */.n6)(t, 0);
            const parsed = typeof t === 'string' ? (0,core_time/* parseRfc3339 */.TM)(t) : null;
            return parsed?.ok ? parsed.value : null;
        };
        const from = time('ValidityStartTime');
        const to = time('ValidityEndTime');
        if (from === null || to === null)
            return {
                ok: false,
                reason: `PublicKeyList[${i}] (${(0,core_text/* quote */.hD)(fingerprint, 40)}): ${from === null ? 'ValidityStartTime' : 'ValidityEndTime'} is not an RFC 3339 time or seconds since the epoch (when the key signs cannot be told)`,
            };
        keys.set(fingerprint, { key, from, to });
    }
    return { ok: true, value: keys };
}
/** One digest file and its signature → the digest, or why AWS did not sign it (uncompressed, at most `maxBytes`). */
function readDigest(input, signatureHex, keys, maxBytes) {
    const bytes = uncompressed(input.bytes, maxBytes);
    if (!bytes.ok)
        return bytes;
    const parsed = (0,strict/* strictValue */.h)(bytes.value.toString('utf8'));
    if (!parsed.ok)
        return { ok: false, reason: `not strict JSON (${parsed.reason}; a CloudTrail digest file, gzipped or not)` };
    const value = parsed.value;
    if (!(0,json/* isObject */.Gv)(value))
        return { ok: false, reason: 'not a digest (a JSON object)' };
    const d = value;
    const startText = (0,json/* str */.gx)(d, 'digestStartTime');
    const endText = (0,json/* str */.gx)(d, 'digestEndTime');
    const bucket = (0,json/* str */.gx)(d, 'digestS3Bucket');
    const object = (0,json/* str */.gx)(d, 'digestS3Object');
    const fingerprint = (0,json/* str */.gx)(d, 'digestPublicKeyFingerprint')?.toLowerCase() ?? null;
    if (!startText || !endText || !bucket || !object || !fingerprint || !Array.isArray(d['logFiles']))
        return {
            ok: false,
            reason: 'not a CloudTrail digest (digestStartTime, digestEndTime, digestS3Bucket, digestS3Object, digestPublicKeyFingerprint, logFiles)',
        };
    const place = digestPlace(object, d['awsAccountId']);
    if (!place.ok)
        return place;
    const start = (0,core_time/* parseRfc3339 */.TM)(startText);
    if (!start.ok)
        return { ok: false, reason: `digestStartTime ${start.reason}` };
    const end = (0,core_time/* parseRfc3339 */.TM)(endText);
    if (!end.ok)
        return { ok: false, reason: `digestEndTime ${end.reason}` };
    if ((0,json/* str */.gx)(d, 'digestSignatureAlgorithm') !== 'SHA256withRSA')
        return { ok: false, reason: `digestSignatureAlgorithm is ${JSON.stringify(d['digestSignatureAlgorithm'] ?? null)}, not SHA256withRSA` };
    const key = keys.get(fingerprint);
    if (!key)
        return { ok: false, reason: `signed by the key ${(0,core_text/* quote */.hD)(fingerprint, 40)}, which the public keys file does not list` };
    if ((0,core_time/* compareInstants */.QI)(end.value, key.from) < 0 || (0,core_time/* compareInstants */.QI)(end.value, key.to) > 0)
        return { ok: false, reason: `signed by the key ${fingerprint} outside its validity` };
    const signature = signatureHex.trim().toLowerCase();
    if (!/^(?:[0-9a-f]{2})+$/.test(signature))
        return { ok: false, reason: 'its .sig is not hex (x-amz-meta-signature as head-object returns it)' };
    const previous = d['previousDigestSignature'];
    const previousText = typeof previous === 'string' ? previous.toLowerCase() : null;
    const signed = `${endText}\n${bucket}/${object}\n${(0,binding/* sha256Hex */.fg)(bytes.value)}\n${previousText ?? 'null'}`;
    if (!verifies(Buffer.from(signed, 'utf8'), key.key, Buffer.from(signature, 'hex')))
        return {
            ok: false,
            reason: `its signature does not verify with the key ${fingerprint}: the digest, or its .sig, is not the one AWS wrote`,
        };
    const logs = new Map();
    for (const [i, f] of d['logFiles'].entries()) {
        const file = logFileOf(f);
        // An entry it cannot read is refused: dropped, the log file it lists would never be asked for, and a window claimed without it.
        if ('error' in file)
            return { ok: false, reason: `its logFiles[${i}]${file.named} ${file.error}: which log file it vouches for cannot be said` };
        logs.set(file.hash, file.log);
    }
    return {
        ok: true,
        value: {
            name: input.name,
            path: `${bucket}/${object}`,
            start: start.value,
            end: end.value,
            fingerprint,
            signature,
            previous: previousText,
            trail: trailOf(object),
            account: place.value.account,
            region: place.value.region,
            logs,
        },
    };
}
/**
 * One entry of a digest's `logFiles`: the hex SHA-256 of the log file (CloudTrail writes only
 * `SHA-256`), its S3 object and the span of its events (null or absent: not given); or what is
 * wrong with it, and the S3 object it names when it names one (words for the refusal).
 */
function logFileOf(f) {
    if (!(0,json/* isObject */.Gv)(f))
        return { error: 'is not an object', named: '' };
    const s3Object = (0,json/* str */.gx)(f, 's3Object');
    const named = s3Object ? ` (${(0,core_text/* quote */.hD)(s3Object, 120)})` : '';
    if (!s3Object)
        return { error: 'has no s3Object (text)', named };
    const algorithm = f['hashAlgorithm'];
    if (algorithm !== 'SHA-256')
        return { error: `has hashAlgorithm ${JSON.stringify(algorithm ?? null).slice(0, 40)}, not "SHA-256"`, named };
    const hash = (0,json/* str */.gx)(f, 'hashValue');
    if (hash === null || !/^[0-9a-fA-F]{64}$/.test(hash))
        return { error: 'has no hashValue that is a hex SHA-256', named };
    const oldest = eventTime(f['oldestEventTime']);
    const newest = eventTime(f['newestEventTime']);
    // A time given and unreadable is refused, never read as none: a file a later digest lists would be placed by that digest's hour, not its events.
    if (oldest === undefined)
        return { error: 'has an oldestEventTime that is not an RFC 3339 time', named };
    if (newest === undefined)
        return { error: 'has a newestEventTime that is not an RFC 3339 time', named };
    return { hash: hash.toLowerCase(), log: { s3Object, oldest, newest } };
}
/** A log file's event time: the instant, null when not given (absent or null), undefined when given and unreadable. */
function eventTime(given) {
    if (given === undefined || given === null)
        return null;
    const t = typeof given === 'string' ? (0,core_time/* parseRfc3339 */.TM)(given) : null;
    return t?.ok ? t.value : undefined;
}
/**
 * The account and region a digest is of: its S3 object key names them
 * (`[prefix/]AWSLogs/[o-ORG/]ACCOUNT/CloudTrail-Digest/REGION/YYYY/MM/DD/NAME`, part of what AWS
 * signs) and its `awsAccountId` must say the same account; a digest that names none, or two, is
 * refused (whose log it vouches for cannot be said).
 */
function digestPlace(object, awsAccountId) {
    const m = /(?:^|\/)AWSLogs\/(?:o-[a-z0-9]+\/)?(\d{12})\/CloudTrail-Digest\/([a-z]{2}(?:-[a-z]+)+-\d+)\/\d{4}\/\d{2}\/\d{2}\/[^/]+$/.exec(object);
    const [, account, region] = m ?? [];
    if (account === undefined || region === undefined)
        return {
            ok: false,
            reason: `its digestS3Object (${(0,core_text/* quote */.hD)(object, 120)}) is not …/AWSLogs/ACCOUNT/CloudTrail-Digest/REGION/YYYY/MM/DD/…: whose log it vouches for cannot be said`,
        };
    if (awsAccountId !== account)
        return {
            ok: false,
            reason: `its awsAccountId (${typeof awsAccountId === 'string' ? (0,core_text/* quote */.hD)(awsAccountId, 40) : typeof awsAccountId}) is not the account its S3 path names (${account})`,
        };
    return { ok: true, value: { account, region } };
}
/**
 * The chain a digest belongs to: its S3 key without the day's folders and its end time
 * (`…/CloudTrail-Digest/REGION/YYYY/MM/DD/ACCOUNT_CloudTrail-Digest_REGION_TRAIL_HOME_YYYYMMDDTHHMMSSZ[_backfill].json.gz`).
 */
function trailOf(object) {
    const slash = object.lastIndexOf('/');
    const folder = object.slice(0, slash).replace(/\/\d{4}\/\d{2}\/\d{2}$/, '');
    const name = object.slice(slash + 1);
    const stem = /^(.*)_\d{8}T\d{6}Z(?:_backfill)?\.json(?:\.gz)?$/.exec(name)?.[1] ?? name;
    return `${folder}/${stem}`;
}
/**
 * The digests (each with its `.sig`) and the public keys → what they vouch for. Every digest must
 * verify, and with an account named (`--account`) be of that account: another account's digests,
 * however complete, vouch for nothing of it. A chain whose digest names a previous signature no
 * digest given has is a gap, said.
 */
function checkDigests(digests, keysFile, maxBytes, account) {
    const keys = readPublicKeys(keysFile);
    if (!keys.ok)
        return { ok: false, reason: `${keysFile.name}: ${keys.reason}` };
    const good = [];
    const refused = [];
    for (const { digest, signature } of digests) {
        const got = readDigest(digest, signature, keys.value, maxBytes);
        if (!got.ok)
            refused.push({ file: digest.name, message: `this CloudTrail digest is refused: ${got.reason}` });
        else if (account !== null && got.value.account !== account)
            refused.push({
                file: digest.name,
                message: `this CloudTrail digest is refused: it is account ${got.value.account}'s (its awsAccountId and S3 path), not ${(0,core_text/* quote */.hD)(account, 40)}'s (--account): it vouches for nothing of that account's log`,
            });
        else
            good.push(got.value);
    }
    const vouched = new Map();
    for (const d of good)
        for (const [hash, { s3Object }] of d.logs)
            vouched.set(hash, `log file ${s3Object} is AWS's as delivered: listed in the AWS-signed CloudTrail digest ${d.path} (SHA256withRSA, key ${d.fingerprint})`);
    // Each trail's chain in time order: every digest's previous signature is the one before it.
    const gaps = [];
    const trails = new Map();
    for (const d of good)
        trails.set(d.trail, [...(trails.get(d.trail) ?? []), d]);
    for (const chain of trails.values()) {
        chain.sort((a, b) => (0,core_time/* compareInstants */.QI)(a.end, b.end) || (0,core_text/* cmp */.r2)(a.path, b.path));
        for (let i = 1; i < chain.length; i++) {
            const [before, after] = [chain[i - 1], chain[i]];
            if (before && after && after.previous !== before.signature)
                gaps.push(`the digest chain has a gap before ${after.path}: its previous digest is not ${before.path} (a digest missing, or one not AWS's)`);
        }
    }
    return { ok: true, value: { vouched, refused, gaps, digests: good.length, chains: [...trails.values()] } };
}
/**
 * What the digests cannot vouch for in a window an import claims to cover (its coverage statement):
 * a gap in a trail's chain, a stretch of the window no digest of the trail spans, a log file listed
 * by a digest whose hour overlaps the window that was not given (`read`: the hashes of the log files
 * read), or no trail of the region IAM logs its calls in. Empty: for every trail given, the window is
 * AWS-signed from end to end and every log file AWS delivered in it was read, and one of those trails
 * is of IAM's region. A statement is never written over less.
 */
function windowUncovered(check, since, until, read) {
    const problems = [];
    // The events a statement covers (IAM's) are logged in one region: only that region's trail can say
    // the window held none. Other regions' digests, however complete, say nothing of them.
    if (!check.chains.some((chain) => chain.some((d) => IAM_EVENT_REGIONS.has(d.region))))
        problems.push(`no digest given is of the region CloudTrail logs IAM's calls in (${[...IAM_EVENT_REGIONS].join(', ')}; given: ${[...new Set(check.chains.flatMap((c) => c.map((d) => d.region)))].sort(core_text/* cmp */.r2).join(', ') || 'none'}): IAM is a global service, and the digests of other regions do not list its events; give that region's digests and log files`);
    const inWindow = (d) => (0,core_time/* compareInstants */.QI)(d.start, until) < 0 && (0,core_time/* compareInstants */.QI)(d.end, since) > 0;
    // CloudTrail delivers a log file within minutes of its events, and lists it in the digest of the hour
    // it was delivered in: the window's last events may be listed by the digest of the hour after it
    // (a red team: a statement was written with the 10:58 call in a file delivered at 11:04, unread).
    const after = { seconds: until.seconds + DELIVERY_HOUR, fraction: until.fraction };
    for (const chain of check.chains) {
        // A break in the chain between two digests of the window (one outside it, of another day given, is only said).
        for (let i = 1; i < chain.length; i++) {
            const [before, after] = [chain[i - 1], chain[i]];
            if (before && after && inWindow(before) && inWindow(after) && after.previous !== before.signature)
                problems.push(`the digest chain has a gap before ${after.path}: its previous digest is not ${before.path}`);
        }
        const byStart = [...chain].sort((a, b) => (0,core_time/* compareInstants */.QI)(a.start, b.start));
        // The first stretch of the window no digest of the trail spans, if any.
        let covered = since;
        let hole = null;
        for (const d of byStart) {
            if ((0,core_time/* compareInstants */.QI)(d.end, covered) <= 0)
                continue;
            if ((0,core_time/* compareInstants */.QI)(d.start, covered) > 0) {
                hole = d.start;
                break;
            }
            covered = d.end;
        }
        if ((0,core_time/* compareInstants */.QI)(covered, after) < 0) {
            const to = hole !== null && (0,core_time/* compareInstants */.QI)(hole, after) < 0 ? hole : after;
            problems.push((0,core_time/* compareInstants */.QI)(covered, until) >= 0
                ? `no AWS-signed digest of ${byStart[0]?.trail ?? 'the trail'} spans ${(0,core_time/* rfc3339 */.ag)(covered)} to ${(0,core_time/* rfc3339 */.ag)(to)}, the hour after the window: CloudTrail delivers a window's last events then, so the window cannot be claimed read to its end; give that hour's digest and the log files it lists (wait for it to be delivered)`
                : `no AWS-signed digest of ${byStart[0]?.trail ?? 'the trail'} spans ${(0,core_time/* rfc3339 */.ag)(covered)} to ${(0,core_time/* rfc3339 */.ag)((0,core_time/* compareInstants */.QI)(to, until) < 0 ? to : until)}: what was delivered then cannot be vouched for`);
        }
        // Every log file a digest of the window lists, and every one a digest outside it lists whose events
        // reach into the window (delivered after the hour it happened in: a red team), must have been read.
        // A listed file whose event times are not given may reach into the window too, when its digest is of the hour after it.
        const reaches = (d, f) => f.oldest !== null && f.newest !== null
            ? (0,core_time/* compareInstants */.QI)(f.oldest, until) < 0 && (0,core_time/* compareInstants */.QI)(f.newest, since) >= 0
            : (0,core_time/* compareInstants */.QI)(d.start, after) < 0 && (0,core_time/* compareInstants */.QI)(d.end, since) > 0;
        for (const d of chain)
            for (const [hash, f] of d.logs)
                if ((inWindow(d) || reaches(d, f)) && !read.has(hash))
                    problems.push(inWindow(d)
                        ? `log file ${f.s3Object}, listed by the digest ${d.path} in the window, was not given`
                        : f.oldest !== null && f.newest !== null
                            ? `log file ${f.s3Object}, listed by the digest ${d.path}, holds events from ${(0,core_time/* rfc3339 */.ag)(f.oldest)} to ${(0,core_time/* rfc3339 */.ag)(f.newest)}, inside the window, and was not given`
                            : `log file ${f.s3Object}, listed by the digest ${d.path} of the hour after the window without its event times (it may hold the window's last events), was not given`);
    }
    return problems;
}
/**
 * A log file vouched for by a verified digest: the words its records carry, and its uncompressed
 * content (hashed once, then read as it is); or why it is refused before it is read.
 */
function vouchLogFile(check, input, maxBytes) {
    const plain = uncompressed(input.bytes, maxBytes);
    if (!plain.ok)
        return plain;
    const sha256 = (0,binding/* sha256Hex */.fg)(plain.value);
    const words = check.vouched.get(sha256);
    if (words !== undefined)
        return { ok: true, value: { words, bytes: plain.value, sha256 } };
    return {
        ok: false,
        reason: `no AWS-signed digest lists this log file (sha256 ${sha256}): edited after CloudTrail delivered it, or its digest is not among --cloudtrail-digests (lookup-events output is no log file: import the S3 log files to check them)`,
    };
}

// EXTERNAL MODULE: ./src/read/provider-exports.ts
var provider_exports = __webpack_require__(2309);
;// CONCATENATED MODULE: ./src/tools/import/github-subject.ts
/**
 * The subjects GitHub's exports map to (the github_* rows of the class table, core/classes.ts): a
 * deploy key created (the class upstream's verifier binds: owner, repo, key_title_hash), and the
 * writes agents do most (issues, comments, pull requests, pushes, labels, members), whichever
 * export they came from.
 */

/** A GitHub write (a github_* class), bound on owner, repo and its class's own fields, as the agent's producer binds them. */
function githubWrite(recordId, actionClass, verb, owner, repo, fields, scope) {
    return {
        kind: 'record',
        provider: 'github',
        recordId,
        scope,
        subject: { action_class: actionClass, verb, target: { owner: (0,target_hash/* label */.Pf)(owner), repo: (0,target_hash/* label */.Pf)(repo), ...fields } },
    };
}
/** A deploy key created, its title hashed as the agent hashes it. */
const deployKey = (recordId, owner, repo, title, scope) => githubWrite(recordId, 'github_deploy_key', 'create', owner, repo, { key_title_hash: (0,target_hash/* targetHash */.Gu)('github_key_title', title) }, scope);

;// CONCATENATED MODULE: ./src/tools/import/github-audit-log.ts
/**
 * GitHub's organisation or enterprise audit log → github_deploy_key/create and (repo.add_member)
 * github_repo_member/add records
 * (docs/importers.md): REST pages and the UI's JSON export (arrays) and audit-log streaming (JSON
 * lines, gzipped or not). `public_key.create` with a `repo` and a `title`; record_id
 * "github-audit:" + _document_id. Never copies `key`, `fingerprint` or the actor into a record or a
 * message.
 */





function githubAuditLog(entry) {
    if (entry['action'] === 'repo.add_member')
        return repoMember(entry);
    if (entry['action'] !== 'public_key.create')
        return { kind: 'skip', reason: 'other action' };
    const id = (0,json/* str */.gx)(entry, '_document_id');
    if (!id)
        return { kind: 'error', message: 'a public_key.create entry without a _document_id (its record would have no identity)' };
    const repo = (0,json/* str */.gx)(entry, 'repo');
    if (!repo)
        return { kind: 'skip', reason: 'user key without repo' };
    const title = (0,json/* str */.gx)(entry, 'title');
    if (!title)
        return { kind: 'skip', reason: 'no title' };
    const where = placeOf(id, entry, repo);
    return 'kind' in where ? where : deployKey(`github-audit:${id}`, where.owner, where.name, title, where.scope);
}
/** `repo.add_member`: a collaborator added to a repository → github_repo_member/add, the member's login hashed (`user`). */
function repoMember(entry) {
    const id = (0,json/* str */.gx)(entry, '_document_id');
    if (!id)
        return { kind: 'error', message: 'a repo.add_member entry without a _document_id (its record would have no identity)' };
    const where = placeOf(id, entry, (0,json/* str */.gx)(entry, 'repo'));
    if ('kind' in where)
        return where;
    const user = (0,json/* str */.gx)(entry, 'user');
    if (!user)
        return { kind: 'error', message: `entry ${idText(id)}: a repo.add_member entry without the user added` };
    const fields = { user_hash: (0,target_hash/* targetHash */.Gu)('github_user', user) };
    return githubWrite(`github-audit:${id}`, 'github_repo_member', 'add', where.owner, where.name, fields, where.scope);
}
/** An entry's repository as owner and name, and its scope (actor, repository, time); or the error when `repo` is not "owner/name". */
function placeOf(id, entry, repo) {
    const slash = repo?.indexOf('/') ?? -1;
    if (!repo || slash <= 0 || slash === repo.length - 1)
        return { kind: 'error', message: `entry ${idText(id)}: repo is not "owner/name"` };
    const actor = (0,json/* str */.gx)(entry, 'actor');
    const time = entryTime(entry['@timestamp'], 'ms') ?? entryTime(entry['created_at'], 'ms');
    return { owner: repo.slice(0, slash), name: repo.slice(slash + 1), scope: { actors: actor ? [actor] : [], repo, time } };
}

;// CONCATENATED MODULE: ./src/tools/import/github-webhook.ts
/**
 * GitHub webhook deliveries → records (docs/importers.md): the deliveries REST endpoints (`guid`,
 * `request.headers`, `request.payload`). `deploy_key` created → github_deploy_key/create; `issues`
 * opened/closed (an issue transferred in is not created), `issue_comment` created, `pull_request`
 * opened/closed (merged: merge), `push` (a branch not deleted), `issues`/`pull_request` labeled (the
 * one label a delivery carries), `member` added → the github_* rows of the class table, bound on
 * GitHub's own ids. record_id "github-delivery:" + guid; a deploy key created is identified by what
 * the event itself carries, "github-deploy-key:" + owner/repo + ":" + key.id, whether a delivery or
 * its raw payload file carries it (one event, one record). A raw payload names no event: only a
 * deploy_key payload is told from its body (`key`); any other is an event of unknown kind.
 */






/**
 * A header as the deliveries API returns them (names in any case): its value, null when absent;
 * undefined when it is given twice with two values (which one GitHub sent cannot be told: a red team).
 */
const header = (headers, name) => {
    if (!headers)
        return null;
    const values = new Set(Object.keys(headers).flatMap((k) => (k.toLowerCase() === name ? [(0,json/* str */.gx)(headers, k)] : [])));
    if (values.size > 1)
        return undefined;
    return [...values][0] ?? null;
};
/**
 * The repository a payload names, as the scope filter and the subject both read it: its owner's
 * login and its name; a `full_name` that says another (without regard to ASCII case) is refused,
 * never one of the two taken for the filter and the other for the record.
 */
function repositoryOf(repository, owner, repo) {
    const full = `${owner}/${repo}`;
    const given = repository === null ? undefined : repository['full_name'];
    if (given === undefined || given === null)
        return { ok: true, value: full };
    if (typeof given !== 'string' || (0,core_text/* asciiLower */.F)(given) !== (0,core_text/* asciiLower */.F)(full))
        return {
            ok: false,
            reason: `a payload whose repository.full_name (${typeof given === 'string' ? idText(given) : typeof given}) is not its owner.login/name (${idText(full)})`,
        };
    return { ok: true, value: full };
}
function githubWebhook(entry) {
    const request = (0,json/* obj */.WL)(entry, 'request');
    const delivery = request !== null || (0,json/* str */.gx)(entry, 'guid') !== null;
    const payload = delivery ? (0,json/* obj */.WL)(request, 'payload') : entry;
    if (!payload) {
        const id = entry['id'];
        // The list endpoint (GET …/hooks/HOOK/deliveries) returns summaries without payloads.
        const summary = request === null && (typeof id === 'number' || typeof id === 'string');
        return {
            kind: 'error',
            message: summary
                ? `delivery ${idText((0,json/* str */.gx)(entry, 'guid') ?? '?')} is a summary from the deliveries list (no request, no payload): fetch each delivery by id (GET /repos/OWNER/REPO/hooks/HOOK_ID/deliveries/${typeof id === 'number' ? id : 'ID'}, examples/export-webhook-deliveries.yml) and import those`
                : `delivery ${idText((0,json/* str */.gx)(entry, 'guid') ?? '?')} has no request.payload object`,
        };
    }
    // The event a delivery names, once: its `event` and its X-GitHub-Event header must agree.
    const named = (0,json/* str */.gx)(entry, 'event');
    const headed = header((0,json/* obj */.WL)(request, 'headers'), 'x-github-event');
    if (headed === undefined)
        return {
            kind: 'error',
            message: `delivery ${idText((0,json/* str */.gx)(entry, 'guid') ?? '?')} gives its X-GitHub-Event header twice, with two events`,
        };
    if (delivery && named !== null && headed !== null && named !== headed)
        return {
            kind: 'error',
            message: `delivery ${idText((0,json/* str */.gx)(entry, 'guid') ?? '?')} names two events: ${idText(named)} and its X-GitHub-Event header ${idText(headed)}`,
        };
    // A raw payload names no event: only a deploy_key payload can be told from its body alone.
    const event = delivery ? (named ?? headed) : payload['key'] !== undefined ? 'deploy_key' : null;
    if (event === null)
        return untold(entry, delivery, payload);
    // GitHub names its events in lower case: "Issues" is no event it sent, never "other event" beside a statement (a red team).
    if (!/^[a-z_]+$/.test(event))
        return {
            kind: 'error',
            message: `delivery ${idText((0,json/* str */.gx)(entry, 'guid') ?? '?')} names the event ${idText(event)}, which GitHub does not send (its events are lower case, such as issues)`,
        };
    if (event !== 'deploy_key')
        return githubWriteOf(event, entry, request, payload);
    // Only a key created is the side effect: a key deleted (or any other action) is never its record.
    const action = (0,json/* str */.gx)(payload, 'action');
    if (action !== 'created')
        return action === null
            ? { kind: 'error', message: 'a deploy_key payload without action (created or deleted cannot be told)' }
            : { kind: 'skip', reason: 'other action' };
    const key = (0,json/* obj */.WL)(payload, 'key');
    const repository = (0,json/* obj */.WL)(payload, 'repository');
    const owner = (0,json/* str */.gx)((0,json/* obj */.WL)(repository, 'owner'), 'login');
    const repo = (0,json/* str */.gx)(repository, 'name');
    const title = (0,json/* str */.gx)(key, 'title');
    if (!owner || !repo)
        return { kind: 'error', message: 'a deploy_key created payload without repository.owner.login and repository.name' };
    const place = repositoryOf(repository, owner, repo);
    if (!place.ok)
        return { kind: 'error', message: place.reason };
    if (!title)
        return { kind: 'skip', reason: 'no title' };
    // The event's own identity, whichever shape carries it (a delivery, or the raw payload a receiver
    // stored): the key GitHub created, one id per key. A delivery's guid would make a second record of
    // the one event given once each way; two different keys are two events, never merged.
    const keyId = deployKeyId(key);
    if (keyId === null)
        return { kind: 'error', message: 'a deploy_key created payload without key.id, a whole number (its record would have no identity)' };
    const sender = (0,json/* str */.gx)((0,json/* obj */.WL)(payload, 'sender'), 'login');
    const time = delivery ? entryTime(entry['delivered_at']) : entryTime(key?.['created_at']);
    return deployKey(`github-deploy-key:${place.value}:${keyId}`, owner, repo, title, {
        actors: sender ? [sender] : [],
        repo: place.value,
        time,
    });
}
/** A deploy key's id as GitHub gives it (a whole number; a string of digits read as the same number), or null. */
function deployKeyId(key) {
    const n = (0,json/* wholeNumber */.rD)(key, 'id');
    if (n !== null)
        return String(n);
    const given = (0,json/* str */.gx)(key, 'id');
    return given !== null && /^[1-9][0-9]{0,15}$/.test(given) ? given : null;
}
/**
 * An entry whose event cannot be told: a raw payload that is not a deploy_key's (a receiver stored
 * the body without its X-GitHub-Event header), or a delivery that names none. Never a record and
 * never a quiet skip beside a statement: it may be any write of the scope (an issue opened, a push),
 * so under a window an entry of the scope is an error (run.ts, `uncertain`); outside the scope, or
 * without a window, it is counted. A delivery the API returned always names its event: one that
 * names none is an error.
 */
function untold(entry, delivery, payload) {
    const guid = (0,json/* str */.gx)(entry, 'guid');
    if (delivery)
        return {
            kind: 'error',
            message: `delivery ${idText(guid ?? '?')} names no event (no event, no X-GitHub-Event header): which write it is cannot be told`,
        };
    const repository = (0,json/* obj */.WL)(payload, 'repository');
    const owner = (0,json/* str */.gx)((0,json/* obj */.WL)(repository, 'owner'), 'login');
    const repo = (0,json/* str */.gx)(repository, 'name');
    const place = owner && repo ? repositoryOf(repository, owner, repo) : null;
    if (place && !place.ok)
        return { kind: 'error', message: place.reason };
    const sender = (0,json/* str */.gx)((0,json/* obj */.WL)(payload, 'sender'), 'login');
    return {
        kind: 'skip',
        reason: 'raw payload whose event is not named: store X-GitHub-Event with it, or import the delivery',
        event: { kind: 'uncertain', recordId: null, scope: { actors: sender ? [sender] : [], repo: place?.value ?? null, time: null } },
    };
}
/** The events whose deliveries may be a write this importer maps (githubWriteOf's cases). */
const WRITES = new Set(['issues', 'pull_request', 'issue_comment', 'push', 'member']);
/** The writes of a delivery other than deploy_key: a record of its github_* class, a counted skip, or a located error. */
function githubWriteOf(event, entry, request, payload) {
    const action = (0,json/* str */.gx)(payload, 'action');
    const repository = (0,json/* obj */.WL)(payload, 'repository');
    const owner = (0,json/* str */.gx)((0,json/* obj */.WL)(repository, 'owner'), 'login');
    const repo = (0,json/* str */.gx)(repository, 'name');
    const guid = (0,json/* str */.gx)(entry, 'guid') ?? header((0,json/* obj */.WL)(request, 'headers'), 'x-github-delivery') ?? null;
    const sender = (0,json/* str */.gx)((0,json/* obj */.WL)(payload, 'sender'), 'login');
    const fail = (what) => ({
        kind: 'error',
        message: `a ${event} ${action ?? ''} delivery ${idText(guid ?? '?')} without ${what}`,
    });
    if (!WRITES.has(event))
        return { kind: 'skip', reason: 'other event' };
    // A write of a class this maps names its repository: without one it is not "other event" beside a statement (a red team).
    if (!owner || !repo)
        return fail('repository.owner.login and repository.name');
    if (!guid)
        return { kind: 'error', message: 'a delivery without guid or X-GitHub-Delivery header' };
    const place = repositoryOf(repository, owner, repo);
    if (!place.ok)
        return { kind: 'error', message: place.reason };
    const scope = {
        actors: sender ? [sender] : [],
        repo: place.value,
        time: entryTime(entry['delivered_at']),
    };
    const write = (actionClass, verb, fields) => githubWrite(`github-delivery:${guid}`, actionClass, verb, owner, repo, fields, scope);
    const labelOf = (number) => {
        const name = (0,json/* str */.gx)((0,json/* obj */.WL)(payload, 'label'), 'name');
        if (number === null)
            return fail('its number');
        if (!name)
            return fail('label.name');
        return write('github_label', 'add', { number, label_hash: (0,target_hash/* targetHash */.Gu)('github_label', name) });
    };
    switch (event) {
        case 'issues': {
            const number = (0,json/* wholeNumber */.rD)((0,json/* obj */.WL)(payload, 'issue'), 'number');
            if (action === 'labeled')
                return labelOf(number);
            if (action !== 'opened' && action !== 'closed')
                return { kind: 'skip', reason: 'other action' };
            if (number === null)
                return fail('issue.number');
            if (action === 'opened') {
                const moved = transferredIn(payload);
                if (moved !== null)
                    return moved.ok
                        ? {
                            kind: 'skip',
                            reason: 'issue transferred in, not created',
                            event: { kind: 'refused', recordId: `github-delivery:${guid}`, scope },
                        }
                        : { kind: 'error', message: `an issues opened delivery ${idText(guid)} with ${moved.reason}` };
            }
            return write('github_issue', action === 'opened' ? 'create' : 'close', { number });
        }
        case 'pull_request': {
            const pull = (0,json/* obj */.WL)(payload, 'pull_request');
            const number = (0,json/* wholeNumber */.rD)(pull, 'number');
            if (action === 'labeled')
                return labelOf(number);
            if (action !== 'opened' && action !== 'closed')
                return { kind: 'skip', reason: 'other action' };
            if (number === null)
                return fail('pull_request.number');
            const verb = action === 'opened' ? 'create' : pull?.['merged'] === true ? 'merge' : 'close';
            return write('github_pull_request', verb, { number });
        }
        case 'issue_comment': {
            if (action !== 'created')
                return { kind: 'skip', reason: 'other action' };
            const id = (0,json/* wholeNumber */.rD)((0,json/* obj */.WL)(payload, 'comment'), 'id');
            if (id === null)
                return fail('comment.id');
            return write('github_issue_comment', 'create', { comment_id: id });
        }
        case 'push': {
            if (payload['deleted'] === true)
                return { kind: 'skip', reason: 'a deleted branch' };
            const ref = (0,json/* str */.gx)(payload, 'ref');
            const after = (0,json/* str */.gx)(payload, 'after');
            if (!ref || !after || !/^[0-9a-f]{40}$/.test(after))
                return fail('ref and a 40-digit after');
            // github_branch_push is a branch's: a tag pushed is another side effect.
            if (!ref.startsWith('refs/heads/'))
                return { kind: 'skip', reason: 'a push of a ref that is not a branch' };
            return write('github_branch_push', 'push', { ref, after });
        }
        case 'member': {
            if (action !== 'added')
                return { kind: 'skip', reason: 'other action' };
            const login = (0,json/* str */.gx)((0,json/* obj */.WL)(payload, 'member'), 'login');
            if (!login)
                return fail('member.login');
            return write('github_repo_member', 'add', { user_hash: (0,target_hash/* targetHash */.Gu)('github_user', login) });
        }
        default:
            return { kind: 'skip', reason: 'other event' };
    }
}
/**
 * Whether an `issues` opened payload is an issue transferred in (GitHub sends `opened` to the
 * destination repository of a transfer, with `changes.old_issue` and `changes.old_repository`): no
 * issue was created, so it is never a github_issue create. Null: no `changes`, an issue opened;
 * `changes` of another shape is refused (created or transferred cannot be told).
 */
function transferredIn(payload) {
    const changes = payload['changes'];
    if (changes === undefined || changes === null)
        return null;
    if ((0,json/* isObject */.Gv)(changes) && ((0,json/* isObject */.Gv)(changes['old_issue']) || (0,json/* isObject */.Gv)(changes['old_repository'])))
        return { ok: true, value: true };
    return {
        ok: false,
        reason: 'changes that are not a transfer’s (changes.old_issue, changes.old_repository): created or transferred cannot be told',
    };
}

;// CONCATENATED MODULE: ./src/tools/import/k8s-audit.ts
/**
 * Kubernetes audit log → k8s_rbac_binding/create records (docs/importers.md): `audit.k8s.io/v1`
 * events as the log backend writes them (JSON lines) or an `EventList`. A role binding or cluster
 * role binding created: stage `ResponseComplete`, verb `create`, resource `rolebindings` /
 * `clusterrolebindings` of `rbac.authorization.k8s.io`, a 2xx response. Record id "k8s-audit:" +
 * auditID (each stage of one request repeats it: only the complete one maps); the cluster is the
 * one --cluster names (the log does not); the actor is `user.username`. A binding applied
 * (`patch`, server-side apply) or put (`update`) is created when the answer is 201; a dry run
 * (`?dryRun=All`) creates nothing; a name or namespace two places give differently is an error.
 */




const KINDS = new Map([
    ['rolebindings', 'RoleBinding'],
    ['clusterrolebindings', 'ClusterRoleBinding'],
]);
const NAMES = [['objectRef'], ['responseObject', 'metadata'], ['requestObject', 'metadata']];
/** Whether the request was a dry run (`?dryRun=All`): the API server answers as if it created the object, and creates nothing. */
function dryRun(e) {
    const uri = (0,json/* str */.gx)(e, 'requestURI');
    if (uri === null)
        return false;
    const query = uri.indexOf('?');
    return query >= 0 && new URLSearchParams(uri.slice(query + 1)).has('dryRun');
}
/**
 * A binding created: `create` answered 2xx, or `patch` (server-side apply) or `update` (a PUT that
 * creates) answered 201 Created: an agent that applies a binding creates it as surely as one that
 * posts it.
 */
function created(verb, code) {
    if (code === null || code < 200 || code > 299)
        return verb === 'create' || verb === 'patch' || verb === 'update' ? 'failed' : 'other';
    if (verb === 'create' || ((verb === 'patch' || verb === 'update') && code === 201))
        return 'created';
    return 'other';
}
const k8sAudit = (cluster) => (e) => {
    if (e['kind'] !== 'Event')
        return { kind: 'error', message: 'not an audit.k8s.io Event (kind is not "Event")' };
    const stage = (0,json/* str */.gx)(e, 'stage');
    const ref = (0,json/* obj */.WL)(e, 'objectRef');
    const kind = KINDS.get((0,json/* str */.gx)(ref, 'resource') ?? '');
    const binding = kind !== undefined && (0,json/* str */.gx)(ref, 'apiGroup') === 'rbac.authorization.k8s.io';
    const verb = (0,json/* str */.gx)(e, 'verb');
    const id = (0,json/* str */.gx)(e, 'auditID');
    const user = (0,json/* str */.gx)((0,json/* obj */.WL)(e, 'user'), 'username');
    // The entry's time: when its response completed, else when it was received; one that is given and unreadable is never passed over.
    const stamp = textTime(e['stageTimestamp'] ?? e['requestReceivedTimestamp']);
    const time = 'error' in stamp ? null : stamp.time;
    const scope = { actors: user ? [user] : [], repo: null, tenant: cluster, time };
    const recordId = `k8s-audit:${id}`;
    const writes = binding && !!id && (verb === 'create' || verb === 'patch' || verb === 'update');
    if (stage !== 'ResponseComplete') {
        // Another stage of a request that may create a binding: the complete one says whether it did. A panic
        // ends the request, and the object may have been stored before it: whether it was cannot be said.
        if (!writes)
            return { kind: 'skip', reason: 'not ResponseComplete' };
        return {
            kind: 'skip',
            reason: 'not ResponseComplete',
            event: { kind: stage === 'Panic' ? 'uncertain' : 'partial', recordId, scope },
        };
    }
    if (!binding)
        return { kind: 'skip', reason: 'not a role binding created' };
    const made = created(verb, (0,json/* wholeNumber */.rD)((0,json/* obj */.WL)(e, 'responseStatus'), 'code'));
    const refused = id ? { event: { kind: 'refused', recordId, scope } } : {};
    // A binding read, or one updated rather than created (apply or PUT answered 200): its request is complete, nothing made.
    if (made === 'other')
        return { kind: 'skip', reason: 'not a role binding created', ...(writes ? refused : {}) };
    if (made === 'failed')
        return { kind: 'skip', reason: 'failed (not 2xx)', ...refused };
    if (dryRun(e))
        return { kind: 'skip', reason: 'a dry run (nothing was created)', ...refused };
    if (!id)
        return { kind: 'error', message: 'a role binding created without an auditID (its record would have no identity)' };
    if ('error' in stamp)
        return { kind: 'error', message: `entry ${idText(id)}: ${stamp.error}` };
    const name = oneText(e, 'name', NAMES);
    if ('error' in name)
        return { kind: 'error', message: `entry ${idText(id)}: ${name.error}` };
    // At the Metadata level a create's objectRef has no name, and no object is logged: nothing says which binding.
    if (name.value === null)
        return {
            kind: 'skip',
            reason: 'a binding the entry does not name (log rbac at the Request level)',
            event: { kind: 'uncertain', recordId, scope },
        };
    let namespace = null;
    if (kind === 'RoleBinding') {
        const given = oneText(e, 'namespace', NAMES);
        if ('error' in given)
            return { kind: 'error', message: `entry ${idText(id)}: ${given.error}` };
        if (given.value === null)
            return { kind: 'error', message: `entry ${idText(id)}: a RoleBinding without its namespace` };
        namespace = given.value;
    }
    return tenantWrite(`k8s-audit:${id}`, 'k8s_rbac_binding', 'create', cluster, [
        ['namespace', namespace],
        ['kind', kind],
        ['name', name.value],
    ], scope);
};

;// CONCATENATED MODULE: ./src/tools/import/okta-system-log.ts
/**
 * Okta System Log → idp_admin_role/grant records (docs/importers.md): `GET /api/v1/logs` pages
 * (JSON arrays, several concatenated as `gh api --paginate`-style tools write them). An admin role
 * granted to a user: `eventType` `user.account.privilege.grant` with `outcome.result` `SUCCESS`; the
 * principal is the user granted (the one target of type User: none or several is an error). Record id
 * "okta:" + uuid; the org is the one --org names (entries do not); the actor is
 * `actor.alternateId`.
 */




/** The user granted the role: the one target of type User, or why it cannot be said (none, several, or one without an id). Never another target guessed. */
function principalOf(e) {
    const targets = Array.isArray(e['target']) ? e['target'].filter(json/* isObject */.Gv) : [];
    const users = targets.filter((t) => (0,json/* str */.gx)(t, 'type') === 'User');
    const [user] = users;
    if (users.length > 1)
        return { error: `a privilege grant with ${users.length} target users: which one was granted cannot be said` };
    if (!user)
        return { error: 'a privilege grant naming no target user (a target of type User)' };
    const id = (0,json/* str */.gx)(user, 'id');
    return id ? { id } : { error: 'a privilege grant whose target user has no id' };
}
const oktaSystemLog = (org) => (e) => {
    if ((0,json/* str */.gx)(e, 'eventType') !== 'user.account.privilege.grant')
        return { kind: 'skip', reason: 'other event type' };
    const result = (0,json/* str */.gx)((0,json/* obj */.WL)(e, 'outcome'), 'result');
    const id = (0,json/* str */.gx)(e, 'uuid');
    if (result !== 'SUCCESS')
        return {
            kind: 'skip',
            reason: 'outcome not SUCCESS',
            ...(id ? { event: { kind: 'refused', recordId: `okta:${id}`, scope: null } } : {}),
        };
    if (!id)
        return { kind: 'error', message: 'a privilege grant without a uuid (its record would have no identity)' };
    const principal = principalOf(e);
    if ('error' in principal)
        return { kind: 'error', message: `entry ${idText(id)}: ${principal.error}` };
    const actor = (0,json/* str */.gx)((0,json/* obj */.WL)(e, 'actor'), 'alternateId');
    const published = textTime(e['published']);
    if ('error' in published)
        return { kind: 'error', message: `entry ${idText(id)}: ${published.error}` };
    const scope = { actors: actor ? [actor] : [], repo: null, tenant: org, time: published.time };
    return tenantWrite(`okta:${id}`, 'idp_admin_role', 'grant', org, [['principal_id', principal.id]], scope);
};

;// CONCATENATED MODULE: ./src/tools/import/slack.ts
/**
 * Slack Audit Logs API (Enterprise) entries → records (docs/importers.md). What the provider cannot
 * tell, the user chooses (options, documented in the README): the principal form the agent passed
 * (`id` or `email`), whether the agent passed a workspace for channel joins, the verb of each role
 * change, and the provider each class's calls name.
 *
 * - `user_channel_join` / `guest_channel_join` → workspace_member/add: channel = entity.channel.id,
 *   principal = the actor (the member who joined), workspace = context.location.id when the
 *   location is a workspace (else null); the entry is the inviter's (`details.inviter`) too, for `--actor`.
 * - `role_change_to_<role>` → workspace_role: principal = the entity's user, workspace =
 *   context.location.id, role = <role>, verb from the mapping (admin, owner: grant; user, guest:
 *   change_role).
 */




const DEFAULT_SLACK = {
    principal: 'id',
    workspace: 'context',
    roleVerbs: new Map([
        ['admin', 'grant'],
        ['owner', 'grant'],
        ['user', 'change_role'],
        ['guest', 'change_role'],
    ]),
    memberProvider: 'slack',
    roleProvider: 'workspace',
};
function slackAuditLog(o) {
    return (entry) => {
        const action = (0,json/* str */.gx)(entry, 'action');
        const id = (0,json/* str */.gx)(entry, 'id');
        if (!action)
            return { kind: 'error', message: 'an entry without an action' };
        const join = action === 'user_channel_join' || action === 'guest_channel_join';
        const role = /^role_change_to_([a-z_]+)$/.exec(action)?.[1];
        if (!join && !role)
            return { kind: 'skip', reason: 'other action' };
        if (!id)
            return { kind: 'error', message: `a ${action} entry without an id (its record would have no identity)` };
        const location = (0,json/* obj */.WL)((0,json/* obj */.WL)(entry, 'context'), 'location');
        const actorUser = (0,json/* obj */.WL)((0,json/* obj */.WL)(entry, 'actor'), 'user');
        // A join by invitation is the inviter's act as much as the joiner's: an agent that adds a member
        // is the entry's `details.inviter`, its actor the member who joined (a red team: the agent's
        // invitations were skipped as by another actor, and its calls were effect_not_logged).
        const inviter = join ? (0,json/* obj */.WL)((0,json/* obj */.WL)(entry, 'details'), 'inviter') : null;
        const scope = {
            actors: [(0,json/* str */.gx)(actorUser, 'id'), (0,json/* str */.gx)(actorUser, 'email'), (0,json/* str */.gx)(inviter, 'id'), (0,json/* str */.gx)(inviter, 'email')].filter((a) => a !== null),
            repo: null,
            time: entryTime(entry['date_create'], 's'),
        };
        const principalOf = (who) => (0,json/* str */.gx)((0,json/* obj */.WL)(who, 'user'), o.principal);
        if (join) {
            const channel = (0,json/* str */.gx)((0,json/* obj */.WL)((0,json/* obj */.WL)(entry, 'entity'), 'channel'), 'id');
            const principal = principalOf((0,json/* obj */.WL)(entry, 'actor'));
            if (!channel)
                return { kind: 'error', message: `entry ${idText(id)}: ${action} without entity.channel.id` };
            if (!principal)
                return { kind: 'error', message: `entry ${idText(id)}: ${action} without actor.user.${o.principal} (--principal ${o.principal})` };
            const ws = o.workspace === 'context' && (0,json/* str */.gx)(location, 'type') === 'workspace' ? (0,json/* str */.gx)(location, 'id') : null;
            return {
                kind: 'record',
                provider: o.memberProvider,
                recordId: `slack-audit:${id}`,
                scope,
                subject: {
                    action_class: 'workspace_member',
                    verb: 'add',
                    target: {
                        workspace_id_hash: ws === null ? null : (0,target_hash/* targetHash */.Gu)('slack_workspace', ws),
                        channel_id_hash: (0,target_hash/* targetHash */.Gu)('slack_channel', channel),
                        principal_hash: (0,target_hash/* targetHash */.Gu)('slack_principal', principal),
                    },
                },
            };
        }
        if (role === undefined)
            return { kind: 'skip', reason: 'other action' };
        const verb = o.roleVerbs.get(role);
        if (!verb)
            return { kind: 'skip', reason: `role change to ${role} (no verb mapped)` };
        const principal = principalOf((0,json/* obj */.WL)(entry, 'entity'));
        const ws = (0,json/* str */.gx)(location, 'id');
        if (!principal)
            return { kind: 'error', message: `entry ${idText(id)}: ${action} without entity.user.${o.principal} (--principal ${o.principal})` };
        if (!ws)
            return { kind: 'error', message: `entry ${idText(id)}: ${action} without context.location.id` };
        return {
            kind: 'record',
            provider: o.roleProvider,
            recordId: `slack-audit:${id}`,
            scope,
            subject: {
                action_class: 'workspace_role',
                verb,
                target: {
                    workspace_id_hash: (0,target_hash/* targetHash */.Gu)('workspace', ws),
                    principal_hash: (0,target_hash/* targetHash */.Gu)('workspace_principal', principal),
                    role,
                },
            },
        };
    };
}

;// CONCATENATED MODULE: ./src/tools/import/kinds.ts
/**
 * The import kinds, one module each, in one registry (docs/importers.md): what the export is, where
 * its entries sit, how it names places (GitHub's owner/repo, or none), its mapper and the CLASS:VERB
 * pairs it maps per provider (what its coverage statements name). The engine (run.ts) and the CLI
 * read a kind only through its row: a new kind is a module and a row here, and a kind without a
 * row does not compile.
 */









/** A webhook delivery, or a raw payload of some event: never an API error body (`{"message": …, "documentation_url": …}`). */
const anyWebhookEntry = (e) => provider_exports/* EXPORT_SHAPES */.mD['github-webhook'](e) ||
    typeof e['guid'] === 'string' ||
    (0,json/* isObject */.Gv)(e['request']) ||
    typeof e['action'] === 'string' ||
    ['sender', 'repository', 'organization', 'installation', 'enterprise', 'hook'].some((k) => (0,json/* hasOwn */.$3)(e, k) && (0,json/* isObject */.Gv)(e[k]));
/**
 * The CLASS:VERB pairs of these classes, every verb the class table gives them: what an import of
 * GitHub's records maps (its mappers write exactly these classes), one list per provider.
 */
const classActions = (provider, ...classes) => () => new Map([[provider, classes.flatMap((c) => ((0,core_classes/* classRow */.FC)(c)?.verbs ?? []).map((v) => `${c}:${v}`)).sort()]]);
const githubActions = (...classes) => classActions('github', ...classes);
/** What GitHub's audit log maps: deploy keys created, collaborators added. */
const AUDIT_LOG_ACTIONS = githubActions('github_deploy_key', 'github_repo_member');
/** What webhook deliveries map: deploy keys and every write of the github_* rows (docs/importers.md). */
const WEBHOOK_ACTIONS = githubActions('github_deploy_key', 'github_issue', 'github_issue_comment', 'github_pull_request', 'github_branch_push', 'github_label', 'github_repo_member');
/** Slack's providers and their actions: workspace_member adds, and each role change's verb. */
function slackActions({ slack }) {
    const out = new Map();
    const add = (provider, action) => {
        const list = out.get(provider) ?? [];
        if (!list.includes(action))
            list.push(action);
        out.set(provider, list);
    };
    add(slack.memberProvider, 'workspace_member:add');
    for (const verb of slack.roleVerbs.values())
        add(slack.roleProvider, `workspace_role:${verb}`);
    for (const list of out.values())
        list.sort();
    return out;
}
const IMPORTERS = {
    'github-audit-log': {
        source: 'a GitHub audit-log export',
        listKeys: [],
        places: { kind: 'github' },
        isEntry: provider_exports/* EXPORT_SHAPES */.mD['github-audit-log'],
        mapper: () => githubAuditLog,
        actions: AUDIT_LOG_ACTIONS,
    },
    'github-webhook': {
        source: 'GitHub webhook deliveries',
        listKeys: [],
        places: { kind: 'github' },
        isEntry: anyWebhookEntry,
        mapper: () => githubWebhook,
        actions: WEBHOOK_ACTIONS,
    },
    'slack-audit-log': {
        source: 'a Slack Audit Logs API export',
        listKeys: ['entries'],
        places: { kind: 'none', noRepo: 'Slack audit entries name no repository', noOwner: 'Slack audit entries name no organisation' },
        isEntry: provider_exports/* EXPORT_SHAPES */.mD['slack-audit-log'],
        mapper: ({ slack }) => slackAuditLog(slack),
        actions: slackActions,
    },
    'aws-cloudtrail': {
        source: 'AWS CloudTrail',
        listKeys: ['Records', 'Events'],
        places: { kind: 'tenant', flag: 'account', word: 'account', always: false },
        isEntry: provider_exports/* EXPORT_SHAPES */.mD['aws-cloudtrail'],
        mapper: () => awsCloudTrail,
        actions: classActions('aws', 'aws_iam_access_key', 'aws_iam_role_policy'),
    },
    'k8s-audit': {
        source: 'a Kubernetes audit log',
        listKeys: ['items'],
        places: { kind: 'tenant', flag: 'cluster', word: 'cluster', always: true },
        isEntry: provider_exports/* EXPORT_SHAPES */.mD['k8s-audit'],
        mapper: ({ tenant }) => k8sAudit(tenant ?? ''),
        actions: classActions('kubernetes', 'k8s_rbac_binding'),
    },
    'okta-system-log': {
        source: 'the Okta System Log',
        listKeys: [],
        places: { kind: 'tenant', flag: 'org', word: 'org', always: true },
        isEntry: provider_exports/* EXPORT_SHAPES */.mD['okta-system-log'],
        mapper: ({ tenant }) => oktaSystemLog(tenant ?? ''),
        actions: classActions('okta', 'idp_admin_role'),
    },
};
/** A kind's module (typed: every kind has one). */
const importer = (kind) => IMPORTERS[kind];

// EXTERNAL MODULE: ./src/tools/import/names.ts
var names = __webpack_require__(2621);
// EXTERNAL MODULE: ./src/read/signature.ts
var signature = __webpack_require__(2826);
// EXTERNAL MODULE: ./src/tools/signing.ts
var signing = __webpack_require__(7900);
// EXTERNAL MODULE: ./src/tools/import/exports.ts
var import_exports = __webpack_require__(6642);
;// CONCATENATED MODULE: ./src/tools/import/run.ts
/**
 * `receipt-gate import <kind>`: export files → records, offline. Each file is read with the gate's
 * strict readers and limits; each entry becomes a record, a counted skip, or a located error.
 * Identical entries under one record id (at-least-once streaming) are one record; two different
 * entries under one id are an error naming it. Output: NDJSON, one record per line in record-id
 * order, canonical JSON, signed with --sign-key when given. Any error: nothing is written.
 */











/** What an export whose entries are not of `kind` looks like, for the refusal. */
function wrongKind(kind, sample) {
    const other = (0,provider_exports/* exportKindOf */.CK)(sample);
    return other && other !== kind
        ? `no entry has the shape of ${provider_exports/* EXPORT_KINDS */.R7[kind]}: this looks like ${provider_exports/* EXPORT_KINDS */.R7[other]}: try import ${other}`
        : `no entry has the shape of ${provider_exports/* EXPORT_KINDS */.R7[kind]} (is this the right export for import ${kind}?)`;
}
/** The statements of an import, one per provider, each its own line (signed like the records when they are). */
function statementLines(s, c, entries, perProvider) {
    return [...importer(s.kind).actions(s.options)]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([provider, actions]) => {
        const statement = (0,binding/* jcs */.vI)({
            schema: model/* COVERAGE_SCHEMA */.Bh,
            provider,
            export: s.kind,
            actors: c.actors,
            repos: c.repos,
            owner: c.owner,
            actions,
            since: c.since,
            until: c.until,
            entries_read: entries,
            records: perProvider.get(provider) ?? 0,
            exported_at: c.exportedAt,
        });
        if (!statement.ok)
            throw new Error(`a coverage statement cannot be canonicalized: ${statement.reason}`); // strings and numbers only
        return s.sign ? (0,signing/* signedLine */.Rh)(statement.text, s.sign.key, s.sign.signedAt, signature/* COVERAGE_PAYLOAD_TYPE */.f4) : statement.text;
    });
}
function runImport(s) {
    const { source, listKeys, mapper: mapperOf, isEntry } = importer(s.kind);
    const mapper = mapperOf(s.options);
    const errors = [];
    const skipped = new Map();
    const skip = (reason) => {
        skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    };
    const byId = new Map();
    /** Ids whose event did not take effect, or whose entry fell outside the scope: another entry under one of them that makes a record contradicts it (an id vouches for one entry only). */
    const notWritten = new Map();
    /** Ids an entry completes (a record, a refusal, one it cannot name), and the in-scope stages that wait for one. */
    const completed = new Set();
    const waiting = new Map();
    const contradicts = (id, loc, other, why) => {
        errors.push((0,findings/* finding */.gk)('invalid_artifact', loc, `two entries with record id ${idText(id)} say different things (the other at ${(0,findings/* placeOf */.$t)(other, true)}: ${why}): an id vouches for one entry only`));
    };
    let entries = 0;
    let merged = 0;
    /** What the scope dropped of the entries that map to records (what names a near miss of a value given). */
    const tally = new ScopeTally(s.scope);
    for (const input of s.inputs) {
        const file = external_node_path_default().basename(input.name);
        const vouched = s.vouch ? s.vouch(input) : null;
        if (vouched && !vouched.ok) {
            errors.push((0,findings/* finding */.gk)('invalid_artifact', { file: input.name, line: 1, column: 1 }, vouched.reason));
            continue;
        }
        const read = (0,import_exports/* readExport */.J)(input.name, vouched?.ok ? vouched.value.bytes : input.bytes, s.limits, listKeys);
        // Each file is of the kind or it is not: one of another kind beside a real export maps to
        // nothing, quietly (a red team: an Okta page among GitHub's counted as "other action").
        let ofKind = 0;
        let sample = null;
        const before = errors.length;
        for (const e of read.entries) {
            entries++;
            if (provider_exports/* EXPORT_SHAPES */.mD[s.kind](e.value))
                ofKind++;
            else {
                sample ??= e;
                // Under a window, an object that is no entry of the export (an API error body a paging script
                // appended, a page of another shape) says the export is not what it claims to be: never a
                // skip beside a statement of completeness (a red team: Okta's rate-limit body after page 1
                // passed as "other event type").
                if (s.coverage && !isEntry(e.value)) {
                    errors.push((0,findings/* finding */.gk)('invalid_artifact', e.loc, `not an entry of ${provider_exports/* EXPORT_KINDS */.R7[s.kind]} (an API error body, a page of another shape?): an export holding it cannot be claimed complete for the window; export again, or give only the entries`));
                    continue;
                }
            }
            const m = mapper(e.value);
            if (m.kind === 'skip') {
                skip(m.reason);
                const ev = m.event;
                if (ev?.kind === 'partial') {
                    const out = ev.scope ? outOfScope(s.scope, ev.scope) : UNTIMED;
                    if (s.coverage && (out === null || out === UNTIMED) && !waiting.has(ev.recordId))
                        waiting.set(ev.recordId, e.loc);
                }
                else if (ev) {
                    if (ev.recordId !== null)
                        completed.add(ev.recordId);
                    if (ev.kind === 'refused') {
                        const written = byId.get(ev.recordId);
                        if (written)
                            contradicts(ev.recordId, e.loc, written.loc, 'a record written');
                        else if (!notWritten.has(ev.recordId))
                            notWritten.set(ev.recordId, { loc: e.loc, why: m.reason });
                    }
                    // An entry of the scope that took effect on something it does not name: a statement beside it would claim a window it did not read whole (docs/coverage.md §6).
                    const out = ev.scope ? outOfScope(s.scope, ev.scope) : UNTIMED;
                    if (ev.kind === 'uncertain' && s.coverage && (out === null || out === UNTIMED))
                        errors.push((0,findings/* finding */.gk)('invalid_artifact', e.loc, `an entry of the scope that does not say whether or what it changed (${m.reason}): the window cannot be claimed complete`));
                }
                continue;
            }
            if (m.kind === 'error') {
                errors.push((0,findings/* finding */.gk)('invalid_artifact', e.loc, m.message));
                continue;
            }
            completed.add(m.recordId);
            const out = tally.judge(m.scope);
            // An entry of the scope that cannot be placed in time may be inside the window: a statement
            // written beside it would claim completeness over an entry it did not count (docs/coverage.md §6).
            if (out === UNTIMED && s.coverage) {
                errors.push((0,findings/* finding */.gk)('invalid_artifact', e.loc, 'an entry of the scope without a time: whether it falls in the window cannot be said, so the window cannot be claimed complete'));
                continue;
            }
            // Another actor, repository or tenant under one id is another entry; another time is not (a webhook's redeliveries share their guid).
            if (out !== null && out !== 'outside the window' && out !== UNTIMED) {
                const written = byId.get(m.recordId);
                if (written)
                    contradicts(m.recordId, e.loc, written.loc, 'a record written');
                else if (!notWritten.has(m.recordId))
                    notWritten.set(m.recordId, { loc: e.loc, why: out });
            }
            if (out !== null) {
                skip(out);
                continue;
            }
            // Entries (or deliveries: one guid for every delivery of an event) under one id that map to
            // the same record are one record; only different mappings under one id are an error.
            const canon = (0,binding/* jcs */.vI)({ provider: m.provider, subject: m.subject });
            const mapping = canon.ok ? canon.text : '';
            const refused = notWritten.get(m.recordId);
            if (refused) {
                contradicts(m.recordId, e.loc, refused.loc, refused.why);
                continue;
            }
            const seen = byId.get(m.recordId);
            if (seen) {
                if (seen.mapping === mapping)
                    merged++;
                else {
                    const why = `two entries with record id ${idText(m.recordId)} map to different records (the other at ${(0,findings/* placeOf */.$t)(seen.loc, true)}): an id vouches for one entry only`;
                    errors.push((0,findings/* finding */.gk)('invalid_artifact', e.loc, why));
                }
                continue;
            }
            const record = makeRecord(m, `${source} (${file})`, vouched?.ok ? [vouched.value.words] : []);
            const payload = (0,binding/* jcs */.vI)(record);
            if (!payload.ok) {
                errors.push((0,findings/* finding */.gk)('invalid_artifact', e.loc, `the record cannot be canonicalized (${payload.reason})`));
                continue;
            }
            const line = s.sign ? (0,signing/* signedLine */.Rh)(payload.text, s.sign.key, s.sign.signedAt) : payload.text;
            byId.set(m.recordId, { line, mapping, loc: e.loc, provider: m.provider });
        }
        // Complete only now: the entries are read one page at a time.
        for (const f of read.findings)
            errors.push(f);
        // Each file's listing read to its end: a statement needs every listing whole, and a page of one
        // file (another listing's last page) never ends another's.
        if (s.coverage && read.paging.open !== null)
            errors.push((0,findings/* finding */.gk)('invalid_artifact', read.paging.open, 'this page says more pages follow (its next cursor is set) and it is the last page of its file: the listing stopped early, so the window cannot be claimed complete; export every page of a listing into one file (a page of another file cannot continue it: a page does not name its own cursor)'));
        // An export of another kind maps to nothing, quietly, every night: refuse it (docs/importers.md).
        if (ofKind === 0 && sample && errors.length === before)
            errors.push((0,findings/* finding */.gk)('invalid_artifact', sample.loc, wrongKind(s.kind, sample.value)));
    }
    for (const [id, loc] of waiting)
        if (!completed.has(id))
            errors.push((0,findings/* finding */.gk)('invalid_artifact', loc, `a request of the scope (record id ${idText(id)}) whose completing entry the export does not hold: whether it took effect cannot be said, so the window cannot be claimed complete; export until the request completes`));
    const skips = [...skipped.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    const skipText = skips.length === 0 ? '0 skipped' : `${skips.reduce((n, [, k]) => n + k, 0)} skipped (${skips.map(([r, k]) => `${k} ${r}`).join(', ')})`;
    const summary = `${entries} ${entries === 1 ? 'entry' : 'entries'} read, ${errors.length > 0 ? 0 : byId.size} record(s) written, ${skipText}, ${merged} duplicate(s) merged`;
    const scope = tally.note(byId.size === 0);
    if (errors.length > 0)
        return { ok: false, reason: { findings: errors, summary } };
    const lines = [...byId.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v.line);
    const perProvider = new Map();
    for (const v of byId.values())
        perProvider.set(v.provider, (perProvider.get(v.provider) ?? 0) + 1);
    // The statements first: a reader sees what the export covered before what it found.
    const statements = s.coverage ? statementLines(s, s.coverage, entries, perProvider) : [];
    const all = [...statements, ...lines];
    return {
        ok: true,
        value: {
            ndjson: all.length > 0 ? `${all.join('\n')}\n` : '',
            records: lines.length,
            statements: statements.length,
            entries,
            summary,
            scope,
        },
    };
}

// EXTERNAL MODULE: ./src/tools/write.ts
var write = __webpack_require__(376);
// EXTERNAL MODULE: ./src/cli/command.ts
var command = __webpack_require__(3567);
// EXTERNAL MODULE: ./src/cli/files.ts
var cli_files = __webpack_require__(9141);
// EXTERNAL MODULE: ./src/cli/commands/shared.ts
var shared = __webpack_require__(9764);
;// CONCATENATED MODULE: ./src/cli/commands/run-import.ts
/**
 * `receipt-gate import KIND`, run: a provider's audit export (files a user exported: nothing is
 * queried) turned into audit records, written only when the whole import succeeds. Loaded when the
 * command runs (import.ts): no other command loads an importer.
 */





















/** --since / --until: the window [since, until). */
function windowOf(flags) {
    const time = (flag) => {
        const value = flags[flag];
        if (value === undefined)
            return null;
        const result = parseWindowTime(value);
        if (!result.ok)
            throw new types/* UsageError */.eb('value', `--${flag}: ${result.reason}`);
        return result.value;
    };
    const since = time('since');
    const until = time('until');
    if (since !== null && until !== null && (0,core_time/* compareInstants */.QI)(until, since) <= 0)
        throw new types/* UsageError */.eb('value', '--until must be later than --since (the window is [since, until))');
    return { since, until };
}
/**
 * With both bounds, what the statements name: the actors as given, the repositories (lower-cased for
 * GitHub), the organisation, the window in UTC, and when it was exported. A statement claims
 * completeness, so nothing the importer did not read may become one (docs/coverage.md §6): the
 * window has ended, an actor is named, and a GitHub export names its organisation or repositories.
 */
function coverageScope(flags, kind, owner, now, until) {
    if (flags.since === undefined || flags.until === undefined)
        return null;
    if (!flags.actor || flags.actor.length === 0)
        throw new types/* UsageError */.eb('missing', "--since/--until need --actor: a coverage statement says which actor the export was complete for (without one it covers nothing, and every actor's entries would become records)");
    const places = importer(kind).places;
    if (places.kind === 'tenant' && owner === null)
        throw new types/* UsageError */.eb('missing', `--since/--until need --${places.flag} for ${kind}: a statement says which ${places.word} the log was complete for`);
    if (places.kind === 'github' && owner === null && (!flags.repo || flags.repo.length === 0))
        throw new types/* UsageError */.eb('missing', `--since/--until need --owner ORG or --repo OWNER/NAME for ${kind}: the export came from one organisation or repository, and a statement that names neither covers no call`);
    if (until !== null && (0,core_time/* compareInstants */.QI)(until, now) > 0)
        throw new types/* UsageError */.eb('value', `--until ${flags.until} is after the import's clock (${(0,core_time/* rfc3339 */.ag)(now)}): the window has not ended; the provider may still log entries in it`);
    const utc = (flag, text) => {
        const written = (0,core_time/* utcAsWritten */.es)(text);
        if (!written.ok)
            throw new types/* UsageError */.eb('value', `--${flag}: ${written.reason}`);
        return written.value;
    };
    const repos = flags.repo && flags.repo.length > 0 ? flags.repo.map(core_text/* asciiLower */.F) : null;
    return {
        actors: flags.actor ?? [],
        repos,
        owner,
        since: utc('since', flags.since),
        until: utc('until', flags.until),
        exportedAt: (0,core_time/* rfc3339 */.ag)(now),
    };
}
function slackOptions(flags) {
    const roleVerbs = new Map(DEFAULT_SLACK.roleVerbs);
    for (const rv of flags['role-verb'] ?? []) {
        const match = /^([a-z_]+)=([a-z_]+)$/.exec(rv.trim());
        if (!match?.[1] || !match[2])
            throw new types/* UsageError */.eb('value', `--role-verb: "${rv}" is not ROLE=VERB (e.g. admin=grant)`);
        roleVerbs.set(match[1], match[2]);
    }
    return {
        principal: (0,parsers/* parseChoice */.HU)('--principal', flags.principal ?? DEFAULT_SLACK.principal, ['id', 'email']),
        workspace: (0,parsers/* parseChoice */.HU)('--workspace', flags.workspace ?? DEFAULT_SLACK.workspace, ['context', 'none']),
        roleVerbs,
        memberProvider: flags['member-provider'] ?? DEFAULT_SLACK.memberProvider,
        roleProvider: flags['role-provider'] ?? DEFAULT_SLACK.roleProvider,
    };
}
/** The records predicate (docs/predicates/records-v1.md): the kind, the scope as given (absent members left out), the counts. */
function recordsPredicate(kind, flags, done) {
    const scope = {};
    if (flags.actor && flags.actor.length > 0)
        scope['actor'] = flags.actor;
    if (flags.repo && flags.repo.length > 0)
        scope['repo'] = flags.repo;
    if (flags.owner !== undefined)
        scope['owner'] = flags.owner;
    for (const flag of ['account', 'cluster', 'org'])
        if (flags[flag] !== undefined)
            scope[flag] = flags[flag];
    if (flags.since !== undefined)
        scope['since'] = flags.since;
    if (flags.until !== undefined)
        scope['until'] = flags.until;
    return `${JSON.stringify({ kind, scope, entries_read: done.entries, records_written: done.records }, null, 2)}\n`;
}
/**
 * --cloudtrail-digests DIR and --cloudtrail-public-keys FILE (aws-cloudtrail only, both or neither):
 * every digest in DIR with its `.sig`, checked against the keys; null when not asked. A digest that
 * does not verify is a located refusal (nothing is imported).
 */
function cloudTrailDigests(flags, kind, cwd, limits) {
    const dir = flags['cloudtrail-digests'];
    const keysFile = flags['cloudtrail-public-keys'];
    if (dir === undefined && keysFile === undefined)
        return null;
    if (kind !== 'aws-cloudtrail')
        throw new types/* UsageError */.eb('value', `--cloudtrail-digests and --cloudtrail-public-keys are for aws-cloudtrail, not ${kind}`);
    if (dir === undefined || keysFile === undefined)
        throw new types/* UsageError */.eb('missing', '--cloudtrail-digests DIR and --cloudtrail-public-keys FILE go together: the digests, and the keys AWS signed them with');
    const root = external_node_path_default().resolve(cwd, dir);
    let names;
    try {
        names = (0,external_node_fs_.readdirSync)(root)
            .filter((n) => /\.json(?:\.gz)?$/.test(n))
            .sort();
    }
    catch (error) {
        throw new types/* UsageError */.eb('file', `--cloudtrail-digests ${dir}: ${(0,core_text/* messageOf */.bD)(error)}`);
    }
    if (names.length === 0)
        throw new types/* UsageError */.eb('file', `--cloudtrail-digests ${dir}: no digest file (*.json.gz) in it`);
    const [keys] = (0,cli_files/* readInputs */.Ko)([external_node_path_default().resolve(cwd, keysFile)], limits);
    const problems = [];
    const given = [];
    for (const n of names) {
        const [digest] = (0,cli_files/* readInputs */.Ko)([external_node_path_default().join(root, n)], limits);
        const sig = (0,files/* readNamedFile */.wh)(external_node_path_default().join(root, `${n}.sig`), limits);
        if (!digest)
            continue;
        if (!sig.ok)
            problems.push((0,findings/* finding */.gk)('invalid_artifact', { file: digest.name, line: 1, column: 1 }, `this CloudTrail digest has no ${n}.sig beside it (the x-amz-meta-signature of its S3 object): ${sig.reason}`));
        else
            given.push({ digest, signature: sig.value.toString('utf8') });
    }
    if (!keys)
        return null;
    const checked = checkDigests(given, keys, limits.maxFileBytes, flags.account ?? null);
    if (!checked.ok)
        throw new types/* UsageError */.eb('file', `--cloudtrail-public-keys ${checked.reason}`);
    for (const r of checked.value.refused)
        problems.push((0,findings/* finding */.gk)('invalid_artifact', { file: r.file, line: 1, column: 1 }, r.message));
    return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, value: checked.value };
}
/** The command's run, its flags parsed (import.ts): the import, and what it wrote or why nothing. */
async function importCommand(ctx, f, rest) {
    const [kindName, ...files] = rest;
    const kind = kindName === undefined ? null : (0,names/* importKind */.G)(kindName);
    if (!kind)
        throw new types/* UsageError */.eb('value', `import: the export kind comes first: ${names/* IMPORT_KIND_NAMES */.a.join(', ')}`);
    if (!f.output)
        throw new types/* UsageError */.eb('missing', 'import: --output FILE is required');
    if (files.length === 0)
        throw new types/* UsageError */.eb('missing', 'import: at least one INPUT export file is required');
    const output = (0,paths/* outputIn */.D_)(ctx.cwd, ctx.cwd, f.output, '--output');
    const predicate = f.predicate === undefined ? null : (0,paths/* outputIn */.D_)(ctx.cwd, ctx.cwd, f.predicate, '--predicate');
    (0,paths/* distinctOutputs */.VS)([
        ['--output', output],
        ['--predicate', predicate],
    ], 
    // The exports, and the key and AWS public keys read beside them (a red team: --output k.key.pem replaced the key).
    [...files, f['sign-key'], f['cloudtrail-public-keys']].flatMap((x) => (x === undefined ? [] : [external_node_path_default().resolve(ctx.cwd, x)])));
    const digestDir = f['cloudtrail-digests'];
    if (digestDir !== undefined)
        for (const [flag, file] of [
            ['--output', output],
            ['--predicate', predicate],
        ])
            if (file !== null && (0,discover/* inside */.nx)((0,paths/* canonical */.$N)(external_node_path_default().resolve(ctx.cwd, digestDir)), (0,paths/* canonical */.$N)(file)))
                throw new types/* UsageError */.eb('conflict', `${flag}: lies in --cloudtrail-digests ${digestDir}; a command never writes among what it reads (write to another file)`);
    const slack = slackOptions(f);
    const { since, until } = windowOf(f);
    const repos = f.repo;
    const places = importer(kind).places;
    if (repos && places.kind !== 'github')
        throw new types/* UsageError */.eb('value', `--repo: ${places.kind === 'none' ? places.noRepo : `${kind} entries name no repository`}`);
    if (f.owner !== undefined && places.kind !== 'github')
        throw new types/* UsageError */.eb('value', `--owner: ${places.kind === 'none' ? places.noOwner : `${kind}'s scope is --${places.flag}`}`);
    // The tenant flags: each for the kinds whose log is of that kind of tenant.
    for (const flag of ['account', 'cluster', 'org'])
        if (f[flag] !== undefined && (places.kind !== 'tenant' || places.flag !== flag))
            throw new types/* UsageError */.eb('value', `--${flag} is for the import kind whose log is one ${flag}'s, not ${kind}`);
    const tenant = places.kind === 'tenant' ? (f[places.flag] ?? null) : null;
    if (places.kind === 'tenant' && places.always && tenant === null)
        throw new types/* UsageError */.eb('missing', `import ${kind}: --${places.flag} NAME is required: the entries do not name the ${places.word}, and the agent's mapping must write the same value`);
    if (tenant !== null && (tenant.trim() === '' || /[\s/]/.test(tenant)))
        throw new types/* UsageError */.eb('value', `--${places.kind === 'tenant' ? places.flag : 'owner'}: "${tenant}" is not a name`);
    const owner = tenant ?? f.owner ?? null;
    if (f.owner !== undefined && !/^[^/\s]+$/.test(f.owner))
        throw new types/* UsageError */.eb('value', `--owner: "${f.owner}" is not an organisation name (OWNER, without a /)`);
    for (const r of repos ?? [])
        if (!/^[^/\s]+\/[^/\s]+$/.test(r))
            throw new types/* UsageError */.eb('value', `--repo: "${r}" is not OWNER/NAME`);
    const actors = f.actor;
    const limits = (0,shared/* limitsOf */.Af)(f);
    const signedAt = (0,shared/* signedAtOf */.nL)(f['signed-at']);
    const tool = `import ${kind}`;
    const sign = f['sign-key']
        ? { key: (0,cli_files/* readSigningKey */.jy)('--sign-key', external_node_path_default().resolve(ctx.cwd, f['sign-key'])), signedAt: signedAt ?? (0,signing/* signedAtNow */.KI)(ctx.now) }
        : null;
    const inputs = (0,cli_files/* readInputs */.Ko)(files.map((x) => external_node_path_default().resolve(ctx.cwd, x)), limits);
    const scope = {
        actors: actors ? new Set(places.kind === 'github' ? actors.map(core_text/* asciiLower */.F) : actors) : null,
        caseless: places.kind === 'github',
        repos: repos ? new Set(repos.map(core_text/* asciiLower */.F)) : null,
        owner: owner === null ? null : (0,core_text/* asciiLower */.F)(owner),
        place: places.kind === 'tenant' ? tenantPlace(places.word, places.flag) : ORGANISATION,
        since,
        until,
    };
    const coverage = coverageScope(f, kind, owner, (0,shared/* nowOf */.Ic)(f.now, ctx.now), until);
    const digests = cloudTrailDigests(f, kind, ctx.cwd, limits);
    if (digests && !digests.ok)
        return (0,command/* wroteNothing */.bc)(tool, command/* EXIT */.dc.problem, (0,command/* findingLines */.hq)(tool, digests.reason));
    const check = digests?.value ?? null;
    const read = new Set();
    const vouch = check
        ? (input) => {
            const got = vouchLogFile(check, input, limits.maxFileBytes);
            if (got.ok)
                read.add(got.value.sha256);
            return got;
        }
        : null;
    const result = runImport({ kind, inputs, limits, options: { slack, tenant }, sign, scope, coverage, vouch });
    // A statement of what was covered, with digests: only when they vouch for the whole window (docs/coverage.md §6).
    const uncovered = check && coverage && since && until ? windowUncovered(check, since, until, read) : [];
    if (uncovered.length > 0)
        return (0,command/* wroteNothing */.bc)(tool, command/* EXIT */.dc.problem, (0,command/* say */.cv)(tool, `the CloudTrail digests do not vouch for the window --since/--until claims: ${uncovered.join('; ')}`));
    const chain = check ? `; ${check.digests} AWS-signed digest(s) checked${check.gaps.map((g) => `; ${g}`).join('')}` : '';
    if (!result.ok)
        return (0,command/* wroteNothing */.bc)(tool, command/* EXIT */.dc.problem, `${(0,command/* findingLines */.hq)(tool, result.reason.findings)}${(0,command/* say */.cv)(tool, `${result.reason.summary}${chain}`)}`);
    const done = result.value;
    // An --actor, --repo or --owner a letter off drops every entry, night after night, as if each were quiet: a typo is a usage error.
    if (done.scope?.typo)
        throw new types/* UsageError */.eb('value', `${done.scope.text}; nothing was written`);
    const scopeNote = done.scope ? `; ${done.scope.text}` : '';
    // A quiet night without a window: nothing to write, and no empty file for a job to commit. With
    // one, the statement alone is written: for that window and scope the provider logged nothing.
    if (done.records === 0 && done.statements === 0)
        return {
            code: command/* EXIT */.dc.pass,
            stdout: '',
            stderr: (0,command/* say */.cv)(tool, `${done.summary}${scopeNote}; no records, so ${output} was not written (give --since and --until to record what was covered)`),
        };
    try {
        // The records and their predicate together: both whole, or neither (a failed import writes nothing).
        (0,write/* writeAllWhole */.Ei)([...(predicate ? [[predicate, recordsPredicate(kind, f, done)]] : []), [output, done.ndjson]]);
    }
    catch (error) {
        // The file it failed at, named by its flag.
        if (error instanceof write/* FileWriteError */.M$ && error.file === predicate)
            return (0,command/* unwritable */.mP)(tool, '--predicate', predicate, error.reason);
        return (0,command/* unwritable */.mP)(tool, 'the output', output, error instanceof write/* FileWriteError */.M$ ? error.reason : error);
    }
    const also = predicate ? ` (predicate → ${predicate})` : '';
    const covered = coverage ? `, ${done.statements} coverage statement(s) for [${coverage.since}, ${coverage.until})` : '';
    return {
        code: command/* EXIT */.dc.pass,
        stdout: '',
        stderr: (0,command/* say */.cv)(tool, `${done.summary}${covered}${scopeNote}${sign ? ', signed' : ''}${chain} → ${output}${also}`),
    };
}


/***/ }),

/***/ 6642:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   J: () => (/* binding */ readExport)
/* harmony export */ });
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4637);
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6153);
/* harmony import */ var _read_documents_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8238);
/* harmony import */ var _read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3853);
/* harmony import */ var _read_json_strict_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(755);
/**
 * Provider export files → located JSON entries, through the gate's one document pipeline
 * (read/documents.ts): gzip (streaming exports) decompressed up to max-file-size, strict UTF-8 and
 * JSON, and every shape the export routes write: one array, pages written one after another
 * (`gh api --paginate`: `[…][…]`), an array of pages (`--slurp`: `[[…],[…]]`, or page objects such as
 * CloudTrail's `[{"Records": […]}, …]`, each page's cursor read), one entry per line
 * (`--jq '.[]'`), one object, or an object with a list member (Slack's `{"entries": [...]}`). An
 * empty page is no entries. Every entry keeps its own file:line:column. Never a network call.
 */





/** Whether a page object says more pages follow (a cursor that is not empty, or not text). */
function continues(page) {
    const meta = page['response_metadata'];
    const cursor = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_4__/* .isObject */ .Gv)(meta) ? meta['next_cursor'] : undefined;
    return [cursor, page['NextToken']].some((x) => x !== undefined && x !== null && x !== '');
}
/**
 * @param listKeys the members of a top-level object that may hold the entries (Slack: "entries"; CloudTrail: "Records", "Events")
 */
function readExport(name, raw, given, listKeys = []) {
    // A .json export is one document, often on one line (the UI's export, gh api without --jq): the
    // line limit is for JSON lines, so it is held to the file limit only. NDJSON keeps the line limit.
    const lines = /\.(ndjson|jsonl)(\.gz)?$/i.test(name);
    const limits = lines ? given : { ...given, maxLineBytes: Math.max(given.maxLineBytes, given.maxFileBytes) };
    const sink = new _read_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .LocatingSink */ .Bz(name);
    const findings = sink.findings;
    const at = (offset) => sink.at(offset);
    const paging = { open: null };
    const decoded = (0,_read_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .decode */ .D4)(raw, limits, sink, { gzip: true });
    if (!decoded)
        return { entries: [], findings, paging };
    sink.lines = decoded.lines;
    const { text } = decoded;
    // A failed download must not become "the provider logged nothing" (docs/coverage.md §6): `[]` is a quiet page, nothing at all is not.
    if (text.trim() === '') {
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(0), `the export is empty (${raw.length === 0 ? '0 bytes' : 'white space only'}): an empty download is not an empty log; export again (a quiet window is [] or a page with no entries)`));
        return { entries: [], findings, paging };
    }
    if (looksLikeCsv(name, text)) {
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(0), 'this is a CSV export: the importer reads the JSON export (GitHub: the audit log\'s "Export JSON" or GET /orgs/ORG/audit-log; Slack: the Audit Logs API), which carries every field a record needs'));
        return { entries: [], findings, paging };
    }
    return { entries: pages(text, limits, listKeys, at, sink, findings, paging), findings, paging };
}
/** A .csv name, or a first line of comma-separated bare words (a header row) where JSON would start with [ or {. */
function looksLikeCsv(name, text) {
    if (/\.csv(\.gz)?$/i.test(name))
        return true;
    const first = (text.split('\n', 1)[0] ?? '').trim();
    return /^[A-Za-z_@"][\w.@" -]*(,[\w.@" -]*)+$/.test(first);
}
function* pages(text, limits, listKeys, at, sink, findings, paging) {
    let entries = [];
    const take = (value, offset) => {
        if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_4__/* .isObject */ .Gv)(value))
            entries.push({ value, loc: at(offset) });
        else
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(offset), 'an entry is not a JSON object'));
    };
    /** The offsets of the elements at `path` in the value that starts at `offset` (its own slice parsed again). */
    const elementsAt = (offset, path) => {
        const o = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: [path] };
        const end = (0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__/* .firstValueEnd */ .t1)(text, o, offset);
        const inner = end.ok ? (0,_read_json_strict_js__WEBPACK_IMPORTED_MODULE_3__/* .parseStrict */ .z3)(text, o, offset, end.value) : null;
        return inner?.ok ? (inner.value.elements.get((0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__/* .pathKey */ .Pn)(path)) ?? []) : [];
    };
    /** A page object's entries (its one list member) and its word on the pages that follow. */
    const pageObject = (given, offset, offsets) => {
        // The list member that holds the entries: a page has one; two (CloudTrail's Records and Events) are refused, never one of them read.
        const keys = listKeys.filter((k) => Array.isArray(given[k]));
        const [key] = keys;
        if (keys.length > 1 || key === undefined)
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(offset), `a page holding entries under ${keys.join(' and ')}: which list is the export cannot be said`));
        else
            page(given[key], offsets(key), false);
        // A page that says no more follow, or names no cursor at all (CloudTrail leaves NextToken out of
        // its last page, and so may a Slack page), ends the listing; one that says more follow is
        // continued only by a page after it in this file.
        paging.open = continues(given) ? at(offset) : null;
    };
    const isPage = (value) => (0,_core_json_js__WEBPACK_IMPORTED_MODULE_4__/* .isObject */ .Gv)(value) && listKeys.some((k) => Array.isArray(value[k]));
    /** The entries of one array (a page); a page of pages (--slurp: arrays, or page objects such as CloudTrail's) is read page by page. */
    const page = (list, offsets, nested) => {
        list.forEach((item, i) => {
            const offset = offsets[i] ?? 0;
            if (nested && Array.isArray(item))
                page(item, elementsAt(offset, []), false);
            else if (nested && isPage(item))
                pageObject(item, offset, (key) => elementsAt(offset, [key]));
            else
                take(item, offset);
        });
    };
    const collect = [[], ...listKeys.map((k) => [k])];
    for (const doc of (0,_read_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .documents */ .DB)(text, 'values', { limits, collect }, sink)) {
        const given = doc.value;
        if (Array.isArray(given))
            page(given, doc.elements.get((0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__/* .pathKey */ .Pn)([])) ?? [], given.some((x) => Array.isArray(x) || isPage(x)));
        else if (isPage(given))
            pageObject(given, doc.start, (key) => doc.elements.get((0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__/* .pathKey */ .Pn)([key])) ?? []);
        else
            take(given, doc.start);
        yield* entries;
        entries = [];
    }
}


/***/ })

};
