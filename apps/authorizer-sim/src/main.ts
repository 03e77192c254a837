// The authorizer simulator as a process: HTTPS (mTLS) for the SEFAZ and NFS-e Nacional paths, HTTP for control.
//   SIM_PORT (8443), SIM_HOST (127.0.0.1), SIM_HOSTNAMES (localhost,127.0.0.1: names in the server certificate),
//   SIM_CONTROL_PORT (8444), SIM_CONTROL_HOST (127.0.0.1), SIM_CONTROL_TOKEN (else generated into the data dir),
//   SIM_DATA_DIR (.data/authorizer-sim: the test CA and the control token), SIM_CA_CERTIFICATE_PEM + SIM_CA_PRIVATE_KEY_PEM.
import { randomBytes, X509Certificate } from 'node:crypto';
import { loadPkcs12 } from '@talao/xml-signing';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { SimClock } from './clock.js';
import { createControlServer } from './control/control-server.js';
import { FaultBook } from './control/fault-settings.js';
import { createSimServer } from './http/sim-server.js';
import { type SimServices } from './sefaz/sefaz-context.js';
import { NfseState } from './nfse/nfse-state.js';
import { loadOrCreateSimCa } from './sim-ca.js';
import { DistributionFeed } from './state/distribution-feed.js';
import { SefazState } from './state/sefaz-state.js';

const env = process.env;
const dataDir = resolve(env.SIM_DATA_DIR ?? '.data/authorizer-sim');
const hostnames = (env.SIM_HOSTNAMES ?? 'localhost,127.0.0.1')
  .split(',')
  .map((h) => h.trim())
  .filter(Boolean);
const material = loadOrCreateSimCa(dataDir, hostnames);

const tokenFile = join(dataDir, 'control-token');
const token = env.SIM_CONTROL_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : randomBytes(24).toString('hex'));
if (!env.SIM_CONTROL_TOKEN) writeFileSync(tokenFile, token, { mode: 0o600 });

// The national environment signs what it generates (NFS-e, events) with a certificate of its own.
const nationalPassword = randomBytes(12).toString('hex');
const national = loadPkcs12(
  material.ca.issueA1({ taxId: '00394460005887', legalName: 'SEFIN NACIONAL SIMULADA', password: nationalPassword }),
  nationalPassword,
);

const services: SimServices = {
  state: new SefazState(),
  feed: new DistributionFeed(),
  clock: new SimClock(),
  faults: new FaultBook(),
  trustedCa: new X509Certificate(material.ca.caCertificatePem),
  nfse: new NfseState(),
  nationalKey: { privateKeyPem: national.privateKeyPem, certificateBase64: national.certificateBase64 },
};

const sim = createSimServer(material, services);
const control = createControlServer(services, material.ca, token);
sim.listen(Number(env.SIM_PORT ?? 8443), env.SIM_HOST ?? '127.0.0.1', () => {
  control.listen(Number(env.SIM_CONTROL_PORT ?? 8444), env.SIM_CONTROL_HOST ?? '127.0.0.1', () => {
    // One JSON line that a parent process (tests, npm start) reads to find the simulator.
    console.log(
      JSON.stringify({
        event: 'authorizer-sim-ready',
        port: (sim.address() as AddressInfo).port,
        controlPort: (control.address() as AddressInfo).port,
        dataDir,
        caCertificateFile: join(dataDir, 'ca-certificate.pem'),
      }),
    );
  });
});

const shutdown = () => {
  sim.closeAllConnections();
  control.closeAllConnections();
  sim.close();
  control.close();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
