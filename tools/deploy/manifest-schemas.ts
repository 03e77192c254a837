// Offline schema validation of rendered Kubernetes objects: the built-in kinds with kubernetes-models (the API's
// OpenAPI schemas, compiled) plus an unknown-field check from the same package's declarations (known-fields.ts), KEDA's and the Prometheus Operator's kinds with their published CRD schemas carried in
// schemas/ (README.md there says where they come from). Each function returns the problems found, an empty list for a valid object.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { parse } from 'yaml';
import { unknownFields } from './known-fields.js';
import type { KubernetesObject } from './kustomize-render.js';

const here = path.dirname(fileURLToPath(import.meta.url));

type Model = new (data: never) => { validate(): void };
/** Each built-in kind's model, and the name of its interface in the package's declarations (known-fields.ts). */
const BUILT_IN_MODELS: Record<string, { model: Model; type: string }> = {
  'v1/Namespace': { model: Namespace, type: 'IIoK8sApiCoreV1Namespace' },
  'v1/ConfigMap': { model: ConfigMap, type: 'IIoK8sApiCoreV1ConfigMap' },
  'v1/Service': { model: Service, type: 'IIoK8sApiCoreV1Service' },
  'apps/v1/Deployment': { model: Deployment, type: 'IIoK8sApiAppsV1Deployment' },
  'batch/v1/Job': { model: Job, type: 'IIoK8sApiBatchV1Job' },
  'policy/v1/PodDisruptionBudget': { model: PodDisruptionBudget, type: 'IIoK8sApiPolicyV1PodDisruptionBudget' },
  'autoscaling/v2/HorizontalPodAutoscaler': { model: HorizontalPodAutoscaler, type: 'IIoK8sApiAutoscalingV2HorizontalPodAutoscaler' },
  'networking.k8s.io/v1/NetworkPolicy': { model: NetworkPolicy, type: 'IIoK8sApiNetworkingV1NetworkPolicy' },
};

type Schema = Record<string, unknown>;

/**
 * The API server's strict field validation (kubectl apply --validate=strict): a field the schema does not name is an
 * error, except where the schema preserves unknown fields. CRD schemas say so implicitly; ajv needs it spelled out.
 */
function refuseUnknownFields(schema: Schema): Schema {
  const copy: Schema = { ...schema };
  if (copy.properties && copy.additionalProperties === undefined && !copy['x-kubernetes-preserve-unknown-fields']) {
    copy.additionalProperties = false;
  }
  for (const [key, value] of Object.entries(copy)) {
    if (key === 'properties' && value && typeof value === 'object') {
      copy.properties = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([name, s]) => [name, refuseUnknownFields(s)]),
      );
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      copy[key] = refuseUnknownFields(value as Schema);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      copy[key] = value.map((s: Schema) => refuseUnknownFields(s));
    }
  }
  return copy;
}

/**
 * CRD patterns are Go (RE2) regular expressions: `(?i)` (the Prometheus Operator's enums, `^(?i)(abort|warn)?$`) makes
 * the rest of the pattern case-insensitive, the `i` flag in JavaScript. Nothing else in the carried schemas differs.
 */
const goPattern = Object.assign(
  (pattern: string, flags: string) =>
    pattern.includes('(?i)') ? new RegExp(pattern.replaceAll('(?i)', ''), `${flags}i`) : new RegExp(pattern, flags),
  { code: 'goPattern' },
);

function crdValidator(file: string, version: string): ValidateFunction {
  const crd = parse(readFileSync(path.join(here, 'schemas', file), 'utf8')) as {
    spec: { versions: Array<{ name: string; schema: { openAPIV3Schema: Schema } }> };
  };
  const served = crd.spec.versions.find((candidate) => candidate.name === version);
  if (!served) throw new Error(`${file} has no version ${version}`);
  const schema = refuseUnknownFields(served.schema.openAPIV3Schema);
  // metadata is the API server's ObjectMeta, not described by the CRD: checked for a name only, below.
  (schema.properties as Record<string, Schema>).metadata = { type: 'object' };
  const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp: goPattern } });
  // The OpenAPI formats the CRDs use (date-time only in status, which manifests never carry).
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  return ajv.compile(schema);
}

const CUSTOM_VALIDATORS: Record<string, () => ValidateFunction> = {
  'keda.sh/v1alpha1/ScaledObject': () => crdValidator('keda/keda.sh_scaledobjects.yaml', 'v1alpha1'),
  'keda.sh/v1alpha1/TriggerAuthentication': () => crdValidator('keda/keda.sh_triggerauthentications.yaml', 'v1alpha1'),
  'monitoring.coreos.com/v1/PrometheusRule': () => crdValidator('prometheus-operator/monitoring.coreos.com_prometheusrules.yaml', 'v1'),
};
const compiled = new Map<string, ValidateFunction>();

/** Kinds with a schema here (a manifest of any other kind fails the deployment tests). */
export function hasSchema(object: KubernetesObject): boolean {
  const id = `${object.apiVersion}/${object.kind}`;
  return id in BUILT_IN_MODELS || id in CUSTOM_VALIDATORS;
}

/** The schema problems of `object` (apiVersion/kind and path: message), none when it is valid. */
export function schemaProblems(object: KubernetesObject): string[] {
  const id = `${object.apiVersion}/${object.kind}`;
  const where = `${id} ${object.metadata.name}`;
  const builtIn = BUILT_IN_MODELS[id];
  if (builtIn) {
    const problems = unknownFields(object, builtIn.type, where);
    try {
      new builtIn.model(structuredClone(object) as never).validate();
    } catch (error) {
      problems.push(`${where}: ${(error as Error).message}`);
    }
    return problems;
  }
  const factory = CUSTOM_VALIDATORS[id];
  if (!factory) return [`${where}: no schema for this kind`];
  if (!compiled.has(id)) compiled.set(id, factory());
  const validate = compiled.get(id)!;
  if (validate(object)) return [];
  return (validate.errors ?? []).map((error) => `${where}: ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
}
