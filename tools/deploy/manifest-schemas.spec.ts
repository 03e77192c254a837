import type { KubernetesObject } from './kustomize-render.js';
import { hasSchema, schemaProblems } from './manifest-schemas.js';

/** A named object of the kind, with its spec. */
const manifest = (apiVersion: string, kind: string, name: string, spec: Record<string, unknown>): KubernetesObject => ({
  apiVersion,
  kind,
  metadata: { name },
  spec,
});
const scaledObject = (spec: Record<string, unknown>) =>
  manifest('keda.sh/v1alpha1', 'ScaledObject', 'issuer', {
    scaleTargetRef: { name: 'issuer' },
    triggers: [{ type: 'redis', metadata: { listName: 'talao:bull:issuance:wait' } }],
    ...spec,
  });
const triggerAuthentication = (reference: Record<string, string>) =>
  manifest('keda.sh/v1alpha1', 'TriggerAuthentication', 'talao-redis', { secretTargetRef: [reference] });
const prometheusRule = (alert: Record<string, unknown>) =>
  manifest('monitoring.coreos.com/v1', 'PrometheusRule', 'talao', { groups: [{ name: 'talao.queues', rules: [alert] }] });

describe('schemaProblems', () => {
  it('accepts a valid ScaledObject and refuses a wrong type, a missing field and an unknown one', () => {
    expect(schemaProblems(scaledObject({ minReplicaCount: 1 }))).toEqual([]);
    expect(schemaProblems(scaledObject({ minReplicaCount: 'one' })).join('\n')).toMatch(/\/spec\/minReplicaCount must be integer/);
    expect(schemaProblems(scaledObject({ triggers: [{ metadata: {} }] })).join('\n')).toMatch(/must have required property 'type'/);
    expect(schemaProblems(scaledObject({ minReplicas: 1 })).join('\n')).toMatch(/must NOT have additional properties.*minReplicas/);
  });

  // Each a valid object, accepted, and the same without one required field, refused with the field named.
  it.each([
    {
      refused: 'a TriggerAuthentication secret reference without its key',
      valid: triggerAuthentication({ parameter: 'address', name: 'talao-secrets', key: 'REDIS_ADDRESS' }),
      invalid: triggerAuthentication({ parameter: 'address', name: 'talao-secrets' }),
      problem: /required property 'key'/,
    },
    {
      refused: 'a PrometheusRule alert without its expression',
      valid: prometheusRule({ alert: 'Backlog', expr: 'talao_queue_waiting_jobs > 1', for: '5m' }),
      invalid: prometheusRule({ alert: 'Backlog', for: '5m' }),
      problem: /required property 'expr'/,
    },
  ])('refuses $refused', ({ valid, invalid, problem }) => {
    expect(schemaProblems(valid)).toEqual([]);
    expect(schemaProblems(invalid).join('\n')).toMatch(problem);
  });

  it('refuses fields the Kubernetes API does not name, at any depth, and accepts label maps and IntOrString ports', () => {
    const deployment = (container: Record<string, unknown>): KubernetesObject => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'gateway', labels: { 'app.kubernetes.io/name': 'gateway' } },
      spec: {
        selector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } },
        template: {
          metadata: { labels: { 'app.kubernetes.io/name': 'gateway' } },
          spec: { containers: [{ name: 'gateway', image: 'talao/gateway', ...container }] },
        },
      },
    });
    expect(schemaProblems(deployment({ readinessProbe: { httpGet: { path: '/readyz', port: 'http' } } }))).toEqual([]);
    expect(schemaProblems(deployment({ readinesProbe: { httpGet: { path: '/readyz', port: 'http' } } }))).toEqual([
      'apps/v1/Deployment gateway.spec.template.spec.containers[0].readinesProbe: unknown field',
    ]);
    expect(schemaProblems(deployment({ securityContext: { readOnlyRootFileSystem: true } }))).toEqual([
      'apps/v1/Deployment gateway.spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem: unknown field',
    ]);
  });

  it('refuses a Deployment without its selector, and says which kinds it cannot check', () => {
    const deployment: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'gateway' },
      spec: { template: { spec: { containers: [{ name: 'gateway', image: 'talao/gateway' }] } } },
    };
    expect(schemaProblems(deployment).join('\n')).toMatch(/selector/);
    const ingress: KubernetesObject = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'talao' } };
    expect(hasSchema(ingress)).toBe(false);
    expect(schemaProblems(ingress)).toEqual(['networking.k8s.io/v1/Ingress talao: no schema for this kind']);
  });
});
