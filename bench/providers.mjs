// The provider importers at 100 000 entries (issue 41's bench rows): aws-cloudtrail (100 log files
// of 1 000 records, gzipped as S3 holds them; then the same with every file checked against an
// AWS-format digest signed with our own RSA key), k8s-audit (100 000 event lines) and
// okta-system-log (1 000 pages of 100). Entries per second and peak RSS, median of --repeat;
// targets: ≥ 30 000 entries/s each, digests < 10 % on top. `node bench/providers.mjs`, or from
// bench/bench.mjs.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { MiB, median, timedNode } from './timing.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { repeat: { type: 'string', default: '3' } } });
const repeat = Number(values.repeat);
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-bench-providers-'));
const N = 100_000;

/** `import KIND ARGS`, `times` runs: the median time and the peak RSS. */
function importMedian(kind, args, times = repeat) {
  const runs = [];
  for (let i = 0; i < times; i++) {
    rmSync(path.join(tmp, 'out.ndjson'), { force: true });
    const r = timedNode([path.join(root, 'dist/cli.js'), 'import', kind, '--output', path.join(tmp, 'out.ndjson'), ...args], tmp);
    if (r.status !== 0) throw new Error(`import ${kind} failed: ${r.stderr}`);
    runs.push(r);
  }
  return { ms: median(runs.map((r) => r.ms)), rss: Math.max(...runs.map((r) => r.rss)) };
}
const line = (name, m) =>
  console.log(
    `${name}, ${N.toLocaleString('en')} entries (median of ${repeat}): ${(m.ms / 1000).toFixed(2)} s | ${Math.round(N / (m.ms / 1000)).toLocaleString('en')} entries/s | peak RSS ${(m.rss / MiB).toFixed(1)} MiB`,
  );

try {
  // CloudTrail: 100 log files of 1 000 records (a third CreateAccessKey, a third AttachRolePolicy, a third reads).
  const ACCT = '123456789012';
  const logs = path.join(tmp, 'logs');
  mkdirSync(logs);
  const files = [];
  for (let f = 0; f < 100; f++) {
    const records = [];
    for (let i = 0; i < 1000; i++) {
      const n = f * 1000 + i;
      const name = ['CreateAccessKey', 'AttachRolePolicy', 'ListUsers'][n % 3];
      records.push({
        eventVersion: '1.09',
        userIdentity: {
          type: 'AssumedRole',
          arn: `arn:aws:sts::${ACCT}:assumed-role/agent/s`,
          accountId: ACCT,
          sessionContext: { sessionIssuer: { type: 'Role', arn: `arn:aws:iam::${ACCT}:role/agent` } },
        },
        eventTime: new Date(Date.UTC(2026, 11, 1) + n * 100).toISOString().replace(/\.\d+Z$/, 'Z'),
        eventSource: 'iam.amazonaws.com',
        eventName: name,
        awsRegion: 'us-east-1',
        requestParameters:
          name === 'CreateAccessKey'
            ? { userName: `user-${n}` }
            : name === 'AttachRolePolicy'
              ? { roleName: `role-${n}`, policyArn: 'arn:aws:iam::aws:policy/ReadOnlyAccess' }
              : { maxItems: 100 },
        responseElements: null,
        eventID: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        readOnly: name === 'ListUsers',
        eventType: 'AwsApiCall',
        managementEvent: true,
        recipientAccountId: ACCT,
      });
    }
    const raw = Buffer.from(JSON.stringify({ Records: records }));
    const file = path.join(logs, `${ACCT}_CloudTrail_us-east-1_20261201T${String(f).padStart(4, '0')}Z_bench${f}.json.gz`);
    writeFileSync(file, gzipSync(raw));
    files.push({ file, sha256: createHash('sha256').update(raw).digest('hex') });
  }
  const plain = importMedian(
    'aws-cloudtrail',
    files.map((f) => f.file),
  );
  line('import aws-cloudtrail', plain);
  // One digest per 10 log files (an hour's), chained, signed in AWS's format with our own key.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = publicKey.export({ format: 'der', type: 'pkcs1' });
  const fingerprint = createHash('md5').update(der).digest('hex');
  const digests = path.join(tmp, 'digests');
  mkdirSync(digests);
  let previous = null;
  for (let h = 0; h < 10; h++) {
    const end = `2026-12-01T${String(h + 1).padStart(2, '0')}:00:00Z`;
    const name = `${ACCT}_CloudTrail-Digest_us-east-1_t_us-east-1_20261201T${String(h + 1).padStart(2, '0')}0000Z.json.gz`;
    const object = `AWSLogs/${ACCT}/CloudTrail-Digest/us-east-1/2026/12/01/${name}`;
    const d = {
      awsAccountId: ACCT,
      digestStartTime: `2026-12-01T${String(h).padStart(2, '0')}:00:00Z`,
      digestEndTime: end,
      digestS3Bucket: 'b',
      digestS3Object: object,
      digestPublicKeyFingerprint: fingerprint,
      digestSignatureAlgorithm: 'SHA256withRSA',
      previousDigestSignature: previous,
      logFiles: files
        .slice(h * 10, h * 10 + 10)
        .map((f) => ({ s3Bucket: 'b', s3Object: path.basename(f.file), hashValue: f.sha256, hashAlgorithm: 'SHA-256' })),
    };
    const bytes = Buffer.from(JSON.stringify(d));
    const signature = sign(
      'sha256',
      Buffer.from(`${end}\nb/${object}\n${createHash('sha256').update(bytes).digest('hex')}\n${previous ?? 'null'}`),
      privateKey,
    ).toString('hex');
    writeFileSync(path.join(digests, name), gzipSync(bytes));
    writeFileSync(path.join(digests, `${name}.sig`), signature);
    previous = signature;
  }
  const keys = path.join(tmp, 'keys.json');
  writeFileSync(
    keys,
    JSON.stringify({
      PublicKeyList: [
        {
          Value: der.toString('base64'),
          ValidityStartTime: '2026-01-01T00:00:00Z',
          ValidityEndTime: '2027-01-01T00:00:00Z',
          Fingerprint: fingerprint,
        },
      ],
    }),
  );
  const checkedArgs = ['--cloudtrail-digests', digests, '--cloudtrail-public-keys', keys, ...files.map((f) => f.file)];
  const checked = importMedian('aws-cloudtrail', checkedArgs);
  line('import aws-cloudtrail, every log file checked against its digest', checked);
  // The cost of the digests: interleaved pairs (runs on this machine move by ±15 %), the median of their ratios.
  const ratios = [];
  for (let i = 0; i < Math.max(repeat, 7); i++) {
    const without = importMedian(
      'aws-cloudtrail',
      files.map((f) => f.file),
      1,
    );
    const withDigests = importMedian('aws-cloudtrail', checkedArgs, 1);
    ratios.push(withDigests.ms / without.ms);
  }
  ratios.sort((a, b) => a - b);
  console.log(
    `digests checked / not (${ratios.length} interleaved pairs, median of the ratios): ${ratios[Math.floor(ratios.length / 2)].toFixed(3)}×`,
  );

  // Kubernetes: 100 000 event lines, half of them role bindings created.
  const k8s = [];
  for (let n = 0; n < N; n++)
    k8s.push(
      JSON.stringify({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'Request',
        auditID: `a-${n}`,
        stage: 'ResponseComplete',
        verb: n % 2 ? 'get' : 'create',
        user: { username: 'system:serviceaccount:agents:deployer', groups: ['system:authenticated'] },
        objectRef: {
          resource: 'rolebindings',
          namespace: `ns-${n % 100}`,
          name: `rb-${n}`,
          apiGroup: 'rbac.authorization.k8s.io',
          apiVersion: 'v1',
        },
        responseStatus: { metadata: {}, code: 201 },
        requestReceivedTimestamp: '2026-12-01T10:00:00.000000Z',
        stageTimestamp: '2026-12-01T10:00:00.100000Z',
      }),
    );
  writeFileSync(path.join(tmp, 'audit.log'), `${k8s.join('\n')}\n`);
  line('import k8s-audit', importMedian('k8s-audit', ['--cluster', 'prod', '--max-file-size', '128MiB', path.join(tmp, 'audit.log')]));

  // Okta: 1 000 pages of 100, a third privilege grants.
  const pages = [];
  for (let p = 0; p < N / 100; p++) {
    const page = [];
    for (let i = 0; i < 100; i++) {
      const n = p * 100 + i;
      page.push({
        uuid: `u-${n}`,
        published: '2026-12-01T10:00:00.000Z',
        eventType: n % 3 ? 'user.session.start' : 'user.account.privilege.grant',
        outcome: { result: 'SUCCESS', reason: null },
        actor: { id: '00u1', type: 'User', alternateId: 'agent@acme.example' },
        target: [{ id: `00u${n}`, type: 'User', alternateId: `u${n}@acme.example` }],
        displayMessage: 'Grant user privilege',
      });
    }
    pages.push(JSON.stringify(page));
  }
  writeFileSync(path.join(tmp, 'okta.json'), pages.join(''));
  line('import okta-system-log', importMedian('okta-system-log', ['--org', 'acme', path.join(tmp, 'okta.json')]));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
