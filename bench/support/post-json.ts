// The benches' HTTP client call: a POST with a JSON body over a keep-alive agent, resolved once the whole answer has
// arrived (its status and its text).
import { type Agent, request } from 'node:http';

export function postJson(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}
