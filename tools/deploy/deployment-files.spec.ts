// The deployment files cannot run here (no Docker engine, no cluster), so this checks what can be checked without
// them: the one Dockerfile builds every app under apps/ from the pinned base image and runs it as a non-root user,
// docker-compose.yml is valid against the compose specification (dclint) and wires every app, the datastores, the
// migration and tracing. k8s/ is checked by k8s-manifests.spec.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DCLinter } from 'dclint';
import { parse } from 'yaml';
import { APPS, PDF_RENDERER_ENV, PDF_RENDERER_NODE_FLAGS } from '../../tools/start/app-table.mjs';
import { dockerfileStages } from './dockerfile-stages.js';
import { appNames, appPort, statefulApps } from './platform-apps.js';

/** What the checks read of a dclint message (its published types do not resolve under this tsconfig). */
type LintMessage = { type: string; rule: string; message: string };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BASE_IMAGE = 'node:24-bookworm-slim';

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
    expect(app?.entry).toBe(`apps/${name}/dist/main.js`);
    expect(Object.keys(app?.ports ?? {}).length).toBeGreaterThan(0);
  });

  it('the npm start table names only existing apps, each port preferred by one app only', () => {
    for (const app of APPS) expect(appNames).toContain(app.name);
    const ports = APPS.flatMap((app) => Object.values(app.ports));
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe('Dockerfile (one for every app)', () => {
  const stages = dockerfileStages(readText('Dockerfile'));
  const stage = (name: string) => stages.find((candidate) => candidate.name === name);

  it('replaces the per-app Dockerfiles', () => {
    for (const name of appNames) expect(existsSync(path.join(root, 'apps', name, 'Dockerfile'))).toBe(false);
  });

  it(`builds from ${BASE_IMAGE} in stages, each from the base image or an earlier stage`, () => {
    expect(stages.map((s) => s.name)).toEqual(['manifests', 'build', 'migrate', 'runtime']);
    const known = new Set<string>();
    for (const { from, name } of stages) {
      expect(from === BASE_IMAGE || known.has(from)).toBe(true);
      if (name) known.add(name);
    }
  });

  it('takes the app as a build argument, checks it names an app, and builds only that app', () => {
    expect(readText('Dockerfile')).toMatch(/^ARG APP=\w/m); // before the first FROM: usable in every stage that declares it
    for (const name of ['build', 'runtime']) expect(stage(name)!.instructions).toContain('ARG APP');
    const build = stage('build')!.instructions.join('\n');
    expect(build).toContain('test -f "apps/${APP}/package.json"');
    expect(build).toContain('--projects="@talao/${APP}"');
  });

  it.each(appNames)('can build %s: an Nx project named @talao/<folder> whose build writes dist/ from src/', (name) => {
    const manifest = JSON.parse(readText(`apps/${name}/package.json`)) as { name: string; scripts?: Record<string, string> };
    expect(manifest.name).toBe(`@talao/${name}`);
    expect(manifest.scripts?.build).toMatch(/^swc src -d dist /);
  });

  it('runs the app as a non-root user from its built entry point, with exec (signals reach node)', () => {
    const runtime = stage('runtime')!;
    expect(runtime.from).toBe(BASE_IMAGE);
    expect(runtime.user).toBe('node');
    const cmd = runtime.instructions.at(-1)!;
    expect(cmd).toMatch(/^CMD \["\/bin\/sh", "-c", "/);
    // The apps start with the tracing entry; the simulator (tests and demos) without it.
    expect(cmd).toContain('exec node --enable-source-maps --import @talao/observability/instrument \\"apps/$APP/dist/main.js\\"');
    expect(cmd).toContain('if [ \\"$APP\\" = authorizer-sim ]; then exec node --enable-source-maps \\"apps/$APP/dist/main.js\\"');
    // Every app's entry point is where the CMD looks for it.
    for (const app of APPS) expect(app.entry).toBe(`apps/${app.name}/dist/main.js`);
  });

  it("starts pdf-renderer with the launcher's V8 flags and malloc arenas, as the app's own start script does", () => {
    const flags = PDF_RENDERER_NODE_FLAGS.join(' ');
    const variables = Object.entries(PDF_RENDERER_ENV).map(([name, value]) => `${name}=${value}`);
    expect(stage('runtime')!.instructions.at(-1)).toContain(
      `if [ \\"$APP\\" = pdf-renderer ]; then ${variables.map((v) => `export ${v}; `).join('')}exec node --enable-source-maps ${flags} ` +
        '--import @talao/observability/instrument',
    );
    const manifest = JSON.parse(readText('apps/pdf-renderer/package.json')) as { scripts: Record<string, string> };
    expect(manifest.scripts['start']).toBe(`${variables.join(' ')} node ${flags} --import @talao/observability/instrument dist/main.js`);
  });

  it("gives pdf-renderer's image Debian's Chromium headless shell and Liberation fonts, and only that one", () => {
    const install = stage('runtime')!.instructions.find((line) => line.includes('apt-get install'));
    expect(install).toMatch(
      /if \[ "\$APP" = pdf-renderer \]; then .*apt-get install -y --no-install-recommends chromium-headless-shell fonts-liberation/,
    );
  });

  it('listens on every interface inside the container, for each app (each app reads its own variable)', () => {
    const environment = stage('runtime')!
      .instructions.filter((line) => line.startsWith('ENV '))
      .join(' ');
    for (const name of appNames) {
      if (name === 'authorizer-sim') continue;
      const { variable } = appPort(name);
      const host = variable === 'PORT' ? 'HOST' : variable.replace(/PORT$/, 'HOST');
      expect(environment).toContain(`${host}=0.0.0.0`);
    }
    expect(environment).toContain('SIM_HOST=0.0.0.0');
  });

  it('has the migrate target: prisma migrate deploy as a non-root user', () => {
    const migrate = stage('migrate')!;
    expect(migrate.from).toBe('build');
    expect(migrate.user).toBe('node');
    expect(migrate.instructions).toContain('CMD ["node_modules/.bin/prisma", "migrate", "deploy"]');
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
  type Service = {
    image?: string;
    build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
    environment?: Record<string, string>;
    depends_on?: Record<string, { condition: string }>;
    healthcheck?: { test: unknown };
    volumes?: string[];
    ports?: string[];
  };
  const compose = parse(readText('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
  const services = Object.entries(compose.services);

  it('is valid against the compose specification, with no dclint error', () => {
    // Style rules (key and service order) are off: the file is ordered by what starts first, not alphabetically.
    const style = ['service-keys-order', 'services-alphabetical-order', 'top-level-properties-order', 'service-ports-alphabetical-order'];
    const linter = new DCLinter({ rules: Object.fromEntries(style.map((rule) => [rule, 0])), quiet: true, debug: false, exclude: [] });
    const [result] = linter.lintFiles([path.join(root, 'docker-compose.yml')], false);
    expect((result!.messages as LintMessage[]).filter((message) => message.type === 'error')).toEqual([]);
  });

  it('dclint does catch an invalid compose file (the check above can fail)', () => {
    const linter = new DCLinter({ rules: {}, quiet: true, debug: false, exclude: [] });
    const [result] = linter.lintFiles([path.join(root, 'tools/deploy/testing/invalid-compose.yml')], false);
    expect((result!.messages as LintMessage[]).map((message) => message.rule)).toContain('invalid-schema');
  });

  it('has PostgreSQL and Redis with health checks, and a one-shot migration after PostgreSQL', () => {
    for (const name of ['postgres', 'redis']) expect(compose.services[name]?.healthcheck?.test).toBeDefined();
    const migrate = compose.services.migrate;
    expect(migrate?.build).toMatchObject({ context: '.', dockerfile: 'Dockerfile', target: 'migrate' });
    expect(migrate?.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(migrate?.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
  });

  it.each(appNames)('has a service for %s built from the Dockerfile with APP=%s, on its port, with a health check', (name) => {
    const service = compose.services[name];
    expect(service?.build).toEqual({ context: '.', dockerfile: 'Dockerfile', target: 'runtime', args: { APP: name } });
    expect(JSON.stringify(service?.healthcheck?.test)).toContain(
      `http://127.0.0.1:${Object.values(APPS.find((a) => a.name === name)!.ports).at(-1)}/`,
    );
    if (name !== 'authorizer-sim') expect(service?.environment?.[appPort(name).variable]).toBe(String(appPort(name).number));
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

  it('traces every app through an OpenTelemetry collector into Jaeger, with the collector config committed', () => {
    const collector = compose.services['otel-collector'];
    expect(collector?.image).toMatch(/^otel\/opentelemetry-collector-contrib:\d+\.\d+\.\d+$/);
    expect(compose.services.jaeger?.image).toMatch(/^jaegertracing\/all-in-one:\d+\.\d+\.\d+$/);
    const mount = collector?.volumes?.find((volume) => volume.startsWith('./deploy/'));
    const config = parse(readText(mount!.split(':')[0]!)) as {
      receivers: { otlp: { protocols: Record<string, { endpoint: string }> } };
      exporters: Record<string, { endpoint?: string }>;
      service: { pipelines: { traces: { receivers: string[]; exporters: string[] } } };
    };
    expect(config.receivers.otlp.protocols.http?.endpoint).toBe('0.0.0.0:4318');
    expect(config.service.pipelines.traces.receivers).toEqual(['otlp']);
    const [exporter] = config.service.pipelines.traces.exporters;
    expect(config.exporters[exporter!]?.endpoint).toBe('jaeger:4317');
    for (const name of appNames.filter((app) => app !== 'authorizer-sim')) {
      expect(compose.services[name]?.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
      expect(compose.services[name]?.environment?.OTEL_SERVICE_NAME).toBe(`talao-${name}`);
    }
  });

  it('publishes ports on the loopback interface only', () => {
    for (const [, service] of services) for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  it('secrets come from the environment, never written in the file', () => {
    for (const [, service] of services) {
      for (const variable of ['ADMIN_TOKEN', 'CERTIFICATE_ENCRYPTION_KEY', 'SIM_CONTROL_TOKEN']) {
        const value = service.environment?.[variable];
        if (value !== undefined) expect(value).toMatch(new RegExp(`^\\$\\{${variable}:\\?`));
      }
    }
  });
});
