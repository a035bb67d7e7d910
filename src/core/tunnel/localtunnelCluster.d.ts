// Types for the piece of @n8n/localtunnel we use directly: the cluster of TCP connections to the tunnel server.
declare module '@n8n/localtunnel/lib/TunnelCluster' {
  import { EventEmitter } from 'node:events';
  import type { Socket } from 'node:net';
  interface ClusterInfo {
    name: string;
    url: string;
    max_conn: number;
    remote_host: string;
    remote_ip?: string;
    remote_port: number;
    local_port: number;
    local_host?: string;
  }
  class TunnelCluster extends EventEmitter {
    constructor(info: ClusterInfo);
    open(): void;
    on(event: 'open', listener: (remote: Socket) => void): this;
    on(event: 'dead', listener: () => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
    on(event: 'request', listener: (req: { method: string; path: string }) => void): this;
  }
  export = TunnelCluster;
}
