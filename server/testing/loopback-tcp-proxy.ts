/**
 * A TCP proxy on 127.0.0.1 in front of a database server, for tests of what a run does when the
 * database goes away: `cut()` resets every open connection and every new one until `restore()`,
 * as a stopped server does (a client sees its sockets die and its reconnects fail), without
 * stopping a server other tests share.
 */
import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Connections reset since the start (open ones cut, new ones refused while cut). */
  readonly resets: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { readonly host: string; readonly port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  let resets = 0;
  const server = createServer((client) => {
    if (cut) {
      resets += 1;
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection(target);
    open.add(client).add(upstream);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get resets() {
      return resets;
    },
    cut() {
      cut = true;
      for (const socket of open) {
        resets += 1;
        socket.resetAndDestroy();
      }
      open.clear();
    },
    restore() {
      cut = false;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
