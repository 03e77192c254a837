// A small kustomize renderer for the deployment tests: no kustomize binary is available offline, and the npm registry
// has no kustomize that runs without one. It renders the subset of kustomization.yaml that k8s/ uses, the way
// kustomize does, and refuses anything else (an unknown field throws), so an overlay cannot silently use a feature
// this renderer would ignore:
//   resources   files (multi-document YAML) and directories holding a kustomization.yaml, rendered first
//   patches     `path:` strategic-merge patches, each document targeting the object of its kind and name
//   namespace   set on every namespaced object; a Namespace object takes it as its name
//   labels      `pairs` added to every object's metadata (includeSelectors: false only)
//   images      newName / newTag / digest for containers whose image is `name` (with or without a tag)
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, parse } from 'yaml';

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  patches?: Array<{ path: string }>;
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean }>;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
}

const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'patches', 'labels', 'images']);
const CLUSTER_SCOPED_KINDS = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PriorityClass']);
/**
 * Lists merged item by item in a strategic-merge patch, by their Kubernetes patch merge key; every other list is
 * replaced by the patch's, as kustomize does for lists without a merge strategy.
 */
const LIST_MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  imagePullSecrets: 'name',
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readDocuments(file: string): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
    const value = document.toJS() as KubernetesObject | null;
    if (value === null) continue;
    if (!value.apiVersion || !value.kind || !value.metadata?.name) throw new Error(`${file}: an object without apiVersion, kind or name`);
    objects.push(value);
  }
  return objects;
}

/** The strategic merge of `patch` into `target` (a new value; neither input is changed). */
export function strategicMerge(target: unknown, patch: unknown, field = ''): unknown {
  if (patch === null) return undefined; // `field: null` deletes the field
  if (Array.isArray(patch)) {
    const key = LIST_MERGE_KEYS[field] ?? (field === 'ports' ? portsKey(patch) : undefined);
    if (!key || !Array.isArray(target)) return structuredClone(patch);
    const merged = target.map((item) => structuredClone(item) as unknown);
    for (const item of patch) {
      const index = merged.findIndex((existing) => isObject(existing) && isObject(item) && existing[key] === item[key]);
      if (index === -1) merged.push(structuredClone(item));
      else merged[index] = strategicMerge(merged[index], item, field);
    }
    return merged;
  }
  if (!isObject(patch) || !isObject(target)) return structuredClone(patch);
  const merged: Json = structuredClone(target);
  for (const [name, value] of Object.entries(patch)) {
    const next = strategicMerge(merged[name], value, name);
    if (next === undefined) delete merged[name];
    else merged[name] = next;
  }
  return merged;
}

/** Container ports merge on containerPort, Service ports on port. */
function portsKey(items: unknown[]): string {
  return items.some((item) => isObject(item) && 'containerPort' in item) ? 'containerPort' : 'port';
}

function podSpecs(object: KubernetesObject): Json[] {
  const template = (object.spec as Json | undefined)?.template as Json | undefined;
  const spec = template?.spec;
  return isObject(spec) ? [spec] : [];
}

function setImage(image: string, rule: NonNullable<Kustomization['images']>[number]): string | undefined {
  const match = /^([^:@]+(?::\d+\/[^:@]+)?)(?::([^@]+))?(?:@(.+))?$/.exec(image);
  if (!match || match[1] !== rule.name) return undefined;
  const name = rule.newName ?? rule.name;
  if (rule.digest) return `${name}@${rule.digest}`;
  const tag = rule.newTag ?? match[2];
  return tag ? `${name}:${tag}` : name;
}

/** Renders the kustomization in `directory` (a folder holding kustomization.yaml) to its list of objects. */
export function renderKustomization(directory: string): KubernetesObject[] {
  const file = path.join(directory, 'kustomization.yaml');
  const kustomization = parse(readFileSync(file, 'utf8')) as Kustomization;
  const unsupported = Object.keys(kustomization).filter((field) => !SUPPORTED_FIELDS.has(field));
  if (unsupported.length > 0) throw new Error(`${file}: this renderer does not support ${unsupported.join(', ')}`);
  if (kustomization.kind !== 'Kustomization') throw new Error(`${file}: kind must be Kustomization`);

  let objects: KubernetesObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const target = path.join(directory, resource);
    if (!existsSync(target)) throw new Error(`${file}: resource ${resource} does not exist`);
    objects.push(...(statSync(target).isDirectory() ? renderKustomization(target) : readDocuments(target)));
  }

  for (const { path: patchPath, ...rest } of kustomization.patches ?? []) {
    if (Object.keys(rest).length > 0) throw new Error(`${file}: only \`path:\` patches are supported`);
    for (const patch of readDocuments(path.join(directory, patchPath))) {
      const index = objects.findIndex((object) => object.kind === patch.kind && object.metadata.name === patch.metadata.name);
      if (index === -1)
        throw new Error(`${file}: patch ${patchPath} targets ${patch.kind}/${patch.metadata.name}, which is not a resource`);
      objects[index] = strategicMerge(objects[index], patch) as KubernetesObject;
    }
  }

  if (kustomization.namespace) {
    const namespace = kustomization.namespace;
    objects = objects.map((object) => {
      if (object.kind === 'Namespace') return { ...object, metadata: { ...object.metadata, name: namespace } };
      if (CLUSTER_SCOPED_KINDS.has(object.kind)) return object;
      return { ...object, metadata: { ...object.metadata, namespace } };
    });
  }

  for (const { pairs, includeSelectors, ...rest } of kustomization.labels ?? []) {
    if (includeSelectors !== false || Object.keys(rest).length > 0) throw new Error(`${file}: only labels with includeSelectors: false`);
    objects = objects.map((object) => ({ ...object, metadata: { ...object.metadata, labels: { ...object.metadata.labels, ...pairs } } }));
  }

  for (const rule of kustomization.images ?? []) {
    for (const spec of objects.flatMap(podSpecs)) {
      for (const container of [...((spec.containers as Json[]) ?? []), ...((spec.initContainers as Json[]) ?? [])]) {
        const image = typeof container.image === 'string' ? setImage(container.image, rule) : undefined;
        if (image) container.image = image;
      }
    }
  }

  const ids = objects.map((object) => `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate) throw new Error(`${file}: ${duplicate} is defined twice`);
  return objects;
}
