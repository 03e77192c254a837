// A small Dockerfile reader for the deployment-files test: joins continuation lines, drops comments and splits the
// file into build stages (FROM … [AS name]) with the instructions of each and the last USER set in it.
export interface DockerfileStage {
  from: string;
  name?: string;
  user?: string;
  instructions: string[];
}

export function dockerfileStages(text: string): DockerfileStage[] {
  const logicalLines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
  const stages: DockerfileStage[] = [];
  for (const line of logicalLines) {
    const from = /^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?\s*$/i.exec(line);
    if (from) {
      stages.push({ from: from[1]!, ...(from[2] && { name: from[2] }), instructions: [] });
      continue;
    }
    const current = stages.at(-1);
    if (!current) continue; // ARG before the first FROM
    current.instructions.push(line);
    const user = /^USER\s+(\S+)/i.exec(line);
    if (user) current.user = user[1]!;
  }
  return stages;
}
