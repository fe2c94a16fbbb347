// Validates rendered Kubernetes manifests (the output of `helm template`) against the
// Kubernetes OpenAPI schemas shipped by `kubernetes-models`, then checks a few rules of
// this chart that a schema cannot express.
//
//   node_modules/.bin/node .ci/validate-manifests.ts rendered.yaml [more.yaml ...]
//   helm template x deploy/helm/finance-api | node_modules/.bin/node .ci/validate-manifests.ts -
//
// Exits 1 when any document is invalid.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAllDocuments } from 'yaml';

type Obj = Record<string, unknown>;
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; labels?: Record<string, string> };
} & Obj;
type ModelClass = new (data: Obj) => { validate(): void };

const require = createRequire(import.meta.url);
const errors: string[] = [];
const fail = (where: string, message: string): void => {
  errors.push(`${where}: ${message}`);
};

// CRD groups the chart renders -> the @kubernetes-models package with their schemas.
const CRD_PACKAGES: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
  'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
};

async function loadModel(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  // "v1" -> kubernetes-models/v1, "apps/v1" -> kubernetes-models/apps/v1, CRDs from their packages
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const crdPackage = CRD_PACKAGES[group];
  let mod: Record<string, unknown>;
  try {
    mod = crdPackage
      ? ((await import(`${crdPackage}/${apiVersion}`)) as Record<string, unknown>)
      : (require(`kubernetes-models/${apiVersion}`) as Record<string, unknown>);
  } catch {
    return undefined;
  }
  const model = mod[kind];
  return typeof model === 'function' ? (model as ModelClass) : undefined;
}

const get = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((acc, key) => (acc && typeof acc === 'object' ? (acc as Obj)[key] : undefined), value);

const isSubset = (sub: Record<string, string> | undefined, sup: Record<string, string> | undefined): boolean =>
  !!sub && Object.keys(sub).length > 0 && Object.entries(sub).every(([k, v]) => sup?.[k] === v);

function readInputs(args: string[]): { file: string; text: string }[] {
  if (args.length === 0) args = ['-'];
  return args.map((file) => ({ file, text: readFileSync(file === '-' ? 0 : file, 'utf8') }));
}

const manifests: { where: string; m: Manifest }[] = [];
for (const { file, text } of readInputs(process.argv.slice(2))) {
  parseAllDocuments(text, { uniqueKeys: true }).forEach((doc, i) => {
    const where = `${file}#${i}`;
    if (doc.errors.length > 0) {
      for (const e of doc.errors) fail(where, `YAML: ${e.message}`);
      return;
    }
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) return; // empty document
    if (typeof value !== 'object' || Array.isArray(value)) {
      fail(where, 'document is not a mapping');
      return;
    }
    manifests.push({ where, m: value as Manifest });
  });
}

if (manifests.length === 0) fail('input', 'no Kubernetes documents found');

const seen = new Set<string>();
for (const { where: at, m } of manifests) {
  const name = m.metadata?.name;
  const where = `${at} ${m.kind ?? '?'}/${name ?? '?'}`;
  if (typeof m.apiVersion !== 'string' || typeof m.kind !== 'string') {
    fail(where, 'apiVersion and kind are required');
    continue;
  }
  if (!name) fail(where, 'metadata.name is required');
  else if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) || name.length > 253) fail(where, 'invalid name');
  const key = `${m.apiVersion}/${m.kind}/${name}`;
  if (seen.has(key)) fail(where, 'duplicate resource');
  seen.add(key);

  const Model = await loadModel(m.apiVersion, m.kind);
  if (!Model) {
    fail(where, `unknown apiVersion/kind ${m.apiVersion} ${m.kind}`);
    continue;
  }
  try {
    new Model(m as Obj).validate();
  } catch (e) {
    const details = (e as { errors?: unknown }).errors;
    fail(where, `schema: ${details ? JSON.stringify(details) : String(e)}`);
  }
}

// Chart rules a schema cannot express.
const byKind = (kind: string) => manifests.filter(({ m }) => m.kind === kind).map(({ m }) => m);
const workloads = [...byKind('Deployment'), ...byKind('Job')];
for (const w of workloads) {
  const where = `${w.kind}/${w.metadata?.name}`;
  const podSpec = get(w, 'spec', 'template', 'spec') as Obj | undefined;
  if (get(podSpec, 'securityContext', 'runAsNonRoot') !== true) fail(where, 'pod must set runAsNonRoot: true');
  const containers = (get(podSpec, 'containers') as Obj[] | undefined) ?? [];
  for (const c of containers) {
    const cw = `${where} container ${c.name}`;
    if (get(c, 'securityContext', 'readOnlyRootFilesystem') !== true) fail(cw, 'readOnlyRootFilesystem must be true');
    if (get(c, 'securityContext', 'allowPrivilegeEscalation') !== false)
      fail(cw, 'allowPrivilegeEscalation must be false');
    if (!get(c, 'resources', 'requests')) fail(cw, 'resources.requests required');
    if (w.kind === 'Deployment') {
      if (get(c, 'livenessProbe', 'httpGet', 'path') !== '/healthz') fail(cw, 'livenessProbe must GET /healthz');
      if (get(c, 'readinessProbe', 'httpGet', 'path') !== '/readyz') fail(cw, 'readinessProbe must GET /readyz');
    }
  }
  if (w.kind === 'Deployment') {
    const selector = get(w, 'spec', 'selector', 'matchLabels') as Record<string, string> | undefined;
    const labels = get(w, 'spec', 'template', 'metadata', 'labels') as Record<string, string> | undefined;
    if (!isSubset(selector, labels)) fail(where, 'spec.selector.matchLabels must match the pod template labels');
    if (typeof get(podSpec, 'terminationGracePeriodSeconds') !== 'number')
      fail(where, 'terminationGracePeriodSeconds required');
  }
}

const podLabels = byKind('Deployment').map(
  (d) => get(d, 'spec', 'template', 'metadata', 'labels') as Record<string, string> | undefined,
);
for (const s of byKind('Service')) {
  const selector = get(s, 'spec', 'selector') as Record<string, string> | undefined;
  if (!podLabels.some((labels) => isSubset(selector, labels)))
    fail(`Service/${s.metadata?.name}`, 'selector matches no Deployment pods');
}
for (const p of [...byKind('PodDisruptionBudget'), ...byKind('NetworkPolicy')]) {
  const selector = (get(p, 'spec', 'selector', 'matchLabels') ?? get(p, 'spec', 'podSelector', 'matchLabels')) as
    | Record<string, string>
    | undefined;
  if (!podLabels.some((labels) => isSubset(selector, labels)))
    fail(`${p.kind}/${p.metadata?.name}`, 'selector matches no Deployment pods');
}
const deploymentNames = new Set(byKind('Deployment').map((d) => d.metadata?.name));
for (const h of byKind('HorizontalPodAutoscaler')) {
  const target = get(h, 'spec', 'scaleTargetRef', 'name') as string | undefined;
  if (!deploymentNames.has(target)) fail(`HorizontalPodAutoscaler/${h.metadata?.name}`, `unknown target ${target}`);
}

for (const s of byKind('ScaledObject')) {
  const target = get(s, 'spec', 'scaleTargetRef', 'name') as string | undefined;
  if (!deploymentNames.has(target)) fail(`ScaledObject/${s.metadata?.name}`, `unknown target ${target}`);
  const scaled = byKind('Deployment').find((d) => d.metadata?.name === target);
  if (scaled && get(scaled, 'spec', 'replicas') !== undefined)
    fail(`ScaledObject/${s.metadata?.name}`, `Deployment ${target} must leave replicas to KEDA`);
}
const serviceLabels = byKind('Service').map((s) => s.metadata?.labels);
for (const m of byKind('ServiceMonitor')) {
  const selector = get(m, 'spec', 'selector', 'matchLabels') as Record<string, string> | undefined;
  if (!serviceLabels.some((labels) => isSubset(selector, labels)))
    fail(`ServiceMonitor/${m.metadata?.name}`, 'selector matches no Service');
}
const serviceNames = new Set(byKind('Service').map((s) => s.metadata?.name));
for (const i of byKind('Ingress')) {
  const rules = (get(i, 'spec', 'rules') as Obj[] | undefined) ?? [];
  for (const path of rules.flatMap((r) => (get(r, 'http', 'paths') as Obj[] | undefined) ?? [])) {
    const name = get(path, 'backend', 'service', 'name') as string | undefined;
    if (!serviceNames.has(name)) fail(`Ingress/${i.metadata?.name}`, `unknown backend Service ${name}`);
  }
}
for (const r of byKind('HTTPRoute')) {
  const rules = (get(r, 'spec', 'rules') as Obj[] | undefined) ?? [];
  for (const ref of rules.flatMap((rule) => (get(rule, 'backendRefs') as Obj[] | undefined) ?? [])) {
    if (!serviceNames.has(ref.name as string)) fail(`HTTPRoute/${r.metadata?.name}`, `unknown backend ${ref.name}`);
  }
}

if (errors.length > 0) {
  console.error(`✗ ${errors.length} problem(s) in ${manifests.length} manifest(s):`);
  for (const e of errors) console.error(`  - ${e}`);
  process.exit(1);
}
const counts = new Map<string, number>();
for (const { m } of manifests) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
console.log(`✓ ${manifests.length} manifest(s) valid: ${[...counts].map(([kind, n]) => `${n} ${kind}`).join(', ')}`);
