import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderKustomization, strategicMerge } from './kustomize-render.js';

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: { app: web }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - name: web
          image: talao/web
          args: ['--a']
          env:
            - { name: A, value: '1' }
            - { name: B, value: '2' }
        - name: sidecar
          image: busybox:1.36
`;

describe('renderKustomization', () => {
  let root: string;
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), text);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'kustomize-render-'));
    write('base/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [app.yaml, ns.yaml]\n');
    write('base/app.yaml', deployment);
    write('base/ns.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: { name: base-namespace }\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('renders a base, then the overlay: patches merge containers and env by name, other lists are replaced', () => {
    write(
      'overlay/kustomization.yaml',
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'namespace: prod',
        'resources: [../base]',
        'patches: [{ path: patch.yaml }]',
        'labels: [{ pairs: { team: fiscal }, includeSelectors: false }]',
        "images: [{ name: talao/web, newTag: '1.2.3' }, { name: busybox, newName: registry.example/busybox }]",
      ].join('\n'),
    );
    write(
      'overlay/patch.yaml',
      `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 5
  template:
    spec:
      containers:
        - name: web
          args: ['--b']
          env:
            - { name: B, value: '3' }
            - { name: C, value: '4' }
`,
    );
    const objects = renderKustomization(path.join(root, 'overlay'));
    const web = objects.find((object) => object.kind === 'Deployment')!;
    const spec = web.spec as { replicas: number; template: { spec: { containers: Array<Record<string, unknown>> } } };
    expect(spec.replicas).toBe(5);
    const [main, sidecar] = spec.template.spec.containers;
    expect(main).toMatchObject({
      name: 'web',
      image: 'talao/web:1.2.3',
      args: ['--b'],
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '3' },
        { name: 'C', value: '4' },
      ],
    });
    expect(sidecar!.image).toBe('registry.example/busybox:1.36');
    expect(web.metadata).toMatchObject({ namespace: 'prod', labels: { app: 'web', team: 'fiscal' } });
    const namespace = objects.find((object) => object.kind === 'Namespace')!;
    expect(namespace.metadata).toEqual({ name: 'prod', labels: { team: 'fiscal' } });
  });

  it('refuses a patch without a target, a field it does not render and a resource that does not exist', () => {
    const kustomization = (extra: string) =>
      write(
        'overlay/kustomization.yaml',
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../base]\n${extra}`,
      );
    write('overlay/patch.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: other }\nspec: { replicas: 1 }\n');
    kustomization('patches: [{ path: patch.yaml }]\n');
    expect(() => renderKustomization(path.join(root, 'overlay'))).toThrow(/targets Deployment\/other/);
    kustomization('namePrefix: x-\n');
    expect(() => renderKustomization(path.join(root, 'overlay'))).toThrow(/does not support namePrefix/);
    write('overlay/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [missing.yaml]\n');
    expect(() => renderKustomization(path.join(root, 'overlay'))).toThrow(/missing.yaml does not exist/);
  });

  it('applies JSON 6902 patches to every object its target selects, by kind and by name', () => {
    write('base/second.yaml', deployment.replace('name: web\n  labels', 'name: api\n  labels'));
    write(
      'base/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [app.yaml, second.yaml]\n',
    );
    write(
      'overlay/kustomization.yaml',
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'resources: [../base]',
        'patches:',
        '  - target: { kind: Deployment }',
        '    patch: |-',
        '      - { op: replace, path: /spec/replicas, value: 1 }',
        '  - target: { kind: Deployment, name: api }',
        '    patch: |-',
        '      - { op: add, path: /spec/template/spec/containers/0/env/-, value: { name: C, value: "3" } }',
        '      - { op: remove, path: /spec/template/spec/containers/1 }',
      ].join('\n'),
    );
    const objects = renderKustomization(path.join(root, 'overlay'));
    const spec = (name: string) =>
      objects.find((object) => object.metadata.name === name)!.spec as {
        replicas: number;
        template: { spec: { containers: Array<{ name: string; env?: unknown[] }> } };
      };
    expect([spec('web').replicas, spec('api').replicas]).toEqual([1, 1]);
    expect(spec('web').template.spec.containers).toHaveLength(2);
    expect(spec('api').template.spec.containers.map((container) => container.name)).toEqual(['web']);
    expect(spec('api').template.spec.containers[0]!.env).toHaveLength(3);
  });

  it('refuses a JSON patch on a missing path, and several patches in one file (kustomize takes one per entry)', () => {
    const kustomization = (patches: string) =>
      write(
        'overlay/kustomization.yaml',
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../base]\npatches:\n${patches}`,
      );
    kustomization('  - target: { kind: Deployment }\n    patch: "[{ op: replace, path: /spec/paused, value: true }]"\n');
    expect(() => renderKustomization(path.join(root, 'overlay'))).toThrow(/\/spec\/paused does not exist/);
    write(
      'overlay/two.yaml',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec: { replicas: 1 }\n---\napiVersion: v1\nkind: Namespace\nmetadata: { name: x }\n',
    );
    kustomization('  - path: two.yaml\n');
    expect(() => renderKustomization(path.join(root, 'overlay'))).toThrow(/two.yaml holds 2 documents; one patch per entry/);
  });

  it('refuses the same object twice', () => {
    write('base/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [app.yaml, app.yaml]\n');
    expect(() => renderKustomization(path.join(root, 'base'))).toThrow(/Deployment\/\/web is defined twice/);
  });
});

describe('strategicMerge', () => {
  it('deletes a field patched to null and merges Service ports on port, volume mounts on mountPath', () => {
    expect(strategicMerge({ a: 1, b: 2 }, { b: null })).toEqual({ a: 1 });
    expect(strategicMerge({ ports: [{ port: 80, name: 'http' }] }, { ports: [{ port: 80, targetPort: 'web' }, { port: 443 }] })).toEqual({
      ports: [{ port: 80, name: 'http', targetPort: 'web' }, { port: 443 }],
    });
    expect(
      strategicMerge(
        { volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] },
        {
          volumeMounts: [
            { name: 'tmp', mountPath: '/tmp', readOnly: true },
            { name: 'ca', mountPath: '/ca' },
          ],
        },
      ),
    ).toEqual({
      volumeMounts: [
        { name: 'tmp', mountPath: '/tmp', readOnly: true },
        { name: 'ca', mountPath: '/ca' },
      ],
    });
  });
});
