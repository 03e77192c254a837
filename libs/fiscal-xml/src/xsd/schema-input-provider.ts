import { readFileSync, realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { xmlRegisterInputProvider } from 'libxml2-wasm';

// libxml2-wasm reads included/imported schema files only through registered input providers. This one serves
// files below explicitly allowed folders and nothing else, so no document can make libxml2 read arbitrary files.
const allowedRoots = new Set<string>();
const openFiles = new Map<number, { bytes: Buffer; offset: number }>();
let nextHandle = 1;
let registered = false;

function toPath(filename: string): string | null {
  try {
    const path = filename.startsWith('file:') ? fileURLToPath(filename) : resolve(filename);
    const real = realpathSync(path);
    for (const root of allowedRoots) if (real.startsWith(root)) return real;
    return null;
  } catch {
    return null;
  }
}

export function allowSchemaRoot(root: string): void {
  allowedRoots.add(realpathSync(root).replace(/\/?$/, sep));
  if (registered) return;
  registered = xmlRegisterInputProvider({
    match: (filename) => toPath(filename) !== null,
    open: (filename) => {
      const path = toPath(filename);
      if (path === null) return undefined;
      const handle = nextHandle++;
      openFiles.set(handle, { bytes: readFileSync(path), offset: 0 });
      return handle;
    },
    read: (handle, buffer) => {
      const file = openFiles.get(handle);
      if (!file) return -1;
      const count = file.bytes.copy(buffer, 0, file.offset, file.offset + buffer.byteLength);
      file.offset += count;
      return count;
    },
    close: (handle) => openFiles.delete(handle),
  });
  if (!registered) throw new Error('Could not register the XSD schema input provider with libxml2-wasm');
}
