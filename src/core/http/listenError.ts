import type { Server } from 'node:http';
import { said, SaidError, type Said } from '../presentation/said';

/** A local server (the receiver, the sandbox) that could not open its port, said in words a user can act on rather
 * than Node's "listen EADDRINUSE: address already in use 127.0.0.1:8080". */
export class ListenError extends SaidError {
  constructor(
    message: Said,
    readonly code: string | undefined,
    readonly port: number,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

export function listenError(err: NodeJS.ErrnoException, host: string, port: number): ListenError {
  switch (err.code) {
    case 'EADDRINUSE':
      return new ListenError(
        said(
          'port {0} on {1} is already in use by another process: choose another port, or 0 for a free one',
          port,
          host,
        ),
        err.code,
        port,
      );
    case 'EACCES':
      return new ListenError(
        said(
          'port {0} on {1} needs privileges this process lacks (ports below 1024 usually do): choose one from 1024 up, or 0 for a free one',
          port,
          host,
        ),
        err.code,
        port,
      );
    case 'EADDRNOTAVAIL':
      return new ListenError(said('{0} is not an address of this machine', host), err.code, port);
    default:
      return new ListenError(said('cannot listen on {0} port {1}: {2}', host, port, err.message), err.code, port);
  }
}

/** Listens on host:port; a failure rejects with a ListenError. */
export function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(listenError(err, host, port)));
    server.listen(port, host, () => resolve());
  });
}
