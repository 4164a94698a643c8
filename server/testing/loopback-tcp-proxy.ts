/**
 * A TCP proxy on 127.0.0.1 in front of a database server, for tests of what a run does when the
 * database goes away: `cut()` resets every open connection and every new one until `restore()`,
 * as a stopped server does (a client sees its sockets die and its reconnects fail), without
 * stopping a server other tests share. `cutAfter` cuts right after a chosen statement reached the
 * server (its answer is lost, its effect is not); `stall()` stops answering without a reset, as a
 * network partition does; `delayConnections(ms)` opens each new connection that much later, as a
 * loaded server does.
 */
import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Connections reset since the start (open ones cut, new ones refused while cut). */
  readonly resets: number;
  cut(): void;
  /**
   * Cuts as `cut()` does once the client has sent bytes holding `marker` (a statement's parameter)
   * and the PostgreSQL Sync that ends the statement: the server still receives and runs it, and
   * the client never hears its answer.
   */
  cutAfter(marker: string): void;
  /** Forwards nothing either way and answers no new connection, resetting nothing, until `restore()`. */
  stall(): void;
  /** New connections reach the server `ms` later (what the client sent meanwhile is held, not lost); 0 ends it. */
  delayConnections(ms: number): void;
  /** Ends a cut or a stall; a stalled connection is reset then (what it carried is lost). */
  restore(): void;
  close(): Promise<void>;
}

/** A PostgreSQL frontend Sync message ('S', length 4): the end of an extended-protocol statement. */
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

export async function startTcpProxy(target: { readonly host: string; readonly port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const stalled = new Set<Socket>();
  let cut = false;
  let stalling = false;
  let resets = 0;
  let connectionDelayMs = 0;
  let marker: Buffer | undefined;
  const cutAll = () => {
    cut = true;
    for (const socket of open) {
      resets += 1;
      socket.resetAndDestroy();
    }
    open.clear();
  };
  const server = createServer((client) => {
    if (connectionDelayMs > 0) {
      client.pause();
      const delayed = setTimeout(() => forward(client), connectionDelayMs);
      client.once('close', () => clearTimeout(delayed)).on('error', () => undefined);
      return;
    }
    forward(client);
  });
  const forward = (client: Socket) => {
    if (client.destroyed) return;
    if (cut) {
      resets += 1;
      client.resetAndDestroy();
      return;
    }
    if (stalling) {
      stalled.add(client.on('error', () => undefined));
      return;
    }
    const upstream = createConnection(target);
    open.add(client).add(upstream);
    let draining = false;
    let markerSeen = false;
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      if (!draining) upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (chunk: Buffer) => {
      if (stalling) return;
      upstream.write(chunk);
      if (!marker) return;
      markerSeen ||= chunk.includes(marker);
      if (!markerSeen || !chunk.subarray(-SYNC.length).equals(SYNC)) return;
      marker = undefined;
      // The server reads all that was sent before this end, and runs it; its answer goes nowhere.
      draining = true;
      open.delete(upstream);
      upstream.end();
      cutAll();
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!stalling && !draining) client.write(chunk);
    });
    // A delayed connection was paused: what it sent meanwhile flows now that it has a reader.
    client.resume();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get resets() {
      return resets;
    },
    cut: cutAll,
    cutAfter(text) {
      marker = Buffer.from(text);
    },
    stall() {
      stalling = true;
    },
    delayConnections(ms) {
      connectionDelayMs = ms;
    },
    restore() {
      cut = false;
      if (!stalling) return;
      stalling = false;
      // What the stalled connections carried was dropped: their sessions cannot go on.
      for (const socket of [...stalled, ...open]) {
        resets += 1;
        socket.resetAndDestroy();
      }
      stalled.clear();
      open.clear();
    },
    close() {
      for (const socket of [...open, ...stalled]) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
