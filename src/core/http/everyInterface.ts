// A server bound to every interface (0.0.0.0, ::) in a container: what it listens on is not an address to connect
// to, so the addresses it hands out name this machine's loopback, which it always answers.

/** True for the wildcard addresses: 0.0.0.0, :: (IPv6 brackets optional). */
export function isEveryInterface(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1');
  return h === '0.0.0.0' || h === '::';
}

/** The address to connect to for a server listening on `address`: loopback for a wildcard, else itself. */
export function connectableAddress(address: string): string {
  return address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
}
