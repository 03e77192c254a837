// The simulator of one spec file, as the authorizer clients' specs use it: the process and a mutual-TLS agent pool
// that trusts its CA.
import { jest } from '@jest/globals';
import { MutualTlsAgentPool } from '@talao/authorizer-clients';
import { type RunningSimulator, startSimulator } from './simulator-process.js';

export interface SimulatorSuite {
  sim: RunningSimulator;
  agents: MutualTlsAgentPool;
  /** What every client of these specs is built with: the pool, and the simulator as the homologation authorizer. */
  clientOptions: { agents: MutualTlsAgentPool; baseUrlOverrides: { homologation: string } };
}

/**
 * Started before the file's tests, its faults cleared after each, stopped after all. Its members exist only once it
 * has started: read them inside a test or hook. The file's tests get 60 s each: a round trip may wait out the
 * simulator's faults (timeouts, retries) and a start builds the simulator first.
 */
export function useSimulator(): SimulatorSuite {
  jest.setTimeout(60_000);
  let suite: SimulatorSuite | undefined;
  beforeAll(async () => {
    const sim = await startSimulator();
    const agents = new MutualTlsAgentPool({ caBundlePem: sim.caCertificatePem });
    suite = { sim, agents, clientOptions: { agents, baseUrlOverrides: { homologation: sim.baseUrl } } };
  });
  afterEach(async () => {
    await suite?.sim.control('DELETE', '/_control/faults');
  });
  afterAll(async () => {
    suite?.agents.destroy();
    await suite?.sim.stop();
  });
  const started = (): SimulatorSuite => {
    if (!suite) throw new Error('the simulator is not started yet (use it inside a test or hook)');
    return suite;
  };
  return {
    get sim() {
      return started().sim;
    },
    get agents() {
      return started().agents;
    },
    get clientOptions() {
      return started().clientOptions;
    },
  };
}
