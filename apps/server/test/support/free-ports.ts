import net from 'node:net';

/**
 * Ports for servers that tests start as separate processes (HTTP, MQTT, a Mosquitto, HAProxy).
 *
 * They are taken below the kernel's ephemeral range (32768–60999 here), never by listen(0): a
 * port the kernel hands out with listen(0) and that is closed again belongs to the ephemeral
 * range, where every outgoing connection (a pool's connection to PostgreSQL, a test's fetch) may
 * take it before the child binds it. CI saw exactly that: "listen EADDRINUSE 0.0.0.0:40957" from a
 * lifecycle server. Each worker of a run (VITEST_POOL_ID) draws from a slice of its own, so two
 * files running at once never get the same port, and a process never hands the same port out twice.
 */
const LOW = 20_000;
const SLICE = 1_400;
const SLICES = 9; // 20000 + 9 × 1400 = 32600, still below the ephemeral range

const handedOut = new Set<number>();

function slice(): number {
  const pool = Number(process.env.VITEST_POOL_ID ?? 0);
  return Number.isInteger(pool) && pool > 0 ? pool % SLICES : 0;
}

function bindable(port: number): Promise<net.Server | undefined> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}

/** `count` distinct ports, each free on every interface when chosen (all are held until all are found). */
export async function freePorts(count: number): Promise<number[]> {
  const base = LOW + slice() * SLICE;
  const held: net.Server[] = [];
  const ports: number[] = [];
  try {
    for (let tries = 0; ports.length < count; tries++) {
      if (tries > 2 * SLICE) throw new Error(`no free port between ${base} and ${base + SLICE - 1}`);
      const port = base + Math.floor(Math.random() * SLICE);
      if (handedOut.has(port)) continue;
      const server = await bindable(port);
      if (!server) continue;
      held.push(server);
      ports.push(port);
      handedOut.add(port);
    }
    return ports;
  } finally {
    await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}
