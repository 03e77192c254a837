import type { KubernetesObject } from './kustomize-render.js';
import { hasSchema, schemaProblems } from './manifest-schemas.js';

const scaledObject = (spec: Record<string, unknown>): KubernetesObject => ({
  apiVersion: 'keda.sh/v1alpha1',
  kind: 'ScaledObject',
  metadata: { name: 'issuer' },
  spec: { scaleTargetRef: { name: 'issuer' }, triggers: [{ type: 'redis', metadata: { listName: 'talao:bull:issuance:wait' } }], ...spec },
});

describe('schemaProblems', () => {
  it('accepts a valid ScaledObject and refuses a wrong type, a missing field and an unknown one', () => {
    expect(schemaProblems(scaledObject({ minReplicaCount: 1 }))).toEqual([]);
    expect(schemaProblems(scaledObject({ minReplicaCount: 'one' })).join('\n')).toMatch(/\/spec\/minReplicaCount must be integer/);
    expect(schemaProblems(scaledObject({ triggers: [{ metadata: {} }] })).join('\n')).toMatch(/must have required property 'type'/);
    expect(schemaProblems(scaledObject({ minReplicas: 1 })).join('\n')).toMatch(/must NOT have additional properties.*minReplicas/);
  });

  it('refuses a TriggerAuthentication secret reference without its key', () => {
    const authentication = (reference: Record<string, string>): KubernetesObject => ({
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'TriggerAuthentication',
      metadata: { name: 'talao-redis' },
      spec: { secretTargetRef: [reference] },
    });
    expect(schemaProblems(authentication({ parameter: 'address', name: 'talao-secrets', key: 'REDIS_ADDRESS' }))).toEqual([]);
    expect(schemaProblems(authentication({ parameter: 'address', name: 'talao-secrets' })).join('\n')).toMatch(/required property 'key'/);
  });

  it('refuses a PrometheusRule alert without its expression', () => {
    const rule = (alert: Record<string, unknown>): KubernetesObject => ({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'talao' },
      spec: { groups: [{ name: 'talao.queues', rules: [alert] }] },
    });
    expect(schemaProblems(rule({ alert: 'Backlog', expr: 'talao_queue_waiting_jobs > 1', for: '5m' }))).toEqual([]);
    expect(schemaProblems(rule({ alert: 'Backlog', for: '5m' })).join('\n')).toMatch(/required property 'expr'/);
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
