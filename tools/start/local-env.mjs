// Writes .data/local.env (mode 0600): the environment of this run, so other commands can reach the same platform —
//   set -a; . .data/local.env; set +a; npm run admin -- …
import { writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';

export async function writeLocalEnv({ dataDir, values }) {
  const file = path.join(dataDir, 'local.env');
  const quote = (value) => `'${String(value).replaceAll("'", "'\\''")}'`;
  const text = Object.entries(values)
    .map(([name, value]) => `${name}=${quote(value)}`)
    .join('\n');
  await writeFile(file, `# Written by npm start; valid while it runs.\n${text}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}
