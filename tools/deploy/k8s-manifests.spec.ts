// k8s/ rendered as kustomize would (the base and each overlay), every object checked against its schema, then what the
// platform promises of each app: probes, hardening, metrics, Service, PodDisruptionBudget, a scaler on the right
// signal (KEDA on the worker's own queue, an HPA for the HTTP apps), secrets by reference, the network boundaries.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { queueKeyPrefix } from '@talao/queue-contracts';
import { PDF_RENDERER_ENV } from '../../tools/start/app-table.mjs';
import { renderKustomization, type KubernetesObject } from './kustomize-render.js';
import { hasSchema, schemaProblems } from './manifest-schemas.js';
import { deployedApps, appPort, appQueue } from './platform-apps.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RENDERINGS = ['k8s/base', 'k8s/overlays/homologation', 'k8s/overlays/production'];
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10'];
const SECRET_VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'ADMIN_TOKEN', 'CERTIFICATE_ENCRYPTION_KEY'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rendered YAML, checked field by field

describe.each(RENDERINGS)('%s', (directory) => {
  const objects = renderKustomization(path.join(root, directory));
  const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name) as Json | undefined;
  const overlay = directory.includes('overlays');

  it('renders, and every object is valid against its schema (kubernetes-models, the KEDA and Prometheus Operator CRDs)', () => {
    expect(objects.length).toBeGreaterThan(20);
    expect(objects.filter((object) => !hasSchema(object)).map((object) => object.kind)).toEqual([]);
    expect(objects.flatMap(schemaProblems)).toEqual([]);
  });

  it('holds no Secret and no secret value: every secret variable comes from talao-secrets by reference', () => {
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
    for (const spec of objects.flatMap(podSpec)) {
      for (const container of spec.containers as Json[]) {
        for (const variable of (container.env ?? []) as Json[]) {
          if (SECRET_VARIABLES.includes(variable.name) || /TOKEN|PASSWORD|SECRET/.test(variable.name)) {
            expect(variable.value).toBeUndefined();
            expect(variable.valueFrom?.secretKeyRef?.name).toBe('talao-secrets');
          }
        }
      }
    }
  });

  it.each(deployedApps)('%s: Deployment with probes on its port, resources, hardening and metrics annotations', (name) => {
    const deployment = find('Deployment', name);
    expect(deployment).toBeDefined();
    const template = deployment!.spec.template;
    for (const [label, value] of Object.entries(deployment!.spec.selector.matchLabels)) expect(template.metadata.labels[label]).toBe(value);
    const spec = template.spec;
    expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    const container = (spec.containers as Json[]).find((candidate) => candidate.name === name)!;
    expect(container.image).toMatch(overlay ? new RegExp(`^talao/${name}:[\\w.-]+$`) : new RegExp(`^talao/${name}$`));
    const port = appPort(name);
    const portName = appQueue(name) ? 'health' : 'http';
    expect(container.ports).toEqual([{ name: portName, containerPort: port.number }]);
    expect((container.env as Json[]).find((variable) => variable.name === port.variable)?.value).toBe(String(port.number));
    for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe']) expect(container[probe].httpGet.port).toBe(portName);
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.resources.requests.cpu).toBeTruthy();
    expect(container.resources.requests.memory).toBeTruthy();
    expect(container.resources.limits.memory).toBeTruthy();
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    const volumes = new Set(((spec.volumes ?? []) as Json[]).map((volume) => volume.name));
    for (const mount of (container.volumeMounts ?? []) as Json[]) expect(volumes.has(mount.name)).toBe(true);
    expect(template.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(port.number),
      'prometheus.io/path': '/metrics',
    });
    expect(container.envFrom).toContainEqual({ configMapRef: { name: 'talao-config' } });
  });

  it('pdf-renderer: a writable /tmp large enough for Chromium (its profile and, with --disable-dev-shm-usage, shared memory)', () => {
    const spec = find('Deployment', 'pdf-renderer')!.spec.template.spec;
    const mount = (spec.containers[0].volumeMounts as Json[]).find((candidate) => candidate.mountPath === '/tmp');
    const volume = (spec.volumes as Json[]).find((candidate) => candidate.name === mount?.name);
    expect(volume?.emptyDir?.sizeLimit).toBe('1Gi');
  });

  it("pdf-renderer: the launcher's environment for its Node process (two malloc arenas)", () => {
    const env = find('Deployment', 'pdf-renderer')!.spec.template.spec.containers[0].env as Json[];
    for (const [name, value] of Object.entries(PDF_RENDERER_ENV)) expect(env.find((variable) => variable.name === name)?.value).toBe(value);
  });

  it.each(deployedApps)('%s: a Service on its named port and a PodDisruptionBudget, both selecting its pods', (name) => {
    const labels = find('Deployment', name)!.spec.template.metadata.labels;
    const service = find('Service', name);
    expect(service?.spec.ports.map((port: Json) => port.targetPort)).toEqual([appQueue(name) ? 'health' : 'http']);
    for (const [label, value] of Object.entries(service!.spec.selector)) expect(labels[label]).toBe(value);
    const budget = find('PodDisruptionBudget', name);
    expect(budget?.spec.maxUnavailable ?? budget?.spec.minAvailable).toBeDefined();
    for (const [label, value] of Object.entries(budget!.spec.selector.matchLabels)) expect(labels[label]).toBe(value);
  });

  it.each(deployedApps)('%s: scaled on its own signal (KEDA on its queue, or an HPA on CPU)', (name) => {
    const queue = appQueue(name);
    if (!queue) {
      const autoscaler = find('HorizontalPodAutoscaler', name);
      expect(autoscaler?.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(autoscaler!.spec.minReplicas).toBeGreaterThanOrEqual(1);
      expect(autoscaler!.spec.maxReplicas).toBeGreaterThan(autoscaler!.spec.minReplicas);
      expect(find('ScaledObject', name)).toBeUndefined();
      return;
    }
    const scaled = find('ScaledObject', name);
    expect(scaled?.spec.scaleTargetRef.name).toBe(name);
    expect(scaled!.spec.minReplicaCount).toBeGreaterThanOrEqual(1); // periodic tasks need a live replica
    expect(scaled!.spec.maxReplicaCount).toBeGreaterThan(scaled!.spec.minReplicaCount);
    expect(find('HorizontalPodAutoscaler', name)).toBeUndefined();
    const [trigger, ...others] = scaled!.spec.triggers as Json[];
    expect(others).toEqual([]);
    const prefix = find('ConfigMap', 'talao-config')!.data.REDIS_PREFIX as string;
    expect(trigger!.type).toBe('redis');
    expect(trigger!.metadata.listName).toBe(`${queueKeyPrefix(prefix)}:${queue}:wait`);
    expect(Number(trigger!.metadata.listLength)).toBeGreaterThan(0);
    const authentication = find('TriggerAuthentication', trigger!.authenticationRef.name);
    const parameters = (authentication?.spec.secretTargetRef ?? []) as Json[];
    expect(parameters.map((parameter) => parameter.parameter).sort()).toEqual(['address', 'password']);
    for (const parameter of parameters) expect(parameter.name).toBe('talao-secrets');
  });

  it('scales within the environment: homologation at most two replicas of anything, production two workers at rest', () => {
    const scaled = objects.filter((object) => object.kind === 'ScaledObject') as Json[];
    const autoscalers = objects.filter((object) => object.kind === 'HorizontalPodAutoscaler') as Json[];
    if (directory.endsWith('homologation')) {
      for (const so of scaled) expect([so.spec.minReplicaCount, so.spec.maxReplicaCount]).toEqual([1, 2]);
      for (const hpa of autoscalers) expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([1, 2]);
    }
    if (directory.endsWith('production')) for (const so of scaled) expect(so.spec.minReplicaCount).toBeGreaterThanOrEqual(2);
  });

  it('has the migration Job: prisma migrate deploy, the database URL from the Secret', () => {
    const container = find('Job', 'talao-migrate')!.spec.template.spec.containers[0];
    expect(container.image).toMatch(overlay ? /^talao\/migrate:[\w.-]+$/ : /^talao\/migrate$/);
    expect(container.command.join(' ')).toMatch(/prisma migrate deploy/);
    expect(container.env).toEqual([{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'talao-secrets', key: 'DATABASE_URL' } } }]);
  });

  describe('network policies', () => {
    const policies = objects.filter((object) => object.kind === 'NetworkPolicy') as Json[];
    const selecting = (app: string) =>
      policies.filter((policy) => selects(policy.spec.podSelector, { 'app.kubernetes.io/name': app, 'app.kubernetes.io/component': 'x' }));
    const egressOf = (app: string) =>
      selecting(app)
        .filter((policy) => policy.spec.policyTypes.includes('Egress'))
        .flatMap((policy) => (policy.spec.egress ?? []) as Json[]);
    const publicRules = (app: string) =>
      egressOf(app).filter((rule) => (rule.to ?? []).some((peer: Json) => peer.ipBlock?.cidr === '0.0.0.0/0'));

    it('deny everything by default', () => {
      const deny = policies.find((policy) => policy.metadata.name === 'default-deny');
      expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    });

    it('workers reach the authorizers over HTTPS to public addresses only; pdf-renderer reaches no public address', () => {
      for (const app of ['issuer', 'canceller', 'received-sync']) {
        const rules = publicRules(app);
        expect(rules.length).toBeGreaterThan(0);
        for (const rule of rules) {
          expect(rule.ports).toEqual([{ protocol: 'TCP', port: 443 }]);
          for (const peer of rule.to) expect(peer.ipBlock.except).toEqual(PRIVATE_RANGES);
        }
      }
      expect(publicRules('pdf-renderer')).toEqual([]);
    });

    it('the webhook dispatcher reaches the public internet minus the private ranges, and no authorizer rule', () => {
      const rules = publicRules('webhook-dispatcher');
      expect(rules).toEqual([{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: PRIVATE_RANGES } }] }]);
    });

    it('every app on PostgreSQL and Redis reaches them on their ports; the MCP app only the gateway', () => {
      for (const app of deployedApps.filter((name) => name !== 'mcp')) {
        const ports = egressOf(app).flatMap((rule) => (rule.ports ?? []).map((port: Json) => port.port));
        expect(ports).toEqual(expect.arrayContaining([5432, 6379]));
      }
      const mcpEgress = egressOf('mcp').filter((rule) => !(rule.ports ?? []).some((port: Json) => [53, 4317, 4318].includes(port.port)));
      expect(mcpEgress).toEqual([
        { to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }], ports: [{ protocol: 'TCP', port: 3000 }] },
      ]);
    });

    it('the gateway takes traffic from the ingress controller', () => {
      const sources = selecting('gateway')
        .flatMap((policy) => (policy.spec.ingress ?? []) as Json[])
        .flatMap((rule) => rule.from ?? []);
      expect(sources).toContainEqual({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } });
    });
  });

  it('alerts on the platform series: queue depth, authorizer errors, webhook failures, 5xx, the received-sync cap', () => {
    const rule = find('PrometheusRule', 'talao');
    expect(rule?.apiVersion).toBe('monitoring.coreos.com/v1');
    const alerts = (rule!.spec.groups as Json[]).flatMap((group) => group.rules as Json[]);
    for (const alert of alerts) {
      expect(alert.expr).toMatch(/\btalao_[a-z_]+\b/);
      expect(['critical', 'warning', 'info']).toContain(alert.labels.severity);
      expect(alert.annotations.summary).toBeTruthy();
      expect(alert.annotations.description).toMatch(/docs\/operations\.md|pauses/);
    }
    const metrics = new Set(alerts.flatMap((alert) => String(alert.expr).match(/\btalao_[a-z_]+\b/g) ?? []));
    expect([...metrics].sort()).toEqual([
      'talao_authorizer_requests_total',
      'talao_http_requests_total',
      'talao_queue_waiting_jobs',
      'talao_received_sync_cap_reached',
      'talao_webhook_deliveries_total',
    ]);
  });
});

describe('CRD schemas', () => {
  it('are carried with their provenance', () => {
    const readme = readFileSync(path.join(root, 'tools/deploy/schemas/README.md'), 'utf8');
    const files = [
      'keda/keda.sh_scaledobjects.yaml',
      'keda/keda.sh_triggerauthentications.yaml',
      'prometheus-operator/monitoring.coreos.com_prometheusrules.yaml',
    ];
    for (const file of files) {
      expect(existsSync(path.join(root, 'tools/deploy/schemas', file))).toBe(true);
      expect(readme).toContain(`\`${file}\``);
    }
  });
});

function podSpec(object: KubernetesObject): Json[] {
  const spec = (object.spec as Json | undefined)?.template?.spec;
  return spec ? [spec] : [];
}

/** Whether a label selector (matchLabels, matchExpressions with In / NotIn / Exists) selects pods with `labels`. */
function selects(selector: Json, labels: Record<string, string>): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const expression of (selector.matchExpressions ?? []) as Json[]) {
    const value = labels[expression.key];
    if (expression.operator === 'In' && !expression.values.includes(value)) return false;
    if (expression.operator === 'NotIn' && expression.values.includes(value)) return false;
    if (expression.operator === 'Exists' && value === undefined) return false;
  }
  return true;
}
