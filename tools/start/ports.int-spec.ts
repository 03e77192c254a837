import net from 'node:net';
import { choosePorts, findFreePort } from './ports.mjs';

const quietLog = { info: () => {}, warn: () => {}, error: () => {}, line: () => {} };

it('keeps preferred ports that are free, replaces busy ones, never hands out one port twice', async () => {
  const busy = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => busy.once('listening', resolve));
  const busyPort = (busy.address() as net.AddressInfo).port;
  const freePort = await findFreePort();
  try {
    const ports = await choosePorts(
      [
        { name: 'one', ports: { http: freePort, health: busyPort } },
        { name: 'two', ports: { http: freePort } },
      ],
      { log: quietLog, env: {} },
    );
    expect(ports.one?.http).toBe(freePort);
    expect(ports.one?.health).not.toBe(busyPort);
    expect(ports.two?.http).not.toBe(freePort);
    expect(new Set([ports.one?.http, ports.one?.health, ports.two?.http]).size).toBe(3);
  } finally {
    busy.close();
  }
});

it('PORT from the environment is the gateway port', async () => {
  const wanted = await findFreePort();
  const ports = await choosePorts([{ name: 'gateway', ports: { http: 3000 } }], { log: quietLog, env: { PORT: String(wanted) } });
  expect(ports.gateway?.http).toBe(wanted);
});
