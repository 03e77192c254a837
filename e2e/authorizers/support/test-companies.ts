// Test companies with A1 certificates issued by the simulator's CA (through its control API).
import type { SefazCallContext } from '@talao/authorizer-clients';
import { type A1Certificate, loadPkcs12 } from '@talao/xml-signing';
import { type RunningSimulator } from './simulator-process.js';

export async function issueCompanyCertificate(
  sim: RunningSimulator,
  taxId: string,
  legalName = 'EMPRESA TESTE LTDA',
): Promise<A1Certificate> {
  const issued = await sim.control('POST', '/_control/certificates', { taxId, legalName, password: 'secret' });
  if (issued.status !== 201) throw new Error(`certificate not issued: ${JSON.stringify(issued.json)}`);
  return loadPkcs12(Buffer.from(String(issued.json['pkcs12Base64']), 'base64'), 'secret');
}

/** A company of São Paulo calling the homologation authorizers: its certificate, as every client's call context. */
export type TestCaller = SefazCallContext & { credentials: A1Certificate };

export async function homologationCaller(sim: RunningSimulator, taxId: string, legalName?: string): Promise<TestCaller> {
  return { credentials: await issueCompanyCertificate(sim, taxId, legalName), environment: 'homologation', uf: 'SP' };
}
