import net from 'node:net';

/**
 * A TCP relay in front of a real server (PostgreSQL, a broker) that a test can break the way a
 * network or an operator does: `terminate()` drops every open connection (as
 * `pg_terminate_backend` or a failover does) and keeps accepting; `stop()` also stops listening,
 * so new connections are refused (the database is down); `start()` listens again on the same
 * port. The server behind it keeps running: the fault is between the console and the server,
 * exactly where a blip happens.
 */
export class TcpFaultProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private listeningPort = 0;
  private cutAfterBytes: Buffer | undefined;
  private cutDone: (() => void) | undefined;

  private constructor(
    private readonly target: { host: string; port: number },
    private readonly host: string,
  ) {}

  /** Listens on a free port of `host` (default 127.0.0.1) and relays to `target`. */
  static async open(target: { host: string; port: number }, host = '127.0.0.1'): Promise<TcpFaultProxy> {
    const proxy = new TcpFaultProxy(target, host);
    await proxy.start();
    return proxy;
  }

  /** For a `postgres://…` or `mqtt://…` URL: the same URL through a new proxy. */
  static async forUrl(url: string): Promise<{ proxy: TcpFaultProxy; url: string }> {
    const parsed = new URL(url);
    const defaultPort = parsed.protocol.startsWith('postgres') ? 5432 : 1883;
    const proxy = await TcpFaultProxy.open({
      host: parsed.hostname || '127.0.0.1',
      port: Number(parsed.port || defaultPort),
    });
    parsed.hostname = proxy.host;
    parsed.port = String(proxy.port);
    return { proxy, url: parsed.toString() };
  }

  get port(): number {
    return this.listeningPort;
  }

  /** Open relayed connections. */
  get connections(): number {
    return this.sockets.size;
  }

  /** Listens again (on the port it had, once it had one). */
  async start(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => this.relay(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listeningPort, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listeningPort = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Drops every open connection; new ones are still accepted. */
  terminate(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Refuses new connections and drops the open ones: the server is unreachable. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.terminate();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * The next time a client sends `pattern` (for example PostgreSQL's `commit` query), that chunk
   * reaches the server, and then the client's connection drops before any reply comes back: the
   * server acted, the client cannot know. Resolves once it happened.
   */
  cutAfter(pattern: Buffer): Promise<void> {
    this.cutAfterBytes = pattern;
    return new Promise((resolve) => (this.cutDone = resolve));
  }

  async close(): Promise<void> {
    await this.stop();
  }

  private relay(client: net.Socket): void {
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      const cut = this.cutAfterBytes && chunk.includes(this.cutAfterBytes);
      if (!cut) {
        upstream.write(chunk);
        return;
      }
      this.cutAfterBytes = undefined;
      // The server reads the chunk, then the end of its connection; the client hears nothing back.
      upstream.end(chunk);
      client.destroy();
      this.sockets.delete(client);
      this.cutDone?.();
    });
    upstream.pipe(client);
  }
}
