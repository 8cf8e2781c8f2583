import { createServer, Socket as NetSocket, type Server, type Socket } from 'node:net';

// A TCP proxy between the app and PostgreSQL that a test can black-hole: connections stay open but no
// byte gets through in either direction (a dead network path, a frozen server), then flow again.

export type TcpProxy = { port: number; blackHole(on: boolean): void; close(): Promise<void> };

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let holed = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new NetSocket();
    sockets.add(client);
    sockets.add(upstream);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (d) => {
        if (!holed) to.write(d);
      });
    if (holed) {
      // A new connection into the black hole: accepted, never answered.
      client.on('error', () => {});
      client.on('close', () => sockets.delete(client));
      sockets.delete(upstream);
      return;
    }
    upstream.connect(targetPort, targetHost);
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    blackHole(on) {
      holed = on;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
