// The deployment files cannot run here (no Docker engine, no cluster), so this checks what can be checked without
// them: docker-compose.yml, every Dockerfile and every Kubernetes manifest parse, and every app under apps/ is wired
// into `npm start`, Compose and Kubernetes with the image, probes and resources the platform promises.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { APPS } from './app-table.mjs';
import { dockerfileStages } from './dockerfile-stages.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BASE_IMAGE = 'node:24-bookworm-slim';
/**
 * Never deployed to production (docs/architecture.md) and holding no state in PostgreSQL or Redis: the authorizer
 * simulator stands in for SEFAZ in tests, local runs and Compose demos. No Kubernetes manifests, no database wiring.
 */
const LOCAL_ONLY_APPS = new Set(['authorizer-sim']);
/**
 * Deployed, but with no database, queue or secret of their own: the MCP app reaches the platform only through the
 * gateway's REST API with each caller's credential (SPEC.md Authentication 7). No PostgreSQL/Redis wiring, no Secret.
 */
const STATELESS_APPS = new Set(['mcp']);

// An app is a folder under apps/ with a package.json and an entry point (src/main.ts); a folder still being written
// (no main.ts yet) is not runnable, so not yet required to be wired.
const appNames = readdirSync(path.join(root, 'apps'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .filter((entry) => ['package.json', 'src/main.ts'].every((file) => existsSync(path.join(root, 'apps', entry.name, file))))
  .map((entry) => entry.name)
  .sort();
const deployedApps = appNames.filter((name) => !LOCAL_ONLY_APPS.has(name));
const statefulApps = deployedApps.filter((name) => !STATELESS_APPS.has(name));

type Manifest = { kind?: string; metadata?: { name?: string }; spec?: Record<string, unknown> } & Record<string, unknown>;
type Container = {
  name: string;
  image?: string;
  readinessProbe?: { httpGet?: { path?: string } };
  livenessProbe?: { httpGet?: { path?: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  envFrom?: Array<{ secretRef?: { name: string }; configMapRef?: { name: string } }>;
  ports?: Array<{ name?: string; containerPort: number }>;
};
type PodSpec = { containers: Container[]; securityContext?: { runAsNonRoot?: boolean } };

function readText(relative: string): string {
  return readFileSync(path.join(root, relative), 'utf8');
}

describe('apps', () => {
  it('there is at least one app (the gateway)', () => {
    expect(appNames).toContain('gateway');
  });

  it.each(appNames)('%s is in the npm start table, with its built entry point under its own folder and a readiness URL', (name) => {
    const app = APPS.find((candidate) => candidate.name === name);
    expect(app).toBeDefined();
    expect(app?.entry).toMatch(new RegExp(`^apps/${name}/dist/.+\\.js$`));
    expect(Object.keys(app?.ports ?? {}).length).toBeGreaterThan(0);
  });

  it('the npm start table names only existing apps, each port preferred by one app only', () => {
    for (const app of APPS) expect(appNames).toContain(app.name);
    const ports = APPS.flatMap((app) => Object.values(app.ports));
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe('Dockerfiles', () => {
  it.each(appNames)(`apps/%s/Dockerfile builds on ${BASE_IMAGE} and runs as a non-root user`, (name) => {
    const file = `apps/${name}/Dockerfile`;
    expect(existsSync(path.join(root, file))).toBe(true);
    const stages = dockerfileStages(readText(file));
    expect(stages.length).toBeGreaterThanOrEqual(2); // multi-stage: build apart from runtime
    const known = new Set<string>();
    for (const stage of stages) {
      // Every stage starts from the pinned base image or from an earlier stage of the same file.
      expect(stage.from === BASE_IMAGE || known.has(stage.from)).toBe(true);
      if (stage.name) known.add(stage.name);
    }
    const runtime = stages.at(-1)!;
    expect(runtime.from).toBe(BASE_IMAGE);
    expect(runtime.user).toBeDefined();
    expect(['root', '0']).not.toContain(runtime.user);
    expect(runtime.instructions.some((line) => /^CMD\s/i.test(line) && line.includes(`apps/${name}/dist/`))).toBe(true);
  });
});

describe('.dockerignore', () => {
  it('keeps local state, dependencies and build output out of the build context', () => {
    const ignored = readText('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const entry of ['**/node_modules', '**/dist', '.data', '.git', '.env']) expect(ignored).toContain(entry);
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(readText('docker-compose.yml'), { merge: true }) as {
    services: Record<
      string,
      {
        image?: string;
        build?: { context: string; dockerfile: string; target?: string };
        environment?: Record<string, string>;
        depends_on?: Record<string, { condition: string }>;
        healthcheck?: { test: unknown };
      }
    >;
  };

  it('has PostgreSQL and Redis with health checks, and a one-shot migration after PostgreSQL', () => {
    for (const name of ['postgres', 'redis']) expect(compose.services[name]?.healthcheck?.test).toBeDefined();
    const migrate = compose.services.migrate;
    expect(migrate?.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(migrate?.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
  });

  it.each(appNames)('has a service for %s built from its Dockerfile, with a health check', (name) => {
    const service = compose.services[name];
    expect(service).toBeDefined();
    expect(service?.build?.dockerfile).toBe(`apps/${name}/Dockerfile`);
    expect(service?.build?.context).toBe('.');
    expect(service?.healthcheck?.test).toBeDefined();
  });

  it.each(statefulApps)('starts %s after the migration, with PostgreSQL and Redis wired in', (name) => {
    const service = compose.services[name];
    expect(service?.depends_on?.migrate?.condition).toBe('service_completed_successfully');
    expect(service?.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(service?.depends_on?.redis?.condition).toBe('service_healthy');
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX']) expect(service?.environment?.[variable]).toBeTruthy();
    expect(service?.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(service?.environment?.REDIS_URL).toMatch(/^redis:\/\/redis:6379/);
  });

  it('every build target exists in its Dockerfile', () => {
    for (const service of Object.values(compose.services)) {
      if (!service.build) continue;
      const names = dockerfileStages(readText(service.build.dockerfile)).map((stage) => stage.name);
      if (service.build.target) expect(names).toContain(service.build.target);
    }
  });

  it('secrets come from the environment, never written in the file', () => {
    for (const service of Object.values(compose.services)) {
      for (const variable of ['ADMIN_TOKEN', 'CERTIFICATE_ENCRYPTION_KEY', 'SIM_CONTROL_TOKEN']) {
        const value = service.environment?.[variable];
        if (value !== undefined) expect(value).toMatch(new RegExp(`^\\$\\{${variable}:\\?`));
      }
    }
  });
});

describe('Kubernetes manifests (k8s/)', () => {
  const files = readdirSync(path.join(root, 'k8s')).filter((file) => /\.ya?ml$/.test(file));
  const manifests: Manifest[] = [];
  for (const file of files.filter((f) => f !== 'kustomization.yaml')) {
    for (const document of parseAllDocuments(readText(`k8s/${file}`))) {
      if (document.errors.length > 0) throw new Error(`k8s/${file}: ${document.errors.map((e) => e.message).join('; ')}`);
      const value = document.toJS() as Manifest | null;
      if (value) manifests.push(value);
    }
  }
  const byKind = (kind: string) => manifests.filter((manifest) => manifest.kind === kind);

  it('every manifest has apiVersion, kind and a name, and the kustomization lists every file', () => {
    for (const manifest of manifests) {
      expect(typeof manifest.apiVersion).toBe('string');
      expect(typeof manifest.kind).toBe('string');
      expect(manifest.metadata?.name).toBeTruthy();
    }
    const kustomization = parse(readText('k8s/kustomization.yaml')) as { resources: string[] };
    expect([...kustomization.resources].sort()).toEqual(files.filter((f) => f !== 'kustomization.yaml').sort());
  });

  it('has a migration Job running prisma migrate deploy with the database URL from the Secret', () => {
    const job = byKind('Job').find((manifest) => manifest.metadata?.name === 'talao-migrate');
    const container = (job?.spec as { template: { spec: PodSpec } } | undefined)?.template.spec.containers[0];
    expect(container?.image).toBe('talao/migrate');
    expect((container as { command?: string[] } | undefined)?.command?.join(' ')).toMatch(/prisma migrate deploy/);
  });

  it.each(deployedApps)(
    '%s has a Deployment with probes on /readyz and /healthz, resources, config from the Secret, and a Service',
    (name) => {
      const deployment = byKind('Deployment').find((manifest) => manifest.metadata?.name === name);
      expect(deployment).toBeDefined();
      const spec = deployment!.spec as {
        selector: { matchLabels: Record<string, string> };
        template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
      };
      expect(spec.template.spec.securityContext?.runAsNonRoot).toBe(true);
      const container = spec.template.spec.containers.find((candidate) => candidate.name === name);
      expect(container?.image).toBe(`talao/${name}`);
      expect(container?.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(container?.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(container?.resources?.requests?.cpu).toBeTruthy();
      expect(container?.resources?.requests?.memory).toBeTruthy();
      expect(container?.resources?.limits?.memory).toBeTruthy();
      const configSources = container?.envFrom ?? [];
      if (STATELESS_APPS.has(name)) expect(configSources.some((source) => source.secretRef)).toBe(false);
      else expect(configSources.some((source) => source.secretRef?.name === 'talao-secrets')).toBe(true);
      // The selector must match the pod template, and a Service must select those pods.
      for (const [label, value] of Object.entries(spec.selector.matchLabels)) expect(spec.template.metadata.labels[label]).toBe(value);
      const service = byKind('Service').find((manifest) => manifest.metadata?.name === name);
      const selector = (service?.spec as { selector?: Record<string, string> } | undefined)?.selector ?? {};
      expect(Object.keys(selector).length).toBeGreaterThan(0);
      for (const [label, value] of Object.entries(selector)) expect(spec.template.metadata.labels[label]).toBe(value);
    },
  );

  it('the kustomization pins a tag for every image the manifests use', () => {
    const kustomization = parse(readText('k8s/kustomization.yaml')) as { images: Array<{ name: string }> };
    const pinned = new Set(kustomization.images.map((image) => image.name));
    const used = manifests
      .filter((manifest) => manifest.kind === 'Deployment' || manifest.kind === 'Job')
      .flatMap((manifest) => (manifest.spec as { template: { spec: PodSpec } }).template.spec.containers.map((c) => c.image ?? ''));
    for (const image of used) expect(pinned.has(image)).toBe(true);
  });
});
