// Unknown-field check for the built-in kinds. kubernetes-models validates types and required fields but accepts any
// extra field (its compiled schemas do not refuse them), so a misspelt `readinesProbe` would pass it, and the API
// server would drop it with a warning. The field names of every API type are in the package's own declarations
// (`export interface IContainer { "name": string; … }`), so this reads them from there: no list of our own to go stale.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

type Fields = Map<string, string>; // field name → its declared type

function declarationFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : declarationFiles(full);
    return entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The fields of each exported interface, by its global name (`IIoK8sApiCoreV1Container`). */
function readInterfaces(files: string[]): Map<string, Fields> {
  const byGlobalName = new Map<string, Fields>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '');
    const aliases = new Map<string, string>();
    for (const exported of text.matchAll(/export type \{([^}]*)\}/g)) {
      for (const alias of exported[1]!.matchAll(/(\w+) as (\w+)/g)) aliases.set(alias[1]!, alias[2]!);
    }
    for (const declaration of text.matchAll(/export interface (\w+)(?: extends [\w, ]+)? \{/g)) {
      const fields: Fields = new Map();
      let depth = 1;
      let index = declaration.index + declaration[0].length;
      let member = '';
      for (; depth > 0 && index < text.length; index++) {
        const character = text[index]!;
        if (character === '{' || character === '<') depth++;
        if (character === '}' || character === '>') depth--;
        if (depth === 0) break;
        if (character === ';' && depth === 1) {
          const field = /^\s*"([^"]+)"\??:\s*([\s\S]+)$/.exec(member);
          if (field) fields.set(field[1]!, field[2]!.replace(/\s+/g, ' ').trim());
          member = '';
        } else member += character;
      }
      byGlobalName.set(aliases.get(declaration[1]!) ?? declaration[1]!, fields);
    }
  }
  return byGlobalName;
}

const require = createRequire(import.meta.url);
const packageDirectory = (name: string) => path.dirname(require.resolve(`${name}/package.json`));
let interfaces: Map<string, Fields> | undefined;

function loadInterfaces(): Map<string, Fields> {
  interfaces ??= readInterfaces([
    ...declarationFiles(packageDirectory('kubernetes-models')),
    ...declarationFiles(packageDirectory('@kubernetes-models/apimachinery')),
  ]);
  return interfaces;
}

function check(value: unknown, type: string, where: string, problems: string[]): void {
  if (value === null || value === undefined) return;
  const list = /^Array<(.+)>$/.exec(type);
  if (list) {
    if (Array.isArray(value)) value.forEach((item, index) => check(item, list[1]!, `${where}[${index}]`, problems));
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (typeof value === 'object') for (const [key, item] of Object.entries(value)) check(item, map[1]!, `${where}.${key}`, problems);
    return;
  }
  const fields = loadInterfaces().get(type);
  if (!fields || typeof value !== 'object' || Array.isArray(value)) return; // a scalar, IntOrString, Quantity…
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const fieldType = fields.get(key);
    if (fieldType === undefined) problems.push(`${where}.${key}: unknown field`);
    else check(item, fieldType, `${where}.${key}`, problems);
  }
}

/**
 * The fields of `object` its API type does not name, as `kind.path.field: unknown field`. `typeName` is the global
 * name of the kind's interface, e.g. IIoK8sApiAppsV1Deployment.
 */
export function unknownFields(object: object, typeName: string, where: string): string[] {
  if (!loadInterfaces().has(typeName)) throw new Error(`kubernetes-models declares no ${typeName}`);
  const problems: string[] = [];
  check(object, typeName, where, problems);
  return problems;
}
