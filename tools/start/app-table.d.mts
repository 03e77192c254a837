// Types of app-table.mjs for TypeScript callers (the deployment-files test).
export interface LauncherApp {
  readonly name: string;
  readonly entry: string;
  readonly port: number;
  env(context: unknown): Record<string, string>;
}
export declare const APPS: readonly LauncherApp[];
