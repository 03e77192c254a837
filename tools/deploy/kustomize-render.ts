// A small kustomize renderer for the deployment tests: no kustomize binary is available offline, and the npm registry
// has no kustomize that runs without one. It renders the subset of kustomization.yaml that k8s/ uses, the way
// kustomize does, and refuses anything else (an unknown field throws), so an overlay cannot silently use a feature
// this renderer would ignore:
//   resources   files (multi-document YAML) and directories holding a kustomization.yaml, rendered first
//   patches     one patch each, from `path:` or inline `patch:`: a strategic merge (targeting the object of its kind
//               and name, or every object `target:` selects) or a JSON 6902 list of operations (add, replace,
//               remove) applied to every object `target:` selects (kind and/or name)
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
  patches?: PatchEntry[];
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean }>;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
}

interface PatchEntry {
  path?: string;
  patch?: string;
  target?: { kind?: string; name?: string };
}
interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
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

function readPatch(entry: PatchEntry, directory: string, file: string): { label: string; content: unknown } {
  const unsupported = Object.keys(entry).filter((key) => !['path', 'patch', 'target'].includes(key));
  const targetUnsupported = Object.keys(entry.target ?? {}).filter((key) => !['kind', 'name'].includes(key));
  if (unsupported.length > 0 || targetUnsupported.length > 0 || (entry.path === undefined) === (entry.patch === undefined)) {
    throw new Error(`${file}: a patch is \`path:\` or \`patch:\`, with an optional target of kind and name`);
  }
  const label = entry.path ?? 'an inline patch';
  const text = entry.path !== undefined ? readFileSync(path.join(directory, entry.path), 'utf8') : entry.patch!;
  const documents = parseAllDocuments(text).filter((document) => document.contents !== null);
  // kustomize's `patches` field takes one patch per entry (several objects in one file was patchesStrategicMerge's).
  if (documents.length !== 1) throw new Error(`${file}: ${label} holds ${documents.length} documents; one patch per entry`);
  return { label, content: documents[0]!.toJS() as unknown };
}

function applyPatch(objects: KubernetesObject[], entry: PatchEntry, directory: string, file: string): KubernetesObject[] {
  const { label, content } = readPatch(entry, directory, file);
  const patchObject = isObject(content) ? (content as unknown as KubernetesObject) : undefined;
  const selects = (object: KubernetesObject) =>
    entry.target
      ? (!entry.target.kind || entry.target.kind === object.kind) && (!entry.target.name || entry.target.name === object.metadata.name)
      : !!patchObject && object.kind === patchObject.kind && object.metadata.name === patchObject.metadata?.name;
  if (!patchObject && !entry.target) throw new Error(`${file}: ${label} is a JSON patch without a target`);
  if (!objects.some(selects)) throw new Error(`${file}: ${label} targets ${describeTarget(entry, patchObject)}, which is not a resource`);
  return objects.map((object) => {
    if (!selects(object)) return object;
    if (patchObject) {
      // With a target, the patch's own name does not narrow it (kustomize applies it to every selected object).
      const { name: _name, ...metadata } = patchObject.metadata ?? {};
      return strategicMerge(object, entry.target ? { ...patchObject, metadata } : patchObject) as KubernetesObject;
    }
    return applyJsonPatch(object, content as JsonPatchOperation[], `${file}: ${label}`);
  });
}

function describeTarget(entry: PatchEntry, patchObject: KubernetesObject | undefined): string {
  if (entry.target) return `${entry.target.kind ?? '*'}/${entry.target.name ?? '*'}`;
  return `${patchObject?.kind}/${patchObject?.metadata?.name}`;
}

/** RFC 6902 add, replace and remove on a copy of `object` (a missing path is an error, as in kustomize). */
export function applyJsonPatch(object: KubernetesObject, operations: JsonPatchOperation[], where: string): KubernetesObject {
  const result = structuredClone(object) as unknown as Json;
  for (const { op, path: pointer, value } of operations) {
    if (!['add', 'replace', 'remove'].includes(op)) throw new Error(`${where}: operation ${op} is not supported`);
    const keys = pointer
      .split('/')
      .slice(1)
      .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = keys.pop();
    let parent: unknown = result;
    for (const key of keys) parent = isObject(parent) || Array.isArray(parent) ? (parent as Json)[key] : undefined;
    if (last === undefined || !(isObject(parent) || Array.isArray(parent))) throw new Error(`${where}: ${pointer} does not exist`);
    if (Array.isArray(parent)) {
      const list = parent as unknown[];
      const index = last === '-' ? list.length : Number(last);
      if (op === 'add') list.splice(index, 0, structuredClone(value));
      else if (index >= list.length) throw new Error(`${where}: ${pointer} does not exist`);
      else if (op === 'replace') list[index] = structuredClone(value);
      else list.splice(index, 1);
      continue;
    }
    const container = parent as Json;
    if (op !== 'add' && !(last in container)) throw new Error(`${where}: ${pointer} does not exist`);
    if (op === 'remove') delete container[last];
    else container[last] = structuredClone(value);
  }
  return result as unknown as KubernetesObject;
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

  for (const entry of kustomization.patches ?? []) objects = applyPatch(objects, entry, directory, file);

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
