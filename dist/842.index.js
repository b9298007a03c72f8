export const id = 842;
export const ids = [842];
export const modules = {

/***/ 3842:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   checkBundles: () => (/* binding */ checkBundles),
/* harmony export */   readSigstoreFile: () => (/* binding */ readSigstoreFile),
/* harmony export */   rootsFrom: () => (/* binding */ rootsFrom)
/* harmony export */ });
/* unused harmony exports parseTrustedRoots, publicGoodRoots, checkSigner, verifySigned, checkBundleFile */
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _sigstore_bundle__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1040);
/* harmony import */ var _sigstore_protobuf_specs__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9654);
/* harmony import */ var _sigstore_protobuf_specs__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(_sigstore_protobuf_specs__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _sigstore_verify__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4187);
/* harmony import */ var _core_binding_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(3491);
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(4637);
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(6153);
/* harmony import */ var _core_text_js__WEBPACK_IMPORTED_MODULE_13__ = __webpack_require__(2020);
/* harmony import */ var _core_time_js__WEBPACK_IMPORTED_MODULE_12__ = __webpack_require__(2334);
/* harmony import */ var _core_trust_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(9597);
/* harmony import */ var _read_documents_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(8238);
/* harmony import */ var _read_envelope_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(1210);
/* harmony import */ var _read_json_scanner_js__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(3853);
/* harmony import */ var _public_good_root_generated_js__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(6419);
/* harmony import */ var _refusal_js__WEBPACK_IMPORTED_MODULE_14__ = __webpack_require__(2510);
/**
 * Keyless trust (docs/keyless.md): a Sigstore bundle beside a file, checked offline against trusted
 * roots with `@sigstore/verify`, then by workflow identity, in the doc's order: the bundle parses
 * (a supported version with a DSSE in-toto envelope); the certificate chains to a CA of the root
 * valid at a signing time a log entry or a timestamp of the root vouches for, with SCTs when the
 * root lists CT logs, and the DSSE signature verifies; the SAN equals a trusted identity and the
 * issuer extensions equal the issuer; the Source Repository URI and Ref extensions name the source
 * repository and an allowed ref; then the Statement (one subject, one sha256 digest of the file's
 * exact bytes, the file's base name, the predicate type). Nothing is ever fetched. This module is
 * loaded (dynamically) only when an identity is configured.
 */















/** Fulcio's certificate extensions (https://github.com/sigstore/fulcio/blob/main/docs/oid-info.md). */
const OID = {
    issuerV1: '1.3.6.1.4.1.57264.1.1',
    issuer: '1.3.6.1.4.1.57264.1.8',
    sourceRepositoryUri: '1.3.6.1.4.1.57264.1.12',
    sourceRepositoryRef: '1.3.6.1.4.1.57264.1.14',
};
/**
 * A file's JSON values (one value, pretty-printed or not, or one compact value per line) through the
 * one document pipeline, its problems located by the one sink.
 */
function valuesOf(name, bytes, limits) {
    const sink = new _read_documents_js__WEBPACK_IMPORTED_MODULE_7__/* .LocatingSink */ .Bz(name);
    const decoded = (0,_read_documents_js__WEBPACK_IMPORTED_MODULE_7__/* .decode */ .D4)(bytes, limits, sink);
    if (!decoded)
        return { docs: [], sink, text: '' };
    sink.lines = decoded.lines;
    return { docs: [...(0,_read_documents_js__WEBPACK_IMPORTED_MODULE_7__/* .documents */ .DB)(decoded.text, 'oneOrLines', { limits, collect: [] }, sink)], sink, text: decoded.text };
}
/** Trusted roots from a file's text: one trusted root, or JSON lines of them (`gh attestation trusted-root`). */
function parseTrustedRoots(name, text, limits) {
    const { docs, sink, text: decoded } = valuesOf(name, Buffer.from(text, 'utf8'), limits);
    // A file that does not read is said first: the documents recovered past a parse error (a trailing
    // comma, a duplicate key in a hand-edited root) are fragments, whose shape is no root's (a red team:
    // a typo at line 82 was reported at line 85 as "not a Sigstore trusted root").
    const problem = sink.findings[0];
    // The sink's findings are located (file, line, column): the one sink's only kind.
    if (problem)
        return { ok: false, reason: `${problem.file === null ? name : (0,_core_findings_js__WEBPACK_IMPORTED_MODULE_5__/* .placeOf */ .$t)(problem, true)}: not a trusted root: ${problem.message}` };
    const roots = [];
    for (const doc of docs) {
        const result = rootOf(doc.value);
        if (!result.ok) {
            // A problem of one member (a validFor's bound) is placed at that member, found in the text only now (a red team:
            // a root's 1:1 sent the reader through a file of hundreds of lines); the root's own problems at its start.
            const at = result.reason.at && (0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_9__/* .offsetAt */ .HA)(decoded, doc.start, result.reason.at, { maxDepth: limits.maxDepth });
            return { ok: false, reason: `${(0,_core_findings_js__WEBPACK_IMPORTED_MODULE_5__/* .placeOf */ .$t)(sink.at(typeof at === 'number' ? at : doc.start), true)}: ${result.reason.text}` };
        }
        roots.push(result.value);
    }
    if (roots.length === 0)
        return { ok: false, reason: `${name}: holds no trusted root` };
    return { ok: true, value: roots };
}
/** The roots a source holds (the public-good root for none). */
function rootsFrom(source, limits) {
    return source === null ? { ok: true, value: publicGoodRoots() } : parseTrustedRoots(source.name, source.text, limits);
}
/**
 * The first key or authority of a trusted root whose validity interval bounds nothing, and why, or
 * null: a validFor without a start (the library alone reads it as open), with a start or an end
 * that is not an RFC 3339 time (the library reads an invalid date, and every certificate then fails
 * to chain: a configuration mistake that would read as forged evidence), or with an end before its
 * start (a window with no instant in it, which fails every certificate the same way).
 */
function unboundedKey(value) {
    const lists = [
        ['tlogs', (e) => ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_11__/* .isObject */ .Gv)(e['publicKey']) ? e['publicKey']['validFor'] : undefined)],
        ['ctlogs', (e) => ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_11__/* .isObject */ .Gv)(e['publicKey']) ? e['publicKey']['validFor'] : undefined)],
        ['certificateAuthorities', (e) => e['validFor']],
        ['timestampAuthorities', (e) => e['validFor']],
    ];
    for (const [name, validFor] of lists) {
        const list = value[name];
        if (!Array.isArray(list))
            continue;
        for (const [i, e] of list.entries()) {
            if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_11__/* .isObject */ .Gv)(e))
                continue;
            const f = validFor(e);
            if (f === undefined)
                continue;
            // Where the validFor is (a tlog's or ctlog's under its publicKey), for the member a problem is placed at.
            const at = name === 'tlogs' || name === 'ctlogs' ? [name, i, 'publicKey', 'validFor'] : [name, i, 'validFor'];
            if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_11__/* .isObject */ .Gv)(f) || f['start'] === undefined || f['start'] === null)
                return { text: `${name}[${i}] has a validFor without a start`, at };
            const times = [];
            for (const bound of ['start', 'end']) {
                const given = f[bound];
                // An end absent (or null, protobuf's JSON for absent) leaves the interval open at its end, as the library reads it.
                if (bound === 'end' && (given === undefined || given === null))
                    continue;
                const problem = (text) => ({
                    text: `${name}[${i}] has a validFor whose ${bound} ${text}`,
                    at: [...at, bound],
                });
                if (typeof given !== 'string')
                    return problem(`is not an RFC 3339 date-time (a ${given === null ? 'null' : typeof given})`);
                const time = (0,_core_time_js__WEBPACK_IMPORTED_MODULE_12__/* .parseRfc3339 */ .TM)(given);
                if (!time.ok)
                    return problem(`${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(given, 80))} ${time.reason}`);
                // A leap second is an RFC 3339 time the library's Date reads as none (every certificate would then fail to chain).
                if (Number.isNaN(Date.parse(given)))
                    return problem(`${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(given, 80))} is a time the Sigstore library cannot read (a leap second: write :59)`);
                times.push({ text: given, at: time.value });
            }
            // The interval is closed ([start, end]: the library keeps a key at both ends): an end before its start holds no instant,
            // and the key or authority would vouch for nothing, every certificate or entry then failing as a forgery would (a red team).
            const [start, end] = times;
            if (start && end && (0,_core_time_js__WEBPACK_IMPORTED_MODULE_12__/* .compareInstants */ .QI)(end.at, start.at) < 0)
                return {
                    text: `${name}[${i}] has a validFor whose end ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(end.text, 80))} is before its start ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(start.text, 80))}: it holds no instant (swapped?)`,
                    at: [...at, 'end'],
                };
        }
    }
    return null;
}
/** The trusted-root media types (versions) this gate reads; any other is refused, never guessed at. */
const ROOT_MEDIA_TYPES = new Set([
    'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    'application/vnd.dev.sigstore.trustedroot.v0.2+json',
]);
/** The bundle media types (versions) this gate reads (docs/keyless.md); any other is refused, never guessed at. */
const BUNDLE_MEDIA_TYPES = new Set([
    'application/vnd.dev.sigstore.bundle+json;version=0.1',
    'application/vnd.dev.sigstore.bundle+json;version=0.2',
    'application/vnd.dev.sigstore.bundle+json;version=0.3',
    'application/vnd.dev.sigstore.bundle.v0.3+json',
]);
function rootOf(value) {
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_11__/* .isObject */ .Gv)(value) ||
        typeof value['mediaType'] !== 'string' ||
        !value['mediaType'].startsWith('application/vnd.dev.sigstore.trustedroot'))
        return { ok: false, reason: { text: 'not a Sigstore trusted root (mediaType application/vnd.dev.sigstore.trustedroot+json)' } };
    if (!ROOT_MEDIA_TYPES.has(value['mediaType']))
        return {
            ok: false,
            reason: {
                text: `a trusted root of an unsupported version (mediaType ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(value['mediaType']))}; supported: ${[...ROOT_MEDIA_TYPES].join(', ')})`,
            },
        };
    // A validity interval without its start is malformed, never unbounded (the library alone reads it as open);
    // one whose start or end is no time bounds nothing (the library reads an invalid date: no certificate chains).
    const unbounded = unboundedKey(value);
    if (unbounded)
        return { ok: false, reason: { text: `the trusted root is malformed: ${unbounded.text}`, at: unbounded.at } };
    let root;
    try {
        root = _sigstore_protobuf_specs__WEBPACK_IMPORTED_MODULE_2__.TrustedRoot.fromJSON(value);
    }
    catch (error) {
        return { ok: false, reason: { text: `not a trusted root: ${(0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .messageOf */ .bD)(error)}` } };
    }
    if (root.certificateAuthorities.length === 0)
        return { ok: false, reason: { text: 'the trusted root has no certificate authority' } };
    try {
        const verifier = new _sigstore_verify__WEBPACK_IMPORTED_MODULE_3__/* .Verifier */ .BL((0,_sigstore_verify__WEBPACK_IMPORTED_MODULE_3__/* .toTrustMaterial */ .jO)(root), {
            tlogThreshold: 0,
            timestampThreshold: 1,
            ctlogThreshold: root.ctlogs.length > 0 ? 1 : 0,
        });
        const tlogIds = new Set(root.tlogs.flatMap((t) => (t.logId ? [Buffer.from(t.logId.keyId).toString('base64')] : [])));
        const canonical = (0,_core_binding_js__WEBPACK_IMPORTED_MODULE_4__/* .jcs */ .vI)(value);
        const sha256 = (0,_core_binding_js__WEBPACK_IMPORTED_MODULE_4__/* .sha256Hex */ .fg)(canonical.ok ? canonical.text : JSON.stringify(value));
        return { ok: true, value: { verifier, tlogIds, timestampAuthorities: root.timestampAuthorities.length, sha256 } };
    }
    catch (thrown) {
        return { ok: false, reason: { text: `the trusted root does not load: ${(0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .messageOf */ .bD)(thrown)}` } };
    }
}
let publicGood = null;
/** The Sigstore public-good root shipped in the bundle (scripts/gen-trusted-root.mjs). */
function publicGoodRoots() {
    if (!publicGood) {
        const result = rootOf(JSON.parse(_public_good_root_generated_js__WEBPACK_IMPORTED_MODULE_10__/* .PUBLIC_GOOD_ROOT */ .F.json));
        if (!result.ok)
            throw new Error(`the shipped public-good root does not load: ${result.reason.text}`);
        publicGood = [result.value];
    }
    return publicGood;
}
/** A Fulcio extension's text: a DER UTF8String for the current OIDs, raw bytes for the legacy issuer. */
function extensionText(cert, oid, legacy = false) {
    const ext = cert.extension(oid);
    if (!ext)
        return undefined;
    // The legacy extension is raw bytes: each byte one character (latin1), never 'ascii', which clears
    // the high bit and would read another issuer's bytes as the trusted one.
    return legacy ? ext.value.toString('latin1') : ext.valueObj.subs[0]?.value.toString('utf8');
}
/** Step 3: the SAN equals a trusted identity, and every issuer extension (current and legacy) equals the issuer. */
function checkSigner(cert, identities, issuer) {
    const san = cert.subjectAltName;
    if (san === undefined || !identities.has(san))
        return { ok: false, reason: `certificate identity ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(san ?? '(none)'))} is not trusted` };
    const issuers = [extensionText(cert, OID.issuer), extensionText(cert, OID.issuerV1, true)].filter((i) => i !== undefined);
    if (issuers.length === 0)
        return { ok: false, reason: 'the certificate has no OIDC issuer extension' };
    for (const i of issuers)
        if (i !== issuer)
            return { ok: false, reason: `certificate issuer ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(i))} is not ${issuer}` };
    return { ok: true, value: { san, issuer } };
}
/** Steps 3 and 4: who signed, and for which repository and ref. */
function checkIdentity(cert, policy) {
    const signer = checkSigner(cert, policy.identities, policy.issuer);
    if (!signer.ok)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('identity_untrusted', signer.reason);
    const { san } = signer.value;
    const repo = extensionText(cert, OID.sourceRepositoryUri);
    const ref = extensionText(cert, OID.sourceRepositoryRef);
    if (repo === undefined || ref === undefined)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('source_untrusted', 'the certificate has no Source Repository URI and Ref extensions (a workflow identity needs both)');
    const want = `https://github.com/${policy.sourceRepository}`;
    if ((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .asciiLower */ .F)(repo) !== (0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .asciiLower */ .F)(want))
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('source_untrusted', `source repository ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(repo))} is not ${want}`);
    if (!policy.sourceRefs.has(ref))
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('source_untrusted', `source ref ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(ref))} is not allowed`);
    return { ok: true, value: { identity: san, sourceRepository: repo, sourceRef: ref, issuer: signer.value.issuer } };
}
/** The earliest signing time the bundle's log entries or timestamps vouch for (what the verifier checked the certificate at). */
function signingTime(bundle) {
    const times = [];
    for (const t of bundle.timestamps) {
        if (t.$case === 'transparency-log')
            times.push(Number(t.tlogEntry.integratedTime) * 1000);
        else
            times.push(t.timestamp.signingTime.getTime());
    }
    const first = Math.min(...times);
    return Number.isFinite(first) ? new Date(first).toISOString().replace(/\.\d+Z$/, 'Z') : '(unknown)';
}
/** A Sigstore bundle's parsed form, or why a value is not one (another version included: never guessed at). */
function parseBundle(value) {
    const mediaType = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_11__/* .isObject */ .Gv)(value) ? value['mediaType'] : undefined;
    if (typeof mediaType === 'string' && !BUNDLE_MEDIA_TYPES.has(mediaType))
        return {
            ok: false,
            reason: `a Sigstore bundle of an unsupported version (mediaType ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(mediaType))}; supported: ${[...BUNDLE_MEDIA_TYPES].join(', ')})`,
        };
    try {
        return { ok: true, value: (0,_sigstore_bundle__WEBPACK_IMPORTED_MODULE_1__/* .bundleFromJSON */ .vw)(value) };
    }
    catch (error) {
        return { ok: false, reason: `not a Sigstore bundle: ${(0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .messageOf */ .bD)(error)}` };
    }
}
/**
 * The Sigstore layer itself (step 2 of docs/keyless.md): a certificate-signed bundle verified by
 * `@sigstore/verify` against one of the roots (one log entry or one timestamp; SCTs when the root
 * lists CT logs). `artifact`: the signed bytes of a message-signature bundle (DSSE carries its own).
 */
function verifySigned(value, roots, artifact) {
    const parsed = parseBundle(value);
    if (!parsed.ok)
        return parsed;
    const verified = verifyBundle(parsed.value, roots, artifact);
    return verified.ok ? verified : { ok: false, reason: verified.reason.detail };
}
/** The verifier's cause, as far as it says: the certificate's chain, a log or a timestamp authority. */
const causeOf = (thrown) => {
    const cause = thrown instanceof Error && thrown.cause instanceof Error ? `: ${thrown.cause.message}` : '';
    return `${thrown instanceof Error ? thrown.message : String(thrown)}${cause}`;
};
/**
 * Why a bundle that did not verify against any root failed, told apart from a forgery where the root
 * says so: a certificate that chains to no CA of any root, a log entry whose log no root holds, or a
 * timestamp when no root holds a timestamp authority is a root out of date (or the wrong root).
 */
function whyNotVerified(bundle, roots, first) {
    const why = causeOf(first);
    const code = first instanceof Error && 'code' in first ? String(first.code) : '';
    const entries = bundle.verificationMaterial.tlogEntries;
    const knownLog = entries.some((t) => t.logId !== undefined && roots.some((r) => r.tlogIds.has(Buffer.from(t.logId?.keyId ?? []).toString('base64'))));
    const stamps = bundle.verificationMaterial.timestampVerificationData?.rfc3161Timestamps.length ?? 0;
    const text = `the signature does not verify against the trusted root: ${why}`;
    if (code === 'CERTIFICATE_ERROR' && /no (valid|trusted) certificate path/.test(why))
        return { code: 'chain_untrusted', detail: `${text} (the certificate chains to no certificate authority of the trusted root)` };
    if (entries.length > 0 && !knownLog && stamps === 0)
        return { code: 'log_unknown', detail: `${text} (its transparency log is not in the trusted root)` };
    if (stamps > 0 && entries.length === 0 && roots.every((r) => r.timestampAuthorities === 0))
        return { code: 'log_unknown', detail: `${text} (the trusted root holds no timestamp authority)` };
    return { code: 'signature_invalid', detail: text };
}
function verifyBundle(bundle, roots, artifact) {
    let entity;
    try {
        entity = (0,_sigstore_verify__WEBPACK_IMPORTED_MODULE_3__/* .toSignedEntity */ .DC)(bundle, artifact === undefined ? undefined : Buffer.from(artifact));
    }
    catch (error) {
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('bundle_unsupported', `the bundle does not load: ${causeOf(error)}`);
    }
    if (entity.key.$case !== 'certificate')
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('bundle_unsupported', 'the bundle is signed with a key, not a workflow certificate');
    let first = null;
    for (const root of roots) {
        try {
            root.verifier.verify(entity);
            return { ok: true, value: { entity, cert: entity.key.certificate, bundle } };
        }
        catch (error) {
            first ??= error;
        }
    }
    return { ok: false, reason: whyNotVerified(bundle, roots, first) };
}
function checkBundle(value, expected, limits) {
    const { subject, policy, roots, predicate } = expected;
    const parsed = parseBundle(value);
    if (!parsed.ok)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('attestation_malformed', parsed.reason);
    if (!(0,_sigstore_bundle__WEBPACK_IMPORTED_MODULE_1__/* .isBundleWithDsseEnvelope */ .Km)(parsed.value))
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('bundle_unsupported', 'the bundle signs a message, not a DSSE envelope (an attestation is an in-toto Statement)');
    const envelope = parsed.value.content.dsseEnvelope;
    if (envelope.payloadType !== _read_envelope_js__WEBPACK_IMPORTED_MODULE_8__/* .IN_TOTO_PAYLOAD_TYPE */ .T4)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('payload_type', `payload type is ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(envelope.payloadType))}, not ${_read_envelope_js__WEBPACK_IMPORTED_MODULE_8__/* .IN_TOTO_PAYLOAD_TYPE */ .T4}`);
    const signed = verifyBundle(parsed.value, roots);
    if (!signed.ok)
        return signed;
    const { entity, cert } = signed.value;
    const who = checkIdentity(cert, policy);
    if (!who.ok)
        return who;
    const payload = (0,_read_envelope_js__WEBPACK_IMPORTED_MODULE_8__/* .strictPayload */ .iv)(Buffer.from(envelope.payload), limits);
    if (!payload.ok)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('statement_mismatch', payload.reason);
    const statement = payload.value;
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_11__/* .isObject */ .Gv)(statement) || statement['_type'] !== _read_envelope_js__WEBPACK_IMPORTED_MODULE_8__/* .STATEMENT_TYPE */ .zG)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('statement_mismatch', `_type is not ${_read_envelope_js__WEBPACK_IMPORTED_MODULE_8__/* .STATEMENT_TYPE */ .zG}`);
    const only = (0,_read_envelope_js__WEBPACK_IMPORTED_MODULE_8__/* .onlySubject */ .Lh)(statement);
    if (!only.ok)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('statement_mismatch', only.reason);
    if (only.value.sha256 !== subject.sha256)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('statement_mismatch', 'subject digest differs from the file');
    const name = node_path__WEBPACK_IMPORTED_MODULE_0___default().basename(subject.name);
    if (only.value.name !== name) {
        const given = typeof only.value.name === 'string' ? (0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(only.value.name) : only.value.name;
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('statement_mismatch', `subject name ${JSON.stringify(given)} is not ${JSON.stringify(name)}`);
    }
    if (statement['predicateType'] !== predicate.type)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('statement_mismatch', `predicate type is ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_13__/* .quote */ .hD)(String(statement['predicateType'])))}, not ${predicate.type}`);
    if (predicate.check) {
        const checked = predicate.check(statement['predicate']);
        if (!checked.ok)
            return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('statement_mismatch', checked.reason);
    }
    return { ok: true, value: { ...who.value, signedAt: signingTime(entity) } };
}
/**
 * A `.sigstore.json` file's shape, always checked, whatever trust is configured (docs/keyless.md):
 * one value (pretty-printed or not) or one compact value per line, each a Sigstore bundle of a
 * supported version; every value that is not is an `invalid_artifact` at its line (garbage is never
 * ignored, beside a good bundle neither).
 */
function readSigstoreFile(name, bytes, limits) {
    const { docs, sink } = valuesOf(name, bytes, limits);
    const bundles = [];
    for (const doc of docs) {
        const result = parseBundle(doc.value);
        if (result.ok)
            bundles.push(doc.value);
        else
            sink.error({ offset: doc.start }, result.reason);
    }
    return { bundles, findings: sink.findings };
}
/**
 * The bundles of a `.sigstore.json` against what they must be: trusted when one passes every check;
 * otherwise the first refusal (with the bundle's number when there are several). A file with any
 * malformed value, or none, trusts nothing.
 */
function checkBundles(file, expected, limits) {
    if (file.findings.length > 0)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('attestation_malformed', `the Sigstore bundle file is malformed (${file.findings[0]?.message ?? 'see its finding'})`);
    if (file.bundles.length === 0)
        return (0,_refusal_js__WEBPACK_IMPORTED_MODULE_14__/* .refuse */ .T)('attestation_empty', 'no attestation: the .sigstore.json holds no bundle');
    let refusal = null;
    for (const [i, value] of file.bundles.entries()) {
        // A file of thousands of failing bundles is not checked to its end: past the per-file finding
        // cap, it is refused (each check is a certificate chain and a log proof).
        if (i >= limits.maxFindingsPerFile && refusal)
            return {
                ok: false,
                reason: {
                    code: refusal.code,
                    detail: `${refusal.detail}; ${limits.maxFindingsPerFile} of ${file.bundles.length} bundles checked and none passes, the rest not checked (max-findings-per-file)`,
                },
            };
        const result = checkBundle(value, expected, limits);
        if (result.ok)
            return result;
        refusal ??=
            file.bundles.length > 1
                ? { code: result.reason.code, detail: `${result.reason.detail} (bundle ${i + 1}; none of ${file.bundles.length} passes)` }
                : result.reason;
    }
    return { ok: false, reason: refusal ?? { code: 'attestation_empty', detail: 'no bundle' } };
}
/** A `.sigstore.json` file read and checked in one step (verify-attestation, tests): the signer, or the refusal in words. */
function checkBundleFile(name, bytes, expected, limits) {
    const file = readSigstoreFile(name, bytes, limits);
    const first = file.findings[0];
    if (first)
        return { ok: false, reason: first.message };
    const result = checkBundles(file, expected, limits);
    return result.ok ? result : { ok: false, reason: refusalText(result.reason.code, result.reason.detail) };
}


/***/ })

};
